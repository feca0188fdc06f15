"""Staff screens: edit the policy; review every guardrail decision and pending confirmation."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from guardrails.models import (
    GuardrailEvent,
    GuardrailPolicy,
    PendingAction,
    PolicyVersion,
    registered_tool_names,
)
from guardrails.policy_versions import POLICY_FIELDS, policy_restore, policy_save
from staff.display import ReadOnlyAdmin, admin_link, json_dumps, json_pretty, thread_link


class GuardrailPolicyForm(forms.ModelForm):
    """Tool names are ticked from the registry, so a misspelt name or a JSON string cannot get in."""

    allowed_tools = forms.MultipleChoiceField(
        choices=[],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Tools the model may call. None ticked means every registered tool.",
    )

    class Meta:
        model = GuardrailPolicy
        fields = POLICY_FIELDS

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        tool_names = registered_tool_names()  # handed over by chat/apps.py: guardrails never imports chat

        self.fields["allowed_tools"].choices = [(name, name) for name in tool_names]


@admin.register(GuardrailPolicy)
class GuardrailPolicyAdmin(admin.ModelAdmin):
    form = GuardrailPolicyForm
    list_display = [
        "__str__",
        "returns_enabled",
        "confirmation_mode",
        "confirm_above_amount",
        "max_refund_without_human",
        "returns_per_thread",
        "turns_per_thread",
        "updated_at",
    ]
    readonly_fields = ["version", "updated_at", "history"]
    fieldsets = [
        (
            "Returns",
            {
                "fields": [
                    "returns_enabled",
                    "confirmation_mode",
                    "confirm_above_amount",
                    "max_refund_without_human",
                    "returns_per_thread",
                ]
            },
        ),
        (
            "Staff approval",
            {
                "description": "Returns that also need a staff member's approval after the customer confirms.",
                "fields": [
                    "staff_approval_always",
                    "staff_approval_above_amount",
                    "staff_approval_returns_over",
                    "staff_approval_period_days",
                    "staff_approval_ttl_hours",
                ],
            },
        ),
        ("Conversation", {"fields": ["allowed_tools", "turns_per_thread"]}),
        ("Audit", {"fields": ["version", "updated_at", "history"]}),
    ]

    def has_add_permission(self, request) -> bool:
        # One active policy: staff edit it, they do not create competing ones.
        return not GuardrailPolicy.objects.exists()

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def save_model(self, request, obj, form, change) -> None:
        policy_save(policy=obj, changed_by=request.user)

    @admin.display(description="history")
    def history(self, policy: GuardrailPolicy) -> str:
        url = reverse("admin:guardrails_policyversion_changelist")
        return format_html('<a href="{}">Every version: who changed what, old and new values</a>', url)


@admin.register(PolicyVersion)
class PolicyVersionAdmin(ReadOnlyAdmin):
    """The policy's history. Read-only; "Restore" applies a past version as a new one."""

    list_display = ["version", "changed_at", "changed_by_name", "changed_fields", "restored_from"]
    list_filter = ["changed_at", "changed_by_name"]
    date_hierarchy = "changed_at"
    fields = ["version", "changed_at", "changed_by_name", "restored_from", "changes_table", "values_json"]
    readonly_fields = fields
    actions = ["restore"]

    class Media:
        css = {"all": ["staff/admin.css"]}

    def has_restore_permission(self, request) -> bool:
        return request.user.has_perm("guardrails.change_guardrailpolicy")

    @admin.display(description="changed")
    def changed_fields(self, version: PolicyVersion) -> str:
        return ", ".join(version.changes) or "-"

    @admin.display(description="changes (old → new)")
    def changes_table(self, version: PolicyVersion) -> str:
        rows = format_html_join(
            "",
            "<tr><th>{}</th><td>{}</td><td>{}</td></tr>",
            ((name, json_dumps(change["old"]), json_dumps(change["new"])) for name, change in version.changes.items()),
        )
        return format_html("<table><tr><th>field</th><th>old</th><th>new</th></tr>{}</table>", rows)

    @admin.display(description="policy after this edit")
    def values_json(self, version: PolicyVersion) -> str:
        return json_pretty(version.values)

    @admin.action(description="Restore the selected version (saved as a new version)", permissions=["restore"])
    def restore(self, request, queryset) -> None:
        if queryset.count() != 1:
            self.message_user(request, "Select exactly one version to restore.", messages.ERROR)
            return
        try:
            version = policy_restore(version=queryset.get(), restored_by=request.user)
        except ValidationError as error:
            self.message_user(request, f"Not restored: {'; '.join(error.messages)}", messages.ERROR)
            return
        policy = GuardrailPolicy.objects.order_by("pk").first()
        self.log_change(request, policy, f"Restored v{version.restored_from.version} as v{version.version}.")
        self.message_user(request, f"Restored as policy v{version.version}.", messages.SUCCESS)


# What each code means, for staff reading an event; unknown codes are shown as they are.
CODE_EXPLANATIONS = {
    "returns_disabled": "Returns are switched off in the policy.",
    "tool_not_allowed": "The policy does not allow this tool.",
    "identity_not_verified": "The email was not verified for this order in this conversation.",
    "eligibility_not_verified": "Return eligibility was not checked for this order first.",
    "order_not_delivered": "The order is not delivered yet.",
    "outside_return_window": "The return window has closed.",
    "item_not_in_order": "An item named is not part of the order.",
    "item_not_returnable": "An item cannot be returned (ebook, audiobook, gift card, personalised).",
    "already_returned": "The item was already returned or a return is pending.",
    "return_limit_exceeded": "This conversation reached the policy's returns limit.",
    "refund_exceeds_limit": "The refund is above what the bot may give without a person.",
    "confirmation_required": "The customer was asked to confirm the return.",
    "confirmation_expired": "The customer did not confirm in time.",
    "confirmation_pending": "A confirmation was already waiting for the customer.",
    "effect_changed": "The order changed between the preview and the confirmation.",
    "instruction_override": "L0: the message tries to override the assistant's instructions.",
    "role_play_jailbreak": "L0: the message asks the assistant to play a role without its rules.",
    "fake_role_tag": "L0: the message imitates a system or assistant turn.",
    "prompt_extraction": "L0: the message asks for the system prompt.",
    "encoded_payload": "L0: the message carries an encoded payload.",
    "invisible_unicode": "L0: the message hides text in invisible characters.",
    "control_characters": "L0: control characters were stripped.",
    "truncated": "L0: the message was cut to the length limit.",
    "off_topic": "The reply engaged with an off-topic request instead of using the refusal template.",
    "prompt_leak": "The reply contained part of the system prompt.",
}


def code_explanation(code: str) -> str:
    return CODE_EXPLANATIONS.get(code) or code.replace("_", " ").capitalize() + "."


@admin.register(GuardrailEvent)
class GuardrailEventAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "layer", "stage", "code", "action", "tool_name", "policy_version", "thread_link"]
    list_filter = ["layer", "action", "code", "policy_version", "stage", "tool_name", "created_at"]
    search_fields = ["code", "=thread__id", "=run__id"]
    date_hierarchy = "created_at"
    fieldsets = [
        (None, {"fields": ["created_at", "layer", "stage", "code", "explanation", "action", "detail_text"]}),
        ("Where", {"fields": ["thread_link", "run_link", "tool_name", "policy_version"]}),
        ("The tool call", {"fields": ["tool_input", "tool_result"]}),
    ]
    readonly_fields = [
        "created_at",
        "layer",
        "stage",
        "code",
        "explanation",
        "action",
        "detail_text",
        "thread_link",
        "run_link",
        "tool_name",
        "policy_version",
        "tool_input",
        "tool_result",
    ]

    class Media:
        css = {"all": ["staff/admin.css"]}

    @admin.display(description="thread")
    def thread_link(self, event: GuardrailEvent) -> str:
        return thread_link(event.thread_id)

    @admin.display(description="run")
    def run_link(self, event: GuardrailEvent) -> str:
        return admin_link("chat_run", event.run_id, str(event.run_id)[:8]) if event.run_id else "-"

    @admin.display(description="what it means")
    def explanation(self, event: GuardrailEvent) -> str:
        return code_explanation(event.code)

    @admin.display(description="detail")
    def detail_text(self, event: GuardrailEvent) -> str:
        return event.detail or "-"

    @admin.display(description="tool input")
    def tool_input(self, event: GuardrailEvent) -> str:
        return json_pretty(event.tool_call.input) if event.tool_call_id else "-"

    @admin.display(description="tool result")
    def tool_result(self, event: GuardrailEvent) -> str:
        return json_pretty(event.tool_call.result) if event.tool_call_id else "-"


@admin.register(PendingAction)
class PendingActionAdmin(ReadOnlyAdmin):
    list_display = [
        "created_at",
        "tool_name",
        "order",
        "refund",
        "decision",
        "result_code",
        "expires_at",
        "thread_link",
    ]
    list_filter = ["decision", "tool_name", "created_at"]
    search_fields = ["id", "thread__id", "run__id"]
    date_hierarchy = "created_at"
    fields = [
        "id",
        "created_at",
        "tool_name",
        "decision",
        "decided_at",
        "result_code",
        "expires_at",
        "thread_link",
        "fingerprint",
        "preview_json",
        "effect_json",
        "arguments_json",
    ]
    readonly_fields = fields

    class Media:
        css = {"all": ["staff/admin.css"]}

    @admin.display(description="order")
    def order(self, action: PendingAction) -> str:
        return action.preview.get("order_id", "")

    @admin.display(description="refund")
    def refund(self, action: PendingAction) -> str:
        return action.preview.get("refund_amount", "")

    @admin.display(description="thread")
    def thread_link(self, action: PendingAction) -> str:
        return thread_link(action.thread_id)

    @admin.display(description="preview (what the customer was shown)")
    def preview_json(self, action: PendingAction) -> str:
        return json_pretty(action.preview)

    @admin.display(description="effect")
    def effect_json(self, action: PendingAction) -> str:
        return json_pretty(action.effect)

    @admin.display(description="tool input")
    def arguments_json(self, action: PendingAction) -> str:
        return json_pretty(action.arguments)

"""Staff screens: edit the policy; review every guardrail decision and pending confirmation."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from bookly_project.errors import ApplicationError
from chat.actions import approval_decide
from guardrails.models import GuardrailEvent, GuardrailPolicy, PendingAction, ReturnApproval


@admin.register(GuardrailPolicy)
class GuardrailPolicyAdmin(admin.ModelAdmin):
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
    readonly_fields = ["version", "updated_at"]
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
        ("Audit", {"fields": ["version", "updated_at"]}),
    ]

    def has_add_permission(self, request) -> bool:
        # One active policy: staff edit it, they do not create competing ones.
        return not GuardrailPolicy.objects.exists()

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


def _thread_link(thread_id) -> str:
    return format_html('<a href="{}">{}</a>', reverse("admin:chat_thread_change", args=[thread_id]), str(thread_id)[:8])


@admin.register(GuardrailEvent)
class GuardrailEventAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "layer", "stage", "code", "action", "tool_name", "policy_version", "thread"]
    list_filter = ["layer", "stage", "code", "action", "created_at"]
    search_fields = ["code", "thread__id", "run__id"]
    date_hierarchy = "created_at"
    list_select_related = []

    @admin.display(description="thread")
    def thread(self, event: GuardrailEvent) -> str:
        return _thread_link(event.thread_id)


@admin.register(PendingAction)
class PendingActionAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "tool_name", "order", "refund", "decision", "result_code", "expires_at", "thread"]
    list_filter = ["decision", "tool_name", "created_at"]
    search_fields = ["id", "thread__id", "run__id"]
    date_hierarchy = "created_at"

    @admin.display(description="order")
    def order(self, action: PendingAction) -> str:
        return action.preview.get("order_id", "")

    @admin.display(description="refund")
    def refund(self, action: PendingAction) -> str:
        return action.preview.get("refund_amount", "")

    @admin.display(description="thread")
    def thread(self, action: PendingAction) -> str:
        return _thread_link(action.thread_id)


# --- Returns waiting for staff approval -----------------------------------------------------------
# Kept apart from the policy and event screens above. Deciding needs the dedicated
# `guardrails.decide_returnapproval` permission and a reason; the decision goes through
# chat.actions.approval_decide, which re-checks the return before writing it.


class ApprovalDecisionForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=1000,
        help_text="Why you approve or decline it. Kept for the record; not shown to the customer.",
    )


@admin.register(ReturnApproval)
class ReturnApprovalAdmin(admin.ModelAdmin):
    list_display = [
        "requested_at",
        "order_id",
        "refund_amount",
        "rule",
        "status",
        "expires_at",
        "thread",
    ]
    list_filter = ["status", "rule", "requested_at"]
    search_fields = ["order_id", "thread__id"]
    date_hierarchy = "requested_at"
    ordering = ["-requested_at"]
    actions = ["approve", "decline"]
    fields = [
        "order_id",
        "items",
        "refund_amount",
        "rule",
        "policy_version",
        "thread",
        "requested_at",
        "expires_at",
        "status",
        "decided_by",
        "decided_at",
        "decision_reason",
        "result_code",
    ]
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def has_decide_permission(self, request) -> bool:
        return request.user.has_perm("guardrails.decide_returnapproval")

    @admin.display(description="items")
    def items(self, approval: ReturnApproval) -> str:
        preview = approval.action.preview
        return format_html_join(", ", "{} (${})", ((item["title"], item["price"]) for item in preview["items"]))

    @admin.display(description="thread")
    def thread(self, approval: ReturnApproval) -> str:
        return _thread_link(approval.thread_id)

    @admin.action(description="Approve selected returns (re-checked, then written)", permissions=["decide"])
    def approve(self, request, queryset):
        return self._decide(request, queryset, approve=True)

    @admin.action(description="Decline selected returns", permissions=["decide"])
    def decline(self, request, queryset):
        return self._decide(request, queryset, approve=False)

    def _decide(self, request, queryset, *, approve: bool):
        """First a page asking for the reason; on its submit, one decision per selected return."""
        form = ApprovalDecisionForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            for approval in queryset:
                try:
                    decided = approval_decide(
                        approval_id=approval.id, user=request.user, approve=approve, reason=form.cleaned_data["reason"]
                    )
                except ApplicationError as error:
                    self.message_user(request, f"{approval}: {error.message}", messages.ERROR)
                    continue
                level = messages.WARNING if decided.status == ReturnApproval.Status.REJECTED else messages.SUCCESS
                note = f" ({decided.result_code}: nothing was written)" if decided.result_code else ""
                self.message_user(request, f"Return of {decided.order_id}: {decided.status}{note}.", level)
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Approve returns" if approve else "Decline returns",
            "approve": approve,
            "approvals": queryset,
            "form": form,
            "action": request.POST.get("action", ""),
            "opts": self.model._meta,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/guardrails/returnapproval/decide.html", context)

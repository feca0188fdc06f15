"""Staff screens: edit the policy; review every guardrail decision and pending confirmation."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from guardrails.models import GuardrailEvent, GuardrailPolicy, PendingAction


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

"""Staff review: threads with their messages and runs inline; runs with their full transcript.

Transcripts are read-only; staff edit only the review fields of a thread.
"""

from django import forms
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from chat.handoff import HandoffSummary, handoff_summary, staff_reply_post, thread_hand_back
from chat.models import HandedOffThread, Message, ModelCall, Run, Thread, ToolCall
from chat.selectors import thread_usage


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class MessageInline(ReadOnlyInline):
    model = Message
    fields = ["seq", "role", "content", "created_at"]
    readonly_fields = fields
    show_change_link = False


class RunInline(ReadOnlyInline):
    model = Run
    fk_name = "thread"
    fields = ["seq", "status", "error_code", "attempts", "input_tokens", "output_tokens", "created_at", "completed_at"]
    readonly_fields = fields


@admin.register(Thread)
class ThreadAdmin(admin.ModelAdmin):
    list_display = ["id", "status", "message_count", "flagged", "reviewed", "created_at", "updated_at"]
    list_filter = ["status", "flagged", "reviewed", "created_at"]
    search_fields = ["id"]
    date_hierarchy = "created_at"
    readonly_fields = ["id", "status", "tokens_used", "created_at", "updated_at"]
    fields = ["id", "status", "created_at", "updated_at", "tokens_used", "reviewed", "flagged", "staff_note"]
    inlines = [MessageInline, RunInline]
    actions = ["mark_reviewed", "flag"]

    @admin.display(description="messages", ordering="last_seq")
    def message_count(self, thread: Thread) -> int:
        return thread.last_seq

    @admin.display(description="tokens used (input + output)")
    def tokens_used(self, thread: Thread) -> int:
        return thread_usage(thread_id=thread.pk, up_to_seq=thread.last_seq)[1]

    @admin.action(description="Mark selected threads as reviewed")
    def mark_reviewed(self, request, queryset) -> None:
        queryset.update(reviewed=True)

    @admin.action(description="Flag selected threads for follow-up")
    def flag(self, request, queryset) -> None:
        queryset.update(flagged=True)


class ModelCallInline(ReadOnlyInline):
    model = ModelCall
    fields = [
        "iteration",
        "model",
        "stop_reason",
        "error_code",
        "latency_ms",
        "input_tokens",
        "output_tokens",
        "cache_write_tokens",
        "cache_read_tokens",
        "response_content",
    ]
    readonly_fields = fields
    show_change_link = False


class ToolCallInline(ReadOnlyInline):
    model = ToolCall
    fields = ["name", "input", "result", "is_error", "guardrail_code", "duration_ms"]
    readonly_fields = fields
    show_change_link = False


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "thread_link",
        "status",
        "ending",
        "error_code",
        "attempts",
        "model",
        "input_tokens",
        "output_tokens",
        "created_at",
        "completed_at",
    ]
    list_filter = ["status", "ending", "error_code", "model", "created_at"]
    search_fields = ["id", "thread__id"]
    date_hierarchy = "created_at"
    list_select_related = ["thread"]
    inlines = [ModelCallInline, ToolCallInline]

    fieldsets = [
        ("Turn", {"fields": ["id", "thread_link", "status", "ending", "customer_message", "reply"]}),
        ("Failure", {"fields": ["error_code", "error_message", "attempts", "cancel_requested"]}),
        (
            "Model and usage",
            {"fields": ["model", "input_tokens", "output_tokens", "cache_write_tokens", "cache_read_tokens"]},
        ),
        ("Timing", {"fields": ["created_at", "dispatched_at", "started_at", "heartbeat_at", "completed_at"]}),
    ]

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in Run._meta.fields] + ["thread_link", "customer_message", "reply"]

    @admin.display(description="customer wrote")
    def customer_message(self, run: Run) -> str:
        return run.user_message.content

    @admin.display(description="customer saw")
    def reply(self, run: Run) -> str:
        return run.assistant_message.content if run.assistant_message_id else "-"

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="thread")
    def thread_link(self, run: Run) -> str:
        return format_html(
            '<a href="{}">{}</a>', reverse("admin:chat_thread_change", args=[run.thread_id]), run.thread_id
        )


# --- The handoff queue: threads waiting for a person ---------------------------------------------
# A proxy model with its own admin, so the queue, the reply form and the hand-back stay apart
# from the general thread review above.


class StaffReplyForm(forms.ModelForm):
    reply = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "cols": 80}),
        max_length=4000,
        help_text="Shown to the customer on their chat page, signed with your first name.",
    )
    hand_back = forms.BooleanField(
        required=False, label="Hand back to the assistant", help_text="After your reply, the assistant answers again."
    )

    class Meta:
        model = HandedOffThread
        fields: list[str] = []

    def clean(self) -> dict:
        data = super().clean()
        if not data.get("reply", "").strip() and not data.get("hand_back"):
            raise forms.ValidationError("Write a reply, hand the thread back, or both.")
        return data


def _summary_html(summary: HandoffSummary) -> str:
    def rows(items, template: str) -> str:
        return format_html_join("", template, items) or format_html("<li>{}</li>", "none")

    lookups = rows(((x["tool"], x["order_id"], x["outcome"]) for x in summary.lookups), "<li>{} {}: {}</li>")
    returns = rows(
        ((x["rma_number"], x["order_id"], x["refund_amount"], x["status"]) for x in summary.returns),
        "<li>{} for {}: ${} ({})</li>",
    )
    pending = rows(
        ((x["order_id"], x["refund_amount"], x["waiting_for"]) for x in summary.pending),
        "<li>{}: ${}, waiting for {}</li>",
    )
    messages = format_html_join(
        "",
        "<li><strong>{}</strong> {}: {}</li>",
        ((m.get_role_display(), m.created_at.strftime("%Y-%m-%d %H:%M"), m.content) for m in summary.last_messages),
    )
    return format_html(
        "<div class='handoff-summary'><p><strong>Why:</strong> {} (since {})</p>"
        "<p><strong>Verified email:</strong> {}</p><p><strong>Failed turns:</strong> {}</p>"
        "<p><strong>Orders looked up</strong></p><ul>{}</ul><p><strong>Returns started</strong></p><ul>{}</ul>"
        "<p><strong>Pending</strong></p><ul>{}</ul><p><strong>Last messages</strong></p><ul>{}</ul></div>",
        summary.reason or "-",
        summary.since.strftime("%Y-%m-%d %H:%M") if summary.since else "-",
        summary.verified_email or "not verified",
        summary.failed_turns,
        lookups,
        returns,
        pending,
        messages,
    )


@admin.register(HandedOffThread)
class HandedOffThreadAdmin(admin.ModelAdmin):
    """Threads with a person: the summary from the record, a reply form and hand-back."""

    form = StaffReplyForm
    list_display = ["id", "handoff_reason", "handed_off_at", "updated_at"]
    list_filter = ["handoff_reason", "handed_off_at"]
    search_fields = ["id"]
    date_hierarchy = "handed_off_at"
    ordering = ["handed_off_at"]  # the longest wait first
    readonly_fields = ["summary"]
    fields = ["summary", "reply", "hand_back"]
    actions = ["hand_back_selected"]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(handed_off_at__isnull=False)

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return self.has_reply_permission(request)

    def has_reply_permission(self, request) -> bool:
        return request.user.has_perm("chat.reply_handedoffthread")

    @admin.display(description="summary")
    def summary(self, thread: Thread) -> str:
        return _summary_html(handoff_summary(thread=thread))

    def save_model(self, request, obj: Thread, form, change: bool) -> None:
        # Nothing on the thread row is edited here: the reply and the hand-back go through services.
        reply = form.cleaned_data.get("reply", "").strip()
        if reply:
            staff_reply_post(thread_id=obj.pk, author=request.user, content=reply)
        if form.cleaned_data.get("hand_back"):
            thread_hand_back(thread_id=obj.pk)

    @admin.action(description="Hand selected threads back to the assistant", permissions=["reply"])
    def hand_back_selected(self, request, queryset) -> None:
        count = sum(thread_hand_back(thread_id=thread_id) for thread_id in queryset.values_list("id", flat=True))
        self.message_user(request, f"{count} thread(s) handed back to the assistant.")

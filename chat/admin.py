"""Staff review: threads with their messages and runs inline; runs with their full transcript.

Transcripts are read-only; staff edit only the review fields of a thread.
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from bookly_project.errors import ApplicationError
from chat.confirmations import approval_decide
from chat.handoff import HandoffSummary, handoff_summary, staff_reply_post, thread_hand_back
from chat.models import HandedOffThread, ModelCall, Run, Thread, ToolCall
from chat.selectors import thread_usage
from guardrails.models import (
    ReturnApproval,
)
from staff.display import ReadOnlyAdmin, error_mark, json_pretty, thread_link
from staff.review import (
    EVIDENCE,
    NEEDS_PERSON,
    needs_person_condition,
    thread_attention,
    thread_transcript,
    threads_for_queue,
    threads_search,
)


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class RunInline(ReadOnlyInline):
    model = Run
    fk_name = "thread"
    fields = ["seq", "status", "outcome", "attempts", "input_tokens", "output_tokens", "created_at", "completed_at"]
    readonly_fields = fields

    @admin.display(description="outcome")
    def outcome(self, run: Run) -> str:
        return run_outcome(run)


# --- Review queue: threads ---------------------------------------------------------------


class NeedsPersonFilter(admin.SimpleListFilter):
    title = "needs a person"
    parameter_name = "needs"

    def lookups(self, request, model_admin):
        return [("any", "Any reason, not yet reviewed"), *((key, label) for key, (label, _) in NEEDS_PERSON.items())]

    def queryset(self, request, queryset):
        if self.value() == "any":
            return queryset.filter(needs_person_condition())
        if self.value() in NEEDS_PERSON:
            return queryset.filter(needs_person_condition(self.value()))
        return queryset


@admin.register(Thread)
class ThreadAdmin(admin.ModelAdmin):
    list_display = [
        "short_id",
        "customer",
        "order",
        "preview",
        "status",
        "attention",
        "reviewed",
        "last_activity",
    ]
    list_filter = [NeedsPersonFilter, "status", "flagged", "reviewed", "created_at", "updated_at"]
    search_fields = ["id"]  # replaced by get_search_results: email, order id, words, id
    search_help_text = "Customer email (as verified in the chat), order id such as BK-10042, words in a message, or id."
    date_hierarchy = "created_at"
    ordering = ["-updated_at"]
    readonly_fields = ["id", "status", "tokens_used", "created_at", "updated_at", "conversation"]
    fieldsets = [
        (None, {"fields": ["id", "status", "created_at", "updated_at", "tokens_used"]}),
        ("Conversation", {"fields": ["conversation"], "classes": ["staff-conversation-set"]}),
        ("Review", {"fields": ["reviewed", "flagged", "staff_note"]}),
    ]
    inlines = [RunInline]
    actions = ["mark_reviewed", "flag"]

    class Media:
        css = {"all": ["staff/admin.css"]}

    def has_add_permission(self, request) -> bool:
        return False  # conversations start in the chat, never here

    def get_queryset(self, request):
        return threads_for_queue(super().get_queryset(request))

    def get_search_results(self, request, queryset, search_term):
        return threads_search(queryset, search_term), False

    @admin.display(description="thread", ordering="created_at")
    def short_id(self, thread: Thread) -> str:
        return str(thread.pk)[:8]

    @admin.display(description="customer (verified)")
    def customer(self, thread: Thread) -> str:
        return thread.customer_email or "-"

    @admin.display(description="order")
    def order(self, thread: Thread) -> str:
        return thread.order_id or "-"

    @admin.display(description="first / last message")
    def preview(self, thread: Thread) -> str:
        if thread.first_message is None:
            return "-"
        if thread.last_message == thread.first_message:
            return format_html('<span class="staff-preview">{}</span>', thread.first_message)
        return format_html(
            '<span class="staff-preview">{}</span><br><span class="staff-preview">… {}</span>',
            thread.first_message,
            thread.last_message,
        )

    @admin.display(description="needs a person")
    def attention(self, thread: Thread) -> str:
        return ", ".join(thread_attention(thread)) or "-"

    @admin.display(description="last activity", ordering="updated_at")
    def last_activity(self, thread: Thread) -> str:
        return f"{timezone.localtime(thread.updated_at):%Y-%m-%d %H:%M}"

    @admin.display(description="tokens used (input + output)")
    def tokens_used(self, thread: Thread) -> int:
        return thread_usage(thread_id=thread.pk, up_to_seq=thread.last_seq)[1]

    @admin.display(description="what the customer saw, and what each turn did")
    def conversation(self, thread: Thread) -> str:
        return render_to_string(
            "admin/chat/thread/conversation.html", {"turns": thread_transcript(thread_id=thread.pk)}
        )

    @admin.action(description="Mark selected threads as reviewed", permissions=["change"])
    def mark_reviewed(self, request, queryset) -> None:
        self._update_and_log(request, queryset, {"reviewed": True}, "Marked as reviewed.")

    @admin.action(description="Flag selected threads for follow-up", permissions=["change"])
    def flag(self, request, queryset) -> None:
        self._update_and_log(request, queryset, {"flagged": True}, "Flagged for follow-up.")

    def _update_and_log(self, request, queryset, values: dict, message: str) -> None:
        # The admin history records who did it, as it does for an edit of the form.
        threads = list(queryset.only("pk"))
        Thread.objects.filter(pk__in=[thread.pk for thread in threads]).update(**values)
        for thread in threads:
            self.log_change(request, thread, message)


# --- Runs and their transcript ------------------------------------------------------------


def run_outcome(run: Run) -> str:
    """How the turn ended, as staff need it: a failed run shows its error, not the default ending."""
    if run.status == Run.Status.FAILED:
        return f"failed: {run.error_code or 'unknown'}"
    if run.status in (Run.Status.CANCELLED, Run.Status.EXPIRED):
        return f"{run.status}: {run.error_code}" if run.error_code else run.status
    return run.ending or "-"


class ModelCallInline(ReadOnlyInline):
    model = ModelCall
    fields = [
        "iteration",
        "model",
        "stop_reason",
        "error_code",
        "rejected_codes",
        "latency_ms",
        "input_tokens",
        "output_tokens",
        "cache_write_tokens",
        "cache_read_tokens",
        "response",
    ]
    readonly_fields = fields
    show_change_link = False

    @admin.display(description="response content")
    def response(self, call: ModelCall) -> str:
        return json_pretty(call.response_content)


class ToolCallInline(ReadOnlyInline):
    model = ToolCall
    fields = ["name", "input_json", "result_json", "outcome", "guardrail_code", "duration_ms"]
    readonly_fields = fields
    show_change_link = False

    @admin.display(description="input")
    def input_json(self, call: ToolCall) -> str:
        return json_pretty(call.input)

    @admin.display(description="result")
    def result_json(self, call: ToolCall) -> str:
        return json_pretty(call.result)

    @admin.display(description="is error")
    def outcome(self, call: ToolCall) -> str:
        return error_mark(call.is_error)


class EvidenceFilter(admin.SimpleListFilter):
    """What the turn resolved, by the record that proves it (the dashboard links here)."""

    title = "resolved by evidence"
    parameter_name = "evidence"

    def lookups(self, request, model_admin):
        return [(key, label) for key, (label, _) in EVIDENCE.items()]

    def queryset(self, request, queryset):
        if self.value() in EVIDENCE:
            return queryset.filter(EVIDENCE[self.value()][1]())
        return queryset


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "thread_link",
        "status",
        "outcome",
        "attempts",
        "model",
        "input_tokens",
        "output_tokens",
        "created_at",
        "completed_at",
    ]
    list_filter = [EvidenceFilter, "status", "ending", "error_code", "model", "created_at"]
    search_fields = ["id", "thread__id"]
    date_hierarchy = "created_at"
    inlines = [ModelCallInline, ToolCallInline]

    fieldsets = [
        ("Turn", {"fields": ["id", "thread_link", "status", "outcome", "customer_message", "reply"]}),
        ("Failure", {"fields": ["error_code", "error_message", "attempts", "cancel_requested"]}),
        (
            "Model and usage",
            {"fields": ["model", "input_tokens", "output_tokens", "cache_write_tokens", "cache_read_tokens"]},
        ),
        ("Timing", {"fields": ["created_at", "dispatched_at", "started_at", "heartbeat_at", "completed_at"]}),
    ]

    class Media:
        css = {"all": ["staff/admin.css"]}

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in Run._meta.fields] + ["thread_link", "outcome", "customer_message", "reply"]

    @admin.display(description="outcome")
    def outcome(self, run: Run) -> str:
        return run_outcome(run)

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
        return thread_link(run.thread_id)


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


# --- Returns waiting for staff approval -----------------------------------------------------------
# The model lives in guardrails; its admin lives here because deciding goes through
# chat.confirmations.approval_decide (which re-checks the return before writing it), and guardrails
# never imports chat. Deciding needs the `guardrails.decide_returnapproval` permission and a reason.


class ApprovalDecisionForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=1000,
        help_text="Why you approve or decline it. Kept for the record; not shown to the customer.",
    )


@admin.register(ReturnApproval)
class ReturnApprovalAdmin(ReadOnlyAdmin):
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

    def has_decide_permission(self, request) -> bool:
        return request.user.has_perm("guardrails.decide_returnapproval")

    @admin.display(description="items")
    def items(self, approval: ReturnApproval) -> str:
        preview = approval.action.preview
        return format_html_join(", ", "{} (${})", ((item["title"], item["price"]) for item in preview["items"]))

    @admin.display(description="thread")
    def thread(self, approval: ReturnApproval) -> str:
        return thread_link(approval.thread_id)

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

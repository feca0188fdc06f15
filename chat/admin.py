"""Staff review: threads with their messages and runs inline; runs with their full transcript.

Transcripts are read-only; staff edit only the review fields of a thread.
"""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from chat.models import Message, ModelCall, Run, Thread, ToolCall
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

"""Input and output shapes of the chat API (shared by the DRF views and the async long-poll).

Input is validated by DRF serializers. Output is rendered by the plain `*_data` functions
below: they run on every POST and poll, and building a nested ModelSerializer costs more
than the rest of the view. The output serializer classes stay as the documented schema
(OpenAPI); tests/chat/test_serializers.py pins both to the same JSON.
"""

from datetime import datetime

from django.conf import settings
from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from chat.models import Message, Run, Thread
from guardrails.models import PendingAction
from guardrails.services import required_action


class StrictCharField(serializers.CharField):
    """A CharField that refuses numbers, booleans and objects instead of stringifying them."""

    default_error_messages = {"not_a_string": "Must be a string."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("not_a_string")
        return super().to_internal_value(data)


@extend_schema_field(
    # What the field accepts: some text besides whitespace, no NUL (Postgres cannot store it).
    {
        "type": "string",
        "minLength": 1,
        "maxLength": settings.MESSAGE_MAX_CHARS,
        "pattern": r"^[^\x00]*[^\s\x00][^\x00]*$",
    }
)
class MessageContentField(StrictCharField):
    pass


class MessageInputSerializer(serializers.Serializer):
    content = MessageContentField(max_length=settings.MESSAGE_MAX_CHARS, trim_whitespace=True)


class ActionInputSerializer(serializers.Serializer):
    # Our own message: DRF's default repeats the client's value, which may not even be encodable.
    decision = serializers.ChoiceField(
        choices=["confirm", "decline"], error_messages={"invalid_choice": 'Must be "confirm" or "decline".'}
    )


class HandoffSerializer(serializers.Serializer):
    """Set while the thread is with our team: the assistant is silent and a person replies."""

    reason = serializers.ChoiceField(choices=Thread.HandoffReason.choices)
    since = serializers.DateTimeField()
    reply_within_hours = serializers.IntegerField()


class ThreadSerializer(serializers.ModelSerializer):
    handoff = serializers.SerializerMethodField()

    class Meta:
        model = Thread
        fields = ["id", "status", "created_at", "updated_at", "handoff"]

    def get_handoff(self, thread: Thread) -> dict | None:
        return thread_handoff_data(thread)


class MessageSerializer(serializers.ModelSerializer):
    author = serializers.SerializerMethodField(help_text="Staff messages: the first name of who wrote it.")

    class Meta:
        model = Message
        fields = ["id", "role", "content", "created_at", "author"]

    def get_author(self, message: Message) -> str | None:
        return message_author(message)


class MessageListItemSerializer(MessageSerializer):
    """A message in a thread's list: a customer message also carries its run's decided confirmation."""

    action = serializers.DictField(
        allow_null=True,
        read_only=True,
        help_text="required_action's fields plus `decision` (confirmed, declined, expired, rejected), or null.",
    )

    class Meta(MessageSerializer.Meta):
        fields = [*MessageSerializer.Meta.fields, "action"]


class ThreadPageSerializer(serializers.Serializer):
    results = ThreadSerializer(many=True)
    has_more = serializers.BooleanField()


class MessagePageSerializer(serializers.Serializer):
    results = MessageListItemSerializer(many=True)
    has_more = serializers.BooleanField()


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable snake_case code, e.g. invalid_input, not_found, throttled.")
    message = serializers.CharField(help_text="A human sentence; never repeats client input.")
    details = serializers.DictField(help_text="Per-field errors under `fields`, `retry_after_seconds`, ...")


class ErrorSerializer(serializers.Serializer):
    """The one error shape of every 4xx and 5xx answer."""

    error = ErrorDetailSerializer()


class RunErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class RunSerializer(serializers.ModelSerializer):
    thread_id = serializers.UUIDField(read_only=True)
    user_message = MessageSerializer(read_only=True)
    assistant_message = MessageSerializer(read_only=True, allow_null=True)
    required_action = serializers.SerializerMethodField()
    error = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField(
        help_text="The latest fixed step while the run works, e.g. 'Looking up your order'; null when none."
    )
    handed_off = serializers.SerializerMethodField(
        help_text="True when this run left the thread with our team: the assistant stays silent and a "
        "person's replies arrive on GET /threads/{id}/updates."
    )
    poll_after_ms = serializers.SerializerMethodField()

    class Meta:
        model = Run
        fields = [
            "id",
            "thread_id",
            "status",
            "user_message",
            "assistant_message",
            "required_action",
            "error",
            "created_at",
            "started_at",
            "completed_at",
            "progress",
            "handed_off",
            "poll_after_ms",
        ]

    def get_progress(self, run: Run) -> str | None:
        return run.progress or None

    def get_handed_off(self, run: Run) -> bool:
        return run.ending in HANDOFF_ENDINGS

    def get_required_action(self, run: Run) -> dict | None:
        return required_action(getattr(run, "open_action", None))

    def get_error(self, run: Run) -> dict | None:
        return run_error(run)

    def get_poll_after_ms(self, run: Run) -> int | None:
        return run_poll_after_ms(run)


class MessageAcceptedSerializer(serializers.Serializer):
    """The 202 body of a message POST."""

    message = MessageSerializer()
    run = RunSerializer()
    status_url = serializers.CharField()
    poll_after_ms = serializers.IntegerField()


MESSAGE_STATUS = {
    Run.Status.QUEUED: "processing",
    Run.Status.IN_PROGRESS: "processing",
    Run.Status.REQUIRES_ACTION: "requires_action",
    Run.Status.AWAITING_APPROVAL: "awaiting_approval",
    Run.Status.COMPLETED: "completed",
    Run.Status.FAILED: "error",
    Run.Status.CANCELLED: "error",
    Run.Status.EXPIRED: "error",
}


class MessageStatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=sorted(set(MESSAGE_STATUS.values())))
    user_message = MessageSerializer()
    assistant_message = MessageSerializer(allow_null=True)
    run_id = serializers.UUIDField()
    error = RunErrorSerializer(allow_null=True)
    required_action = serializers.DictField(allow_null=True)


# --- Rendering (the JSON the API answers with) -------------------------------------------


def _datetime(value: datetime | None) -> str | None:
    """As DRF renders it: ISO 8601 in the current time zone, UTC written as Z."""
    if value is None:
        return None
    text = timezone.localtime(value).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


# Run endings that leave the thread with our team: "handoff" handed it over, "handed_off" found it there.
HANDOFF_ENDINGS = ("handoff", "handed_off")


def thread_handoff_data(thread: Thread) -> dict | None:
    if thread.handed_off_at is None:
        return None
    return {
        "reason": thread.handoff_reason,
        "since": _datetime(thread.handed_off_at),
        "reply_within_hours": settings.HANDOFF_REPLY_WITHIN_HOURS,
    }


def thread_data(thread: Thread) -> dict:
    return {
        "id": str(thread.id),
        "status": thread.status,
        "created_at": _datetime(thread.created_at),
        "updated_at": _datetime(thread.updated_at),
        "handoff": thread_handoff_data(thread),
    }


def message_author(message: Message) -> str | None:
    """Who wrote a staff message, as the customer sees it: a first name, or the team."""
    if message.role != Message.Role.STAFF:
        return None
    author = message.author if message.author_id else None
    return (author.first_name if author is not None else "") or "Bookly support team"


def message_data(message: Message | None) -> dict | None:
    if message is None:
        return None
    return {
        "id": str(message.id),
        "role": message.role,
        "content": message.content,
        "created_at": _datetime(message.created_at),
        "author": message_author(message),
    }


def message_list_item_data(message: Message, decided_action: PendingAction | None) -> dict:
    """A message as a thread's message list shows it (MessageListItemSerializer)."""
    action = required_action(decided_action)
    if action is not None:
        action["decision"] = decided_action.decision
    return {**message_data(message), "action": action}


def run_error(run: Run) -> dict | None:
    if run.status in (Run.Status.FAILED, Run.Status.EXPIRED, Run.Status.CANCELLED) and run.error_code:
        return {"code": run.error_code, "message": run.error_message}
    return None


def run_poll_after_ms(run: Run) -> int | None:
    """How soon a client polling without `wait` should ask again; None once the run has settled."""
    return settings.POLL_AFTER_MS if run.status in Run.WAITING else None


def run_data(run: Run) -> dict:
    """A run as GET /runs/{id} shows it (`run.open_action` set by selectors.run_with_action)."""
    return {
        "id": str(run.id),
        "thread_id": str(run.thread_id),
        "status": run.status,
        "user_message": message_data(run.user_message),
        "assistant_message": message_data(run.assistant_message),
        "required_action": required_action(getattr(run, "open_action", None)),
        "error": run_error(run),
        "created_at": _datetime(run.created_at),
        "started_at": _datetime(run.started_at),
        "completed_at": _datetime(run.completed_at),
        "progress": run.progress or None,
        "handed_off": run.ending in HANDOFF_ENDINGS,
        "poll_after_ms": run_poll_after_ms(run),
    }

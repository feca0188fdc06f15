"""Reads of the chat app, always scoped to the calling customer (a foreign row is a 404)."""

from functools import cache
from uuid import UUID

from asgiref.sync import sync_to_async
from django.db import connection
from django.db.models import Count, F, Model, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from bookly_project.db import db_connection_release, model_from_row
from bookly_project.errors import not_found_error
from chat.guard_state import VERIFYING_TOOLS, run_verified_customer
from chat.models import Message, Run, Thread, ToolCall
from guardrails.models import PendingAction

RUN_RELATED = ("user_message", "assistant_message")


def threads_for_owner(*, owner: str | None) -> QuerySet[Thread]:
    """The caller's threads, newest first."""
    return Thread.objects.filter(owner=owner).order_by("-created_at") if owner else Thread.objects.none()


def thread_get(*, owner: str | None, thread_id: UUID) -> Thread:
    """One of the caller's threads; 404 if missing or someone else's."""
    thread = Thread.objects.filter(id=thread_id, owner=owner).first() if owner else None
    if thread is None:
        raise not_found_error("Thread")
    return thread


def messages_in_reading_order(messages: QuerySet[Message]) -> QuerySet[Message]:
    """Each reply right after the message it answers: the conversation the model had.

    `seq` is the order messages were accepted, so a customer who sends two messages quickly has
    seq 1 and 2 before either reply (seq 3 and 4). A reply's place is the seq of the message its
    run answers; every other message's place is its own seq. Ties (a message and its reply) go by seq.
    """
    return messages.annotate(place=Coalesce(F("answered_run__seq"), F("seq"))).order_by("place", "seq")


def messages_list(*, thread: Thread, after: Message | None, limit: int) -> list[Message]:
    """Up to `limit` + 1 messages of the thread in reading order, after the given one."""
    messages = messages_in_reading_order(thread.messages.select_related("author"))
    if after is not None:
        place = messages.filter(id=after.id).values_list("place", flat=True).get()
        messages = messages.filter(Q(place__gt=place) | Q(place=place, seq__gt=after.seq))
    return list(messages[: limit + 1])


def decided_actions(*, messages: list[Message]) -> dict[UUID, PendingAction]:
    """The latest decided confirmation of each customer message's run, by message id (one query).

    The page shows these cards again after a reload, with their outcome; an undecided one is
    shown from the run's `required_action`, as before.
    """
    user_ids = [message.id for message in messages if message.role == Message.Role.USER]
    decided = (
        PendingAction.objects.filter(run__user_message_id__in=user_ids)
        .exclude(decision=PendingAction.Decision.PENDING)
        .annotate(message_id=F("run__user_message_id"))
        .order_by("created_at")
    )
    return {action.message_id: action for action in decided}


def message_get(*, thread: Thread, message_id: UUID) -> Message:
    message = Message.objects.filter(thread=thread, id=message_id).first()
    if message is None:
        raise not_found_error("Message")
    return message


def run_for_message(*, message: Message) -> Run | None:
    runs = Run.objects.select_related(*RUN_RELATED).filter(user_message=message)
    run = runs.annotate(verified_customer=run_verified_customer()).first()
    return run_with_action(run) if run is not None else None


def _open_actions(run: Run) -> QuerySet[PendingAction]:
    return PendingAction.objects.filter(run=run, decision=PendingAction.Decision.PENDING)


def run_with_action(run: Run) -> Run:
    """Attach the pending action (what `required_action` shows) when the run waits for one."""
    run.open_action = _open_actions(run).first() if run.status == Run.Status.REQUIRES_ACTION else None
    return run


def run_get(*, owner: str | None, run_id: UUID) -> Run:
    """One of the caller's runs (with its pending action); 404 if missing or someone else's."""
    run = Run.objects.select_related(*RUN_RELATED).filter(id=run_id, thread__owner=owner).first() if owner else None
    if run is None:
        raise not_found_error("Run")
    return run_with_action(run)


def _columns(model: type[Model], alias: str) -> str:
    return ", ".join(f'{alias}."{field.column}"' for field in model._meta.concrete_fields)


@cache
def _run_read_sql() -> str:
    """The long-poll's read of a run, written once by hand.

    It is the statement the ORM built for `Run.objects.select_related(*RUN_RELATED).filter(id=…,
    thread__owner=…).annotate(verified_customer=run_verified_customer())`, minus Run's Meta
    ordering (one row by primary key). Building that queryset and compiling it cost ~2 ms of
    Python per read, about a third of the web's CPU under load (docs/performance.md §9.1);
    every poll reads once, and once more when the run changes. Columns come from the models, so
    a new field is read without touching this.
    """
    tools = ", ".join(["%s"] * len(VERIFYING_TOOLS))
    # Only table and column names from the models are formatted in; every value is a parameter.
    return (
        f"SELECT {_columns(Run, 'r')}, {_columns(Message, 'u')}, {_columns(Message, 'a')}, "  # noqa: S608
        f'EXISTS (SELECT 1 FROM "{ToolCall._meta.db_table}" c WHERE c."run_id" = r."id" '
        f'AND NOT c."is_error" AND c."name" IN ({tools})) '
        f'FROM "{Run._meta.db_table}" r '
        f'JOIN "{Thread._meta.db_table}" t ON t."id" = r."thread_id" '
        f'JOIN "{Message._meta.db_table}" u ON u."id" = r."user_message_id" '
        f'LEFT JOIN "{Message._meta.db_table}" a ON a."id" = r."assistant_message_id" '
        f'WHERE r."id" = %s AND t."owner" = %s'
    )


def _run_read(*, owner: str, run_id: UUID) -> Run | None:
    with connection.cursor() as cursor:
        cursor.execute(_run_read_sql(), [*VERIFYING_TOOLS, Run._meta.pk.get_db_prep_value(run_id, connection), owner])
        row = cursor.fetchone()
    if row is None:
        return None
    run_width, message_width = len(Run._meta.concrete_fields), len(Message._meta.concrete_fields)
    run = model_from_row(Run, row[:run_width])
    run.user_message = model_from_row(Message, row[run_width : run_width + message_width])
    assistant = row[run_width + message_width : run_width + 2 * message_width]
    run.assistant_message = model_from_row(Message, assistant) if assistant[0] is not None else None
    run.verified_customer = bool(row[-1])  # SQLite answers EXISTS with 0 or 1
    return run


def run_read_and_release(*, owner: str | None, run_id: UUID) -> Run | None:
    """The caller's run (with its pending action) or None, then the connection goes back to the pool.

    For the long-poll, which waits between reads: it must not hold a pooled connection meanwhile.
    `run.verified_customer` says whether this run verified the customer (the long-poll then
    rotates the session).
    """
    try:
        run = _run_read(owner=owner, run_id=run_id) if owner else None
        return run_with_action(run) if run is not None else None
    finally:
        db_connection_release()


def thread_updates_read_and_release(
    *, owner: str | None, thread_id: UUID, after_id: UUID | None
) -> tuple[Thread, list[Message]] | None:
    """The caller's thread and (up to 100 of) its messages after `after_id`, or None if not theirs.

    For the updates long-poll: the pooled connection goes back between reads. An unknown
    `after_id` means "from the start".
    """
    try:
        thread = Thread.objects.filter(id=thread_id, owner=owner).first() if owner else None
        if thread is None:
            return None
        messages = thread.messages.select_related("author").order_by("seq")
        if after_id is not None:
            after_seq = Message.objects.filter(thread=thread, id=after_id).values_list("seq", flat=True).first()
            if after_seq is not None:
                messages = messages.filter(seq__gt=after_seq)
        return thread, list(messages[:100])
    finally:
        db_connection_release()


async def run_aget(*, owner: str | None, run_id: UUID) -> Run | None:
    """Async twin of run_read_and_release for the long-poll's re-reads (one thread hop)."""
    return await sync_to_async(run_read_and_release)(owner=owner, run_id=run_id)


def thread_usage(*, thread_id: UUID, up_to_seq: int) -> tuple[int, int]:
    """(customer turns up to and including `up_to_seq`, input + output tokens spent) for the thread's bounds."""
    totals = Run.objects.filter(thread_id=thread_id).aggregate(
        turns=Count("id", filter=Q(seq__lte=up_to_seq)), input=Sum("input_tokens"), output=Sum("output_tokens")
    )
    return totals["turns"], (totals["input"] or 0) + (totals["output"] or 0)

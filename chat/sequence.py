"""A thread's sequence numbers: the one locking statement that takes the next seq.

Used by chat/services.py (a customer's message), chat/runs.py (the run's reply) and, where a
thread gets a message from elsewhere, chat/handoff.py. Every message of a thread gets the next
seq under the thread row's lock, in the order the server accepted it.
"""

from uuid import UUID

from django.db import connection, transaction
from django.utils import timezone

from bookly_project.errors import not_found_error
from chat.models import Message, Thread
from guardrails.models import PendingAction

# Table names come from model meta; every value is a parameter. The customer's side adds
# "AND owner = %s AND status = 'open'" (a reply may close the thread, a message never does).
_SEQ_TAKE_SQL = f"""
    UPDATE {Thread._meta.db_table}
    SET last_seq = last_seq + 1, updated_at = %s, status = CASE WHEN %s THEN %s ELSE status END
    WHERE id = %s {{customer_condition}}
    RETURNING last_seq, EXISTS (
        SELECT 1 FROM {PendingAction._meta.db_table} WHERE thread_id = %s AND decision = %s
    ), handed_off_at
"""  # noqa: S608
# handed_off_at itself, not "handed_off_at IS NOT NULL": SQLite 3.40 answers that expression with 1 for a
# NULL column in an UPDATE's RETURNING, which put every message of a thread with our team on SQLite.
_SEQ_TAKE_FOR_REPLY = _SEQ_TAKE_SQL.format(customer_condition="")
_SEQ_TAKE_FOR_CUSTOMER = _SEQ_TAKE_SQL.format(customer_condition="AND owner = %s AND status = %s")


def thread_seq_take(*, thread_id: UUID, owner: str | None = None, close: bool = False) -> tuple[int, bool, bool] | None:
    """Lock the thread's row and take its next seq: (seq, a confirmation is pending, handed off), or None.

    With an `owner` (a customer's message) only that owner's open thread matches; without one
    (the run's reply) any thread does, and `close` closes it. One statement instead of lock,
    read, check and update: it is on the path of every POST and every reply. The row lock,
    held to commit, gives a thread's messages consecutive seq numbers in the order they are
    accepted, which is the order their runs execute in. Call inside a transaction.
    """
    thread_pk = Thread._meta.pk.get_db_prep_value(thread_id, connection)
    now = Thread._meta.get_field("updated_at").get_db_prep_value(timezone.now(), connection)
    params = [now, close, Thread.Status.CLOSED, thread_pk]
    if owner is not None:
        params += [owner, Thread.Status.OPEN]
    params += [thread_pk, PendingAction.Decision.PENDING]
    with connection.cursor() as cursor:
        cursor.execute(_SEQ_TAKE_FOR_REPLY if owner is None else _SEQ_TAKE_FOR_CUSTOMER, params)
        row = cursor.fetchone()
    return (row[0], bool(row[1]), row[2] is not None) if row else None


def thread_message_write(*, thread_id: UUID, role: str, content: str, author=None) -> Message:
    """A message the server or staff write into a thread, in seq order (locks the thread row to commit)."""
    with transaction.atomic():
        taken = thread_seq_take(thread_id=thread_id)
        if taken is None:
            raise not_found_error("Thread")
        return Message.objects.create(thread_id=thread_id, seq=taken[0], role=role, content=content, author=author)

"""Accepting a customer's message: ownership, idempotency, the seq, and the queued run.

Called by chat/api.py. One transaction stores the message and its run (a pending confirmation is
declined first, chat/confirmations.py); on commit the run is dispatched by chat/runs.py.
"""

import logging
from dataclasses import dataclass
from functools import partial
from uuid import UUID

from django.core.cache import cache
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone

from bookly_project.db import rows_insert
from bookly_project.errors import ApplicationError, not_found_error
from chat import confirmations
from chat.agent.llm import get_model
from chat.models import Message, Run, Thread
from chat.runs import run_dispatch
from chat.sequence import thread_seq_take

logger = logging.getLogger(__name__)

IDEMPOTENCY_LOCK_SECONDS = 30


def thread_create(*, owner: str) -> Thread:
    """A new open thread for this customer."""
    return Thread.objects.create(owner=owner)


@dataclass(frozen=True)
class PostResult:
    message: Message
    run: Run
    replayed: bool = False


def message_post(
    *, owner: str | None, thread_id: UUID, content: str, idempotency_key: str | None = None, fingerprint: str = ""
) -> PostResult:
    """Store the customer's message and its queued run in one transaction; dispatch on commit.

    A thread that is not the owner's is a 404, a closed one a 409. With an Idempotency-Key:
    the same key and body replays the first result, another body is a 422, and a key whose
    first request is still being processed is a 409.
    """
    if owner is None:  # no session yet: the caller owns no thread
        raise not_found_error("Thread")
    if not idempotency_key:
        return _message_store(owner=owner, thread_id=thread_id, content=content)

    if not Thread.objects.filter(id=thread_id, owner=owner).exists():
        raise not_found_error("Thread")
    lock_key = f"idempotency:{owner}:{idempotency_key}"
    # With Redis down the cache answers None (IGNORE_EXCEPTIONS): go on without the lock; the
    # unique key on the message still lets only one request store it (the IntegrityError below).
    if cache.add(lock_key, 1, IDEMPOTENCY_LOCK_SECONDS) is False:
        earlier = _idempotent_replay(owner=owner, key=idempotency_key, fingerprint=fingerprint)
        if earlier:
            return earlier
        raise ApplicationError(
            "idempotency_in_progress", "A request with this Idempotency-Key is still being processed.", status=409
        )
    try:
        earlier = _idempotent_replay(owner=owner, key=idempotency_key, fingerprint=fingerprint)
        if earlier:
            return earlier
        try:
            return _message_store(
                owner=owner,
                thread_id=thread_id,
                content=content,
                idempotency_key=idempotency_key,
                fingerprint=fingerprint,
            )
        except IntegrityError:
            # Lost a race the cache lock could not see (e.g. a per-process cache).
            earlier = _idempotent_replay(owner=owner, key=idempotency_key, fingerprint=fingerprint)
            if earlier:
                return earlier
            raise
    finally:
        cache.delete(lock_key)  # never raises (IGNORE_EXCEPTIONS): the message is already committed


def _idempotent_replay(*, owner: str, key: str, fingerprint: str) -> PostResult | None:
    message = (
        Message.objects.filter(thread__owner=owner, idempotency_key=key)
        .select_related("run", "run__user_message", "run__assistant_message")
        .first()
    )
    if message is None:
        return None
    if message.idempotency_fingerprint != fingerprint:
        raise ApplicationError(
            "idempotency_key_reused",
            "This Idempotency-Key was already used with a different request.",
            status=422,
        )
    return PostResult(message=message, run=message.run, replayed=True)


def _message_store(
    *, owner: str, thread_id: UUID, content: str, idempotency_key: str | None = None, fingerprint: str = ""
) -> PostResult:
    try:
        with transaction.atomic():
            taken = thread_seq_take(thread_id=thread_id, owner=owner)
            if taken is None:
                if Thread.objects.filter(id=thread_id, owner=owner).exists():
                    raise ApplicationError(
                        "thread_closed", "This conversation has ended; please start a new one.", status=409
                    )
                raise not_found_error("Thread")
            seq, confirmation_pending, handed_off = taken
            if confirmation_pending:
                # The customer wrote instead of confirming: the paused run resumes (and
                # finishes) before this message's run, which waits behind it. A return already
                # confirmed and waiting for staff approval refuses the message instead (409).
                confirmations.pending_actions_decline_for_thread(thread_id=thread_id)
            message = Message(
                thread_id=thread_id,
                seq=seq,
                role=Message.Role.USER,
                content=content,
                idempotency_key=idempotency_key,
                idempotency_fingerprint=fingerprint,
            )
            if handed_off:
                # A person has the thread: the message waits for staff and no model turn runs.
                run = Run(
                    thread_id=thread_id,
                    seq=seq,
                    user_message=message,
                    status=Run.Status.COMPLETED,
                    ending="handed_off",
                    completed_at=timezone.now(),
                )
            else:
                run = Run(
                    thread_id=thread_id,
                    seq=seq,
                    user_message=message,
                    model=get_model().name,
                    dispatched_at=timezone.now(),
                )
                transaction.on_commit(partial(run_dispatch, run_id=run.id))
            # Both rows in one statement instead of two ORM creates (on every POST).
            rows_insert(message, run)
    except (IntegrityError, ApplicationError):
        raise
    except DatabaseError as error:
        logger.exception("could not store a message for thread %s", thread_id)
        raise ApplicationError(
            "storage_unavailable", "Your message could not be stored; please try again.", status=503
        ) from error
    return PostResult(message=message, run=run)

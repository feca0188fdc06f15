"""Writes of the chat app. Called by chat/api.py and chat/tasks.py; runs turns via chat/agent.py.

Every state change of a run is a conditional UPDATE on its current status, so two
workers, a redelivered task and the sweep can race without doing anything twice.
"""

import logging
import time
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from uuid import UUID

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, IntegrityError, InterfaceError, OperationalError, connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from bookly_project.celery import app as celery_app
from bookly_project.db import db_connection_release
from bookly_project.errors import ApplicationError, not_found_error
from chat import actions, agent, handoff, notify
from chat.llm import get_model
from chat.models import Message, Run, Thread
from guardrails.models import PendingAction

logger = logging.getLogger(__name__)

RUN_TASK = "chat.tasks.run_turn"
# Turn endings that also end the conversation: the thread is closed to new messages.
THREAD_ENDINGS = ("turn_limit", "token_budget")
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
            taken = _thread_seq_take(thread_id=thread_id, owner=owner)
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
                actions.pending_actions_decline_for_thread(thread_id=thread_id)
            message = Message.objects.create(
                thread_id=thread_id,
                seq=seq,
                role=Message.Role.USER,
                content=content,
                idempotency_key=idempotency_key,
                idempotency_fingerprint=fingerprint,
            )
            if handed_off:
                # A person has the thread: the message waits for staff and no model turn runs.
                run = Run.objects.create(
                    thread_id=thread_id,
                    seq=seq,
                    user_message=message,
                    status=Run.Status.COMPLETED,
                    ending="handed_off",
                    completed_at=timezone.now(),
                )
            else:
                run = Run.objects.create(
                    thread_id=thread_id,
                    seq=seq,
                    user_message=message,
                    model=get_model().name,
                    dispatched_at=timezone.now(),
                )
                transaction.on_commit(partial(run_dispatch, run_id=run.id))
    except (IntegrityError, ApplicationError):
        raise
    except DatabaseError as error:
        logger.exception("could not store a message for thread %s", thread_id)
        raise ApplicationError(
            "storage_unavailable", "Your message could not be stored; please try again.", status=503
        ) from error
    return PostResult(message=message, run=run)


# Table names come from model meta; every value is a parameter. The customer's side adds
# "AND owner = %s AND status = 'open'" (a reply may close the thread, a message never does).
_SEQ_TAKE_SQL = f"""
    UPDATE {Thread._meta.db_table}
    SET last_seq = last_seq + 1, updated_at = %s, status = CASE WHEN %s THEN %s ELSE status END
    WHERE id = %s {{customer_condition}}
    RETURNING last_seq, EXISTS (
        SELECT 1 FROM {PendingAction._meta.db_table} WHERE thread_id = %s AND decision = %s
    ), handed_off_at IS NOT NULL
"""  # noqa: S608
_SEQ_TAKE_FOR_REPLY = _SEQ_TAKE_SQL.format(customer_condition="")
_SEQ_TAKE_FOR_CUSTOMER = _SEQ_TAKE_SQL.format(customer_condition="AND owner = %s AND status = %s")


def _thread_seq_take(
    *, thread_id: UUID, owner: str | None = None, close: bool = False
) -> tuple[int, bool, bool] | None:
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
    return (row[0], row[1], row[2]) if row else None


def thread_message_write(*, thread_id: UUID, role: str, content: str, author=None) -> Message:
    """A message the server or staff write into a thread, in seq order (locks the thread row to commit)."""
    with transaction.atomic():
        taken = _thread_seq_take(thread_id=thread_id)
        if taken is None:
            raise not_found_error("Thread")
        return Message.objects.create(thread_id=thread_id, seq=taken[0], role=role, content=content, author=author)


class _Sent:
    """What `send_task` hands back instead of an AsyncResult: turns report through the database,
    not a result backend, and Celery's AsyncResult builds a backend object per thread (under ASGI
    every request is a new thread). Celery sets `ignored` on whatever it gets, so it must take it."""

    __slots__ = ("id", "ignored")

    def __init__(self, task_id: str) -> None:
        self.id = task_id


def run_dispatch(*, run_id: UUID) -> None:
    """Send the run's task. A broker failure is logged, not raised: the sweep dispatches the run.

    `dispatched_at` is set by whoever queued the run; a failed send clears it, which the sweep
    reads as "never sent" and dispatches the run as soon as the broker is back.
    """
    try:
        celery_app.send_task(RUN_TASK, args=[str(run_id)], ignore_result=True, result_cls=_Sent, add_to_parent=False)
    except Exception as error:
        logger.warning("could not enqueue run %s (%s); the sweep will dispatch it", run_id, type(error).__name__)
        Run.objects.filter(id=run_id, status=Run.Status.QUEUED).update(dispatched_at=None)


# The conditional UPDATE of the claim, returning the claimed row and its customer message's
# text, so the turn starts with one statement instead of an UPDATE and a re-read with joins.
# Identifiers come from the models; every value is a parameter.
_CLAIM_SQL = """
    UPDATE chat_run SET status = %s, attempts = attempts + 1, started_at = %s, heartbeat_at = %s
    WHERE id = %s AND status = %s AND NOT EXISTS (
        SELECT 1 FROM chat_run AS earlier
        WHERE earlier.thread_id = chat_run.thread_id AND earlier.seq < chat_run.seq AND earlier.status IN ({unfinished})
    )
    RETURNING {columns},
        (SELECT content FROM chat_message WHERE chat_message.id = chat_run.user_message_id) AS claimed_user_text,
        (SELECT handed_off_at IS NOT NULL FROM chat_thread WHERE chat_thread.id = chat_run.thread_id)
            AS claimed_handed_off
""".format(  # noqa: S608
    columns=", ".join(field.column for field in Run._meta.concrete_fields),
    unfinished=", ".join(["%s"] * len(Run.UNFINISHED)),
)


def run_claim(*, run_id: UUID | str) -> Run | None:
    """queued → in_progress, only if no earlier run of the thread is unfinished. One caller wins.

    The claimed run comes back with its user message's text loaded (the message's other fields
    are deferred) and `handed_off` (a person has the thread); nothing else is read.
    """
    now = Run._meta.get_field("started_at").get_db_prep_value(timezone.now(), connection)
    params = [
        Run.Status.IN_PROGRESS,
        now,
        now,
        Run._meta.pk.get_db_prep_value(run_id, connection),
        Run.Status.QUEUED,
        *Run.UNFINISHED,
    ]
    claimed = list(Run.objects.raw(_CLAIM_SQL, params))  # list(): the UPDATE must run exactly once
    if not claimed:
        return None
    run = claimed[0]
    text = run.__dict__.pop("claimed_user_text")
    run.handed_off = bool(run.__dict__.pop("claimed_handed_off"))
    run.user_message = Message.from_db(run._state.db, ["id", "content"], [run.user_message_id, text])
    return run


# A database restart or failover: the connection broke, the data did not. Worth another attempt.
TRANSIENT_DATABASE_ERRORS = (OperationalError, InterfaceError)
# Pauses between attempts to put a run back in the queue while the database is away (~15 s).
_REQUEUE_BACKOFF_SECONDS = (0.5, 1.0, 2.0, 4.0, 8.0)
STORAGE_UNAVAILABLE = "storage_unavailable"


QUEUE_TIMEOUT = agent.TurnOutcome(
    status=Run.Status.EXPIRED,
    error_code="queue_timeout",
    error_message="We are very busy and could not answer in time; please send your message again.",
)


def _queue_wait_exceeded(run: Run) -> bool:
    """Did the run wait in the queue longer than RUN_QUEUE_MAX_WAIT_SECONDS since it was last sent?

    Read from the claimed row, so a run claimed in time costs nothing more. An answer that
    comes minutes after the customer gave up is worse than a clear "send it again".
    """
    queued_since = run.dispatched_at or run.created_at
    return run.started_at - queued_since > timedelta(seconds=settings.RUN_QUEUE_MAX_WAIT_SECONDS)


def run_execute(*, run_id: UUID | str) -> str:
    """The task's body: claim the run, run the agent outside any transaction, record the end.

    Idempotent: a redelivered or duplicate task finds the run claimed and does nothing.
    Returns the error code when this call recorded the run as failed, else "" (so the task can
    report the failure to Celery's monitoring after the run is safely recorded). A transient
    database error before the claim is raised (the task retries it); after the claim it sends
    the run back to the queue (`run_requeue_after_fault`) instead of failing it.
    """
    run = run_claim(run_id=run_id)
    if run is None:
        return ""
    if _queue_wait_exceeded(run):
        run_finish(run=run, outcome=QUEUE_TIMEOUT)
        return ""
    notify.run_changed(run.id)
    if run.handed_off and run.attempts == 1:
        # Queued before the thread was handed to a person: the agent stays silent. A run that had
        # started (resumed after a confirmation or a staff decision) still tells the outcome.
        run_finish(run=run, outcome=agent.TurnOutcome(status=Run.Status.COMPLETED, ending="handed_off"))
        return ""
    try:
        outcome = handoff.handoff_if_failing(run=run, outcome=_turn_outcome(run))
        # No release before finishing: the agent took this connection after its last model
        # call, and Celery gives it back when the task ends.
        recorded = run_finish(run=run, outcome=outcome)
    except TRANSIENT_DATABASE_ERRORS as error:
        logger.warning("run %s lost the database (%s); queueing it again", run.id, type(error).__name__)
        return run_requeue_after_fault(run=run)
    return outcome.error_code if recorded and outcome.status == Run.Status.FAILED else ""


def _turn_outcome(run: Run) -> agent.TurnOutcome:
    """The agent's outcome; a crash is a failed run, a transient database error is raised."""
    try:
        return agent.run_turn(run)
    except TRANSIENT_DATABASE_ERRORS:
        raise
    except Exception:
        logger.exception("run %s crashed", run.id)
        db_connection_release()  # the crash may have left the connection unusable
        return agent.TurnOutcome(
            status=Run.Status.FAILED, error_code="internal_error", error_message="Something went wrong while answering."
        )


def run_requeue_after_fault(*, run: Run) -> str:
    """in_progress → queued and dispatched again, fenced by `attempts`. Returns the error code if
    it ended the run failed instead (out of attempts), else "".

    The turn is resumed from what it recorded (a model call may be repeated: at least once).
    While the database stays away this retries with a backoff, then gives up: the run stays
    in_progress and the sweep takes it over once it is stale.
    """
    for pause in (*_REQUEUE_BACKOFF_SECONDS, None):
        db_connection_release()  # the broken connection goes back to the pool, which drops it
        try:
            current = Run.objects.filter(id=run.id, status=Run.Status.IN_PROGRESS, attempts=run.attempts)
            now = timezone.now()
            if run.attempts >= settings.RUN_MAX_ATTEMPTS:
                if not current.update(
                    status=Run.Status.FAILED,
                    completed_at=now,
                    heartbeat_at=now,
                    error_code=STORAGE_UNAVAILABLE,
                    error_message="The reply could not be finished; please send your message again.",
                ):
                    return ""
                _run_ended(run_id=run.id, thread_id=run.thread_id)
                return STORAGE_UNAVAILABLE
            if current.update(status=Run.Status.QUEUED, heartbeat_at=now, dispatched_at=now):
                run_dispatch(run_id=run.id)
            return ""  # requeued, or finished or taken over meanwhile
        except TRANSIENT_DATABASE_ERRORS:
            if pause is None:
                logger.warning("run %s: database still away; the sweep will take it over", run.id)
                return ""
            time.sleep(pause)
    return ""


def run_finish(*, run: Run, outcome: agent.TurnOutcome) -> bool:
    """Record how the turn ended: the assistant message and the run's final status, atomically.

    Fenced by `attempts`: a worker whose run was taken over by the sweep records nothing.
    """
    now = timezone.now()
    current = Run.objects.filter(id=run.id, attempts=run.attempts, status=Run.Status.IN_PROGRESS)
    updates: dict = {
        "status": outcome.status,
        "heartbeat_at": now,
        "ending": outcome.ending,
        "error_code": outcome.error_code,
        "error_message": outcome.error_message[:500],
    }
    if outcome.status != Run.Status.REQUIRES_ACTION:
        updates["completed_at"] = now
    if outcome.status == Run.Status.REQUIRES_ACTION:
        return _run_pause(run=run, current=current, updates=updates, now=now)
    if outcome.status != Run.Status.COMPLETED or not outcome.reply:
        # No message to write, so no seq to take: the fenced UPDATE alone, atomic by itself.
        if not current.update(**updates):
            return False
        transaction.on_commit(partial(_run_ended, run_id=run.id, thread_id=run.thread_id))
        return True
    with transaction.atomic():
        # Takes the thread row's lock (held to commit) like message_post does, so the reply's
        # seq is the next one in acceptance order.
        taken = _thread_seq_take(thread_id=run.thread_id, close=outcome.ending in THREAD_ENDINGS)
        if taken is None:
            raise Thread.DoesNotExist(f"thread {run.thread_id} not found")
        seq = taken[0]
        updates["assistant_message"] = Message.objects.create(
            thread_id=run.thread_id, seq=seq, role=Message.Role.ASSISTANT, content=outcome.reply
        )
        if not current.update(**updates):
            transaction.set_rollback(True)  # a superseded attempt: the reply above is not kept
            return False
        if outcome.ending == "handoff":
            # The reply above tells the customer a person takes over; the thread row is locked.
            handoff.thread_mark_handed_off(
                thread_id=run.thread_id, reason=outcome.handoff_reason or Thread.HandoffReason.MODEL_ASKED
            )
        # A run behind this one has a user message accepted after this run's; none was (the seq
        # before this reply is this run's own), so there is nothing to dispatch.
        dispatch_next = seq - 1 > run.seq
        transaction.on_commit(partial(_run_ended, run_id=run.id, thread_id=run.thread_id, dispatch_next=dispatch_next))
    return True


def _run_pause(*, run: Run, current, updates: dict, now) -> bool:
    """in_progress → requires_action, unless the customer has already answered.

    A message sent after the pending action was committed but before this update declines the
    action while the run is still in progress, so it cannot requeue the run. Pausing then would
    wait for an answer that already came, and hold up the thread behind it. With the thread row
    locked (message_post declines under the same lock), pause only while the action is still
    pending; otherwise send the run straight back to the queue to tell the model.
    """
    still_pending = PendingAction.objects.filter(run_id=OuterRef("pk"), decision=PendingAction.Decision.PENDING)
    with transaction.atomic():
        list(Thread.objects.select_for_update().filter(pk=run.thread_id).values_list("pk"))
        if current.filter(Exists(still_pending)).update(**updates):
            # A paused run is still the thread's earliest unfinished one: nothing behind it may start.
            transaction.on_commit(partial(_run_ended, run_id=run.id, thread_id=run.thread_id, dispatch_next=False))
            return True
        if current.update(status=Run.Status.QUEUED, heartbeat_at=now, dispatched_at=now):
            transaction.on_commit(partial(run_dispatch, run_id=run.id))
            return True
    return False


def _run_ended(*, run_id: UUID, thread_id: UUID, dispatch_next: bool = True) -> None:
    notify.run_changed(run_id)
    if dispatch_next:
        run_dispatch_next(thread_id=thread_id)


def run_dispatch_next(*, thread_id: UUID) -> None:
    """Dispatch the thread's earliest queued run, if nothing before it is unfinished."""
    unfinished = (
        Run.objects.filter(thread_id=thread_id, status__in=Run.UNFINISHED)
        .order_by("seq")
        .values("id", "status")
        .first()
    )
    if not unfinished or unfinished["status"] != Run.Status.QUEUED:
        return
    # Stamped as sent now, or the sweep would send it again: it was queued (and its first,
    # blocked task sent) when its message arrived, maybe longer ago than the redispatch delay.
    if Run.objects.filter(id=unfinished["id"], status=Run.Status.QUEUED).update(dispatched_at=timezone.now()):
        run_dispatch(run_id=unfinished["id"])


def run_cancel(*, run: Run) -> Run:
    """queued → cancelled now; in_progress → cancelled at the agent's next step. Idempotent."""
    now = timezone.now()
    if Run.objects.filter(id=run.id, status=Run.Status.QUEUED).update(
        status=Run.Status.CANCELLED,
        completed_at=now,
        error_code="cancelled",
        error_message="Cancelled by the customer.",
    ):
        transaction.on_commit(partial(_run_ended, run_id=run.id, thread_id=run.thread_id))
    else:
        Run.objects.filter(id=run.id, status=Run.Status.IN_PROGRESS).update(cancel_requested=True)
    run.refresh_from_db()
    return run


@dataclass
class SweepReport:
    redispatched: int = 0
    requeued: int = 0
    expired: int = 0


def runs_sweep() -> SweepReport:
    """Find runs no worker is executing and re-dispatch them, or end them `expired`.

    - in_progress with a silent worker: back to queued (fenced on heartbeat), or expired
      after RUN_MAX_ATTEMPTS;
    - queued, unblocked, whose task went missing (enqueue failed, broker lost it): sent again;
    - queued for longer than RUN_EXPIRE_AFTER_SECONDS: expired.
    """
    now = timezone.now()
    report = SweepReport()
    expire = partial(_run_expire, now=now)

    stale = Run.objects.filter(
        status=Run.Status.IN_PROGRESS, heartbeat_at__lt=now - timedelta(seconds=settings.RUN_STALE_AFTER_SECONDS)
    )
    for run in stale.only("id", "thread_id", "attempts", "heartbeat_at"):
        if run.attempts >= settings.RUN_MAX_ATTEMPTS:
            report.expired += expire(
                run,
                Run.Status.IN_PROGRESS,
                "worker_lost",
                "The reply could not be finished; please send your message again.",
            )
        elif Run.objects.filter(id=run.id, status=Run.Status.IN_PROGRESS, heartbeat_at=run.heartbeat_at).update(
            status=Run.Status.QUEUED, dispatched_at=now
        ):
            report.requeued += 1
            run_dispatch(run_id=run.id)

    # Measured from the last time the run was queued: a run resumed after a long wait for the
    # customer or for staff approval (heartbeat_at set when it was re-queued) is not "too old".
    queued_before = now - timedelta(seconds=settings.RUN_EXPIRE_AFTER_SECONDS)
    too_old = Run.objects.filter(
        Q(heartbeat_at__isnull=True) | Q(heartbeat_at__lt=queued_before),
        status=Run.Status.QUEUED,
        created_at__lt=queued_before,
    )
    for run in too_old.only("id", "thread_id"):
        report.expired += expire(
            run,
            Run.Status.QUEUED,
            "queue_timeout",
            "The reply could not be started in time; please send your message again.",
        )

    earlier_unfinished = Run.objects.filter(
        thread_id=OuterRef("thread_id"), seq__lt=OuterRef("seq"), status__in=Run.UNFINISHED
    )
    lost = Run.objects.filter(
        Q(dispatched_at__isnull=True)
        | Q(dispatched_at__lt=now - timedelta(seconds=settings.RUN_REDISPATCH_AFTER_SECONDS)),
        status=Run.Status.QUEUED,
    ).filter(~Exists(earlier_unfinished))
    for run_id in lost.values_list("id", flat=True):
        if Run.objects.filter(id=run_id, status=Run.Status.QUEUED).update(dispatched_at=now):
            report.redispatched += 1
            run_dispatch(run_id=run_id)
    if report.redispatched or report.requeued or report.expired:
        logger.warning("sweep: %s", report)
    return report


def _run_expire(run: Run, from_status: str, code: str, message: str, *, now) -> int:
    updated = Run.objects.filter(id=run.id, status=from_status).update(
        status=Run.Status.EXPIRED, completed_at=now, error_code=code, error_message=message
    )
    if updated:
        notify.run_changed(run.id)
        run_dispatch_next(thread_id=run.thread_id)
    return updated

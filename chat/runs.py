"""The run lifecycle: dispatch, claim, execute, finish, pause, cancel, and the sweep.

Called by chat/tasks.py (run_execute, runs_sweep), chat/services.py (a stored message's run is
dispatched on commit), chat/confirmations.py (a decided action requeues its run) and chat/api.py
(cancel). Runs the turn through chat/agent/loop.py outside any transaction and records its end.

Every state change of a run is a conditional UPDATE on its current status, so two workers, a
redelivered task and the sweep can race without doing anything twice.
"""

import logging
import time
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from uuid import UUID

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from bookly_project.celery import app as celery_app
from bookly_project.db import db_connection_release
from chat import handoff, notify
from chat.agent import loop, steps
from chat.models import Message, Run, Thread
from chat.sequence import thread_seq_take
from guardrails.models import PendingAction

logger = logging.getLogger(__name__)


RUN_TASK = "chat.tasks.run_turn"
# Turn endings that also end the conversation: the thread is closed to new messages.
THREAD_ENDINGS = ("turn_limit", "token_budget")


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
    UPDATE {run} SET status = %s, attempts = attempts + 1, started_at = %s, heartbeat_at = %s
    WHERE id = %s AND status = %s AND NOT EXISTS (
        SELECT 1 FROM {run} AS earlier
        WHERE earlier.thread_id = {run}.thread_id AND earlier.seq < {run}.seq AND earlier.status IN ({unfinished})
    )
    RETURNING {columns},
        (SELECT content FROM {message} WHERE {message}.id = {run}.user_message_id) AS claimed_user_text,
        (SELECT handed_off_at IS NOT NULL FROM {thread} WHERE {thread}.id = {run}.thread_id)
            AS claimed_handed_off
""".format(  # noqa: S608
    run=Run._meta.db_table,
    message=Message._meta.db_table,
    thread=Thread._meta.db_table,
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


QUEUE_TIMEOUT = steps.TurnOutcome(
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
        run_finish(run=run, outcome=steps.TurnOutcome(status=Run.Status.COMPLETED, ending="handed_off"))
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


def _turn_outcome(run: Run) -> steps.TurnOutcome:
    """The agent's outcome; a crash is a failed run, a transient database error is raised."""
    try:
        return loop.run_turn(run)
    except TRANSIENT_DATABASE_ERRORS:
        raise
    except Exception:
        logger.exception("run %s crashed", run.id)
        db_connection_release()  # the crash may have left the connection unusable
        return steps.TurnOutcome(
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


# The finish's fenced UPDATE of an ending run (completed, failed, ...), written once: the
# statement `Run.objects.filter(id=…, attempts=…, status="in_progress").update(…)` built on every
# turn. Building and compiling it cost ~0.3 ms more than the statement (docs/performance.md §9.8).
# The reply, when there is one, is set; otherwise the run keeps the assistant message it has.
_FINISH_SQL = f"""
    UPDATE {Run._meta.db_table}
    SET status = %s, heartbeat_at = %s, completed_at = %s, ending = %s, error_code = %s,
        error_message = %s, assistant_message_id = COALESCE(%s, assistant_message_id)
    WHERE id = %s AND attempts = %s AND status = %s
"""  # noqa: S608


def _run_end(*, run: Run, outcome: steps.TurnOutcome, now, reply: Message | None = None) -> bool:
    """in_progress → the outcome's final status, fenced by `attempts`; False if another attempt took the run."""
    at = Run._meta.get_field("completed_at").get_db_prep_value(now, connection)
    with connection.cursor() as cursor:
        cursor.execute(
            _FINISH_SQL,
            [
                outcome.status,
                at,
                at,
                outcome.ending,
                outcome.error_code,
                outcome.error_message[:500],
                reply.pk if reply is not None else None,
                run.id,
                run.attempts,
                Run.Status.IN_PROGRESS,
            ],
        )
        return cursor.rowcount > 0


def run_finish(*, run: Run, outcome: steps.TurnOutcome) -> bool:
    """Record how the turn ended: the assistant message and the run's final status, atomically.

    Fenced by `attempts`: a worker whose run was taken over by the sweep records nothing.
    """
    now = timezone.now()
    if outcome.status == Run.Status.REQUIRES_ACTION:
        return _run_pause(run=run, outcome=outcome, now=now)
    if outcome.status != Run.Status.COMPLETED or not outcome.reply:
        # No message to write, so no seq to take: the fenced UPDATE alone, atomic by itself.
        if not _run_end(run=run, outcome=outcome, now=now):
            return False
        transaction.on_commit(partial(_run_ended, run_id=run.id, thread_id=run.thread_id))
        return True
    with transaction.atomic():
        # Takes the thread row's lock (held to commit) like message_post does, so the reply's
        # seq is the next one in acceptance order.
        taken = thread_seq_take(thread_id=run.thread_id, close=outcome.ending in THREAD_ENDINGS)
        if taken is None:
            raise Thread.DoesNotExist(f"thread {run.thread_id} not found")
        seq = taken[0]
        reply = Message.objects.create(
            thread_id=run.thread_id, seq=seq, role=Message.Role.ASSISTANT, content=outcome.reply
        )
        if not _run_end(run=run, outcome=outcome, now=now, reply=reply):
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


def _run_pause(*, run: Run, outcome: steps.TurnOutcome, now) -> bool:
    """in_progress → requires_action, unless the customer has already answered.

    A message sent after the pending action was committed but before this update declines the
    action while the run is still in progress, so it cannot requeue the run. Pausing then would
    wait for an answer that already came, and hold up the thread behind it. With the thread row
    locked (message_post declines under the same lock), pause only while the action is still
    pending; otherwise send the run straight back to the queue to tell the model.
    """
    current = Run.objects.filter(id=run.id, attempts=run.attempts, status=Run.Status.IN_PROGRESS)
    updates = {
        "status": outcome.status,
        "heartbeat_at": now,
        "ending": outcome.ending,
        "error_code": outcome.error_code,
        "error_message": outcome.error_message[:500],
    }
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
            # heartbeat_at marks the new wait in the queue, as run_requeue_after_fault does: without it the
            # queue-age check below expired a long-lived run in the very sweep that requeued it.
            status=Run.Status.QUEUED,
            dispatched_at=now,
            heartbeat_at=now,
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

"""Celery tasks: thin wrappers that take ids and call chat/services.py."""

from celery import shared_task

from chat import actions, services


class TurnFailed(Exception):
    """A turn that failed for the customer (model outage, internal error), already recorded on the run.

    Raised after the run is recorded so Flower and Celery's events count the task as a FAILURE.
    It carries the run's error code only, never customer data. The task is still acknowledged
    (acks_late acks failed tasks too), so it is not redelivered.
    """

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@shared_task(
    name="chat.tasks.run_turn",
    ignore_result=True,
    # throws=: an expected failure, logged by the worker in one INFO line without a traceback.
    throws=(TurnFailed,),
    # The database away before the run was claimed: the run is still queued, try again soon.
    autoretry_for=services.TRANSIENT_DATABASE_ERRORS,
    retry_backoff=1,
    retry_backoff_max=30,
    max_retries=6,
)
def run_turn(run_id: str) -> None:
    """Execute one run. Safe to deliver twice: the run is claimed before any work."""
    failure = services.run_execute(run_id=run_id)
    if failure:
        raise TurnFailed(failure)


# The sweeps run every 30 s and are worth no line in Flower's task list: no task events.
@shared_task(name="chat.tasks.sweep_runs", ignore_result=True, send_events=False)
def sweep_runs() -> dict:
    """Periodic (beat): re-dispatch or expire runs that no worker is executing."""
    return vars(services.runs_sweep())


@shared_task(name="chat.tasks.expire_pending_actions", ignore_result=True, send_events=False)
def expire_pending_actions() -> int:
    """Periodic (beat): end confirmations and staff approvals nobody answered in time."""
    return actions.pending_actions_expire()

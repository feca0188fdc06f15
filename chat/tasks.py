"""Celery tasks: thin wrappers that take ids and call chat/services.py."""

from celery import shared_task

from chat import actions, services


@shared_task(name="chat.tasks.run_turn", ignore_result=True)
def run_turn(run_id: str) -> None:
    """Execute one run. Safe to deliver twice: the run is claimed before any work."""
    services.run_execute(run_id=run_id)


@shared_task(name="chat.tasks.sweep_runs", ignore_result=True)
def sweep_runs() -> dict:
    """Periodic (beat): re-dispatch or expire runs that no worker is executing."""
    return vars(services.runs_sweep())


@shared_task(name="chat.tasks.expire_pending_actions", ignore_result=True)
def expire_pending_actions() -> int:
    """Periodic (beat): end confirmations and staff approvals nobody answered in time."""
    return actions.pending_actions_expire()

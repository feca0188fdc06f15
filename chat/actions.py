"""The customer's decisions on pending actions: confirm, decline, expiry, and resuming the run.

Called by chat/api.py (the action endpoint), chat/services.py (a new message declines what
is pending) and chat/tasks.py (expiry). A confirmation runs both guardrail stages again
and applies the effect only if it still matches the fingerprint the customer saw.
"""

import logging
from dataclasses import replace
from functools import partial

from django.db import transaction
from django.utils import timezone

from bookly_project.errors import ApplicationError, not_found_error
from chat import agent, notify
from chat import services as chat_services
from chat.models import Run
from chat.tools import ToolContext, ToolOutcome, tool_apply, tool_execute
from guardrails import services as guardrails
from guardrails.checks import check_tool_call
from guardrails.models import GuardrailEvent, PendingAction
from guardrails.state import thread_guard_state

logger = logging.getLogger(__name__)

DECLINED_RESULT = {
    "status": "declined_by_customer",
    "message": "The customer chose Cancel. No return was started and nothing was changed.",
}
NOT_CONFIRMED_RESULT = {
    "status": "not_confirmed",
    "message": "The customer sent a new message instead of confirming. No return was started.",
}


def _error(code: str, message: str) -> ToolOutcome:
    return ToolOutcome({"error": {"code": code, "message": message}}, is_error=True, code=code)


def _close(action: PendingAction, decision: str, outcome: ToolOutcome, *, guardrail_code: str = "") -> None:
    """Record the decision and the tool_result the model will see, then resume the paused run."""
    agent.tool_call_record(
        run=action.run,
        model_call=action.model_call,
        tool_use_id=action.tool_use_id,
        name=action.tool_name,
        arguments=action.arguments,
        outcome=outcome,
        guardrail_code=guardrail_code,
    )
    action.decision = decision
    action.decided_at = timezone.now()
    action.result_code = outcome.code or decision
    action.save(update_fields=["decision", "decided_at", "result_code"])
    if Run.objects.filter(id=action.run_id, status=Run.Status.REQUIRES_ACTION).update(
        status=Run.Status.QUEUED, dispatched_at=timezone.now()
    ):
        transaction.on_commit(partial(notify.run_changed, action.run_id))
        transaction.on_commit(partial(chat_services.run_dispatch, run_id=action.run_id))


def action_decide(*, run: Run, action_id, decision: str) -> Run:
    """Apply the customer's decision. Exactly one decision per action wins; the others get 409."""
    with transaction.atomic():
        action = (
            PendingAction.objects.select_for_update()
            .select_related("run", "model_call")
            .filter(id=action_id, run_id=run.id)
            .first()
        )
        if action is None:
            raise not_found_error("Action")
        if action.decision:
            raise ApplicationError("action_already_decided", f"This action was already {action.decision}.", status=409)
        if action.expires_at <= timezone.now():
            _expire(action)
            failure = ApplicationError(
                "confirmation_expired", "This confirmation has expired; ask again in the chat.", status=410
            )
        elif decision == "decline":
            _close(action, PendingAction.Decision.DECLINED, ToolOutcome(DECLINED_RESULT))
            failure = None
        elif decision == "confirm":
            failure = _confirm(action)
        else:
            raise ValueError(f"unknown decision {decision!r}")
    if failure is not None:
        raise failure
    run.refresh_from_db()
    return run


def _confirm(action: PendingAction) -> ApplicationError | None:
    """Both stages again, the fingerprint, then apply; a failure is recorded and told to the model."""
    policy = guardrails.policy_current()
    context = ToolContext(thread_id=action.thread_id, run_id=action.run_id)
    state = thread_guard_state(thread_id=action.thread_id)
    order_id = action.effect.get("order_id", "")
    # This very action is what makes the order "pending"; stage 1 must not count it against itself.
    state = replace(state, pending_orders=state.pending_orders - {order_id})
    verdict = check_tool_call(name=action.tool_name, arguments=action.arguments, state=state, policy=policy)
    code = "" if verdict.allowed else verdict.code
    effect = None
    if not code:
        computed = tool_execute(action.tool_name, action.arguments, context)
        effect = computed.effect
        if computed.is_error or effect is None:
            code = computed.code or "effect_changed"
        elif effect.fingerprint() != action.fingerprint:
            code = "effect_changed"
        else:
            verdict, _ = agent.effect_check(effect, policy)
            code = "" if verdict.allowed else verdict.code
    if code:
        return _reject(action, code, policy.version)
    outcome = tool_apply(action.tool_name, effect.as_dict(), context)
    if outcome.is_error:
        return _reject(action, outcome.code, policy.version)
    _close(action, PendingAction.Decision.CONFIRMED, outcome)
    return None


def _refuse(action: PendingAction, decision: str, code: str, message: str, policy_version: int) -> None:
    """Close the action without applying it, tell the model why, and record the guardrail decision."""
    _close(action, decision, _error(code, message), guardrail_code=code)
    guardrails.event_record(
        layer=GuardrailEvent.Layer.TOOLS,
        stage="confirm",
        code=code,
        action=GuardrailEvent.Action.BLOCKED,
        thread_id=action.thread_id,
        run_id=action.run_id,
        tool_name=action.tool_name,
        policy_version=policy_version,
    )


def _expire(action: PendingAction) -> None:
    """The customer did not answer in time: nothing is applied."""
    _refuse(
        action,
        PendingAction.Decision.EXPIRED,
        "confirmation_expired",
        "The customer did not confirm in time. Nothing was changed.",
        guardrails.policy_current().version,
    )


def _reject(action: PendingAction, code: str, policy_version: int) -> ApplicationError:
    """A confirmation whose re-check failed: nothing is applied; the client gets a 409."""
    _refuse(
        action,
        PendingAction.Decision.REJECTED,
        code,
        "The return could not be started: the order or its items changed. Nothing was changed.",
        policy_version,
    )
    return ApplicationError(
        code, "The return could not be started because something changed; see the chat.", status=409
    )


def pending_actions_decline_for_thread(*, thread_id) -> int:
    """A new message while a confirmation is pending: the customer did not confirm. Call in a transaction."""
    actions = (
        PendingAction.objects.select_for_update()
        .select_related("run", "model_call")
        .filter(thread_id=thread_id, decision=PendingAction.Decision.PENDING)
    )
    count = 0
    for action in actions:
        _close(action, PendingAction.Decision.DECLINED, ToolOutcome(NOT_CONFIRMED_RESULT))
        count += 1
    return count


def pending_actions_expire() -> int:
    """Periodic: end confirmations nobody answered in time, and let their runs finish."""
    expired = 0
    for action_id in PendingAction.objects.filter(
        decision=PendingAction.Decision.PENDING, expires_at__lte=timezone.now()
    ).values_list("id", flat=True):
        with transaction.atomic():
            action = (
                PendingAction.objects.select_for_update(skip_locked=True)
                .select_related("run", "model_call")
                .filter(id=action_id, decision=PendingAction.Decision.PENDING)
                .first()
            )
            if action is not None:
                _expire(action)
                expired += 1
    return expired

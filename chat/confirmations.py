"""Decisions on pending actions: confirm, decline, expiry, and sending the run on.

Called by chat/api.py (the customer's Confirm / Cancel), chat/services.py (a new message declines
what is pending), chat/tasks.py (expiry) and the staff admin (approvals, where there are any). A
confirmation runs both guardrail stages again (guardrails/checks.py) and applies the effect only
if it still matches the fingerprint the customer saw; the tool_result the model will read is
recorded (chat/transcript.py) and the run is queued again (chat/runs.py).
"""

import logging
from dataclasses import replace
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from bookly_project.errors import ApplicationError, not_found_error
from chat import notify, runs, transcript
from chat.agent.tools import ToolContext, ToolOutcome, tool_apply, tool_execute
from chat.guard_state import thread_guard_state
from chat.models import Run
from chat.progress import WAITING_FOR_TEAM
from guardrails import checks
from guardrails import services as guardrails
from guardrails.checks import check_tool_call
from guardrails.models import GuardrailEvent, GuardrailPolicy, PendingAction, ReturnApproval
from orders.services import ReturnEffect
from staff.roles import can_approve_amount

logger = logging.getLogger(__name__)

DECLINED_RESULT = {
    "status": "declined_by_customer",
    "message": "The customer chose Cancel. No return was started and nothing was changed.",
}
NOT_CONFIRMED_RESULT = {
    "status": "not_confirmed",
    "message": "The customer sent a new message instead of confirming. No return was started.",
}
STAFF_DECLINED_RESULT = {
    "status": "declined_by_staff",
    "message": "Our support team reviewed this return and did not approve it. No return was started.",
}


def _error(code: str, message: str) -> ToolOutcome:
    return ToolOutcome({"error": {"code": code, "message": message}}, is_error=True, code=code)


def _close(action: PendingAction, decision: str, outcome: ToolOutcome, *, guardrail_code: str = "") -> None:
    """Record the decision and the tool_result the model will see, then resume the paused run."""
    transcript.tool_call_record(
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
    waiting = (Run.Status.REQUIRES_ACTION, Run.Status.AWAITING_APPROVAL)
    now = timezone.now()
    # heartbeat_at: when it was queued again, so the sweep's queue timeout counts from now.
    if Run.objects.filter(id=action.run_id, status__in=waiting).update(
        status=Run.Status.QUEUED, dispatched_at=now, heartbeat_at=now, progress=""
    ):
        transaction.on_commit(partial(notify.run_changed, action.run_id))
        transaction.on_commit(partial(runs.run_dispatch, run_id=action.run_id))


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
        if ReturnApproval.objects.filter(action_id=action.id).exists():
            raise ApplicationError(
                "action_already_decided", "This return was already confirmed and is waiting for our team.", status=409
            )
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
    """Both stages again and the fingerprint; then apply, or park the return for staff approval."""
    policy = guardrails.policy_current()
    effect, code = _effect_recheck(action, policy)
    if code:
        return _reject(action, code, policy.version)
    rule = guardrails.staff_approval_rule(effect, policy)
    if rule:
        _approval_request(action, effect, rule, policy)
        return None
    return _effect_apply(action, effect, policy)


def _effect_recheck(action: PendingAction, policy: GuardrailPolicy) -> tuple[ReturnEffect | None, str]:
    """Stage 1, the effect computed afresh against the order as it is now, its fingerprint, stage 2.

    Returns (effect, "") when the action may still be applied as the customer saw it, else (None, code).
    """
    state = thread_guard_state(thread_id=action.thread_id)
    order_id = action.effect.get("order_id", "")
    # This very action is what makes the order "pending"; stage 1 must not count it against itself.
    state = replace(state, pending_orders=state.pending_orders - {order_id})
    verdict = check_tool_call(name=action.tool_name, arguments=action.arguments, state=state, policy=policy)
    if not verdict.allowed:
        return None, verdict.code
    computed = tool_execute(action.tool_name, action.arguments, _context(action))
    effect = computed.effect
    if computed.is_error or effect is None:
        return None, computed.code or "effect_changed"
    if effect.fingerprint() != action.fingerprint:
        return None, "effect_changed"
    verdict, _ = checks.effect_check(effect, policy)
    return (effect, "") if verdict.allowed else (None, verdict.code)


def _effect_apply(action: PendingAction, effect: ReturnEffect, policy: GuardrailPolicy) -> ApplicationError | None:
    """Write the re-checked effect and resume the run; a refusal by the store is recorded and told."""
    outcome = tool_apply(action.tool_name, effect.as_dict(), _context(action))
    if outcome.is_error:
        return _reject(action, outcome.code, policy.version)
    _close(action, PendingAction.Decision.CONFIRMED, outcome)
    return None


def _context(action: PendingAction) -> ToolContext:
    return ToolContext(thread_id=action.thread_id, run_id=action.run_id)


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
    """Nobody answered in time (the customer, or staff for a return waiting for approval): nothing is applied."""
    version = guardrails.policy_current().version
    approval = ReturnApproval.objects.select_for_update().filter(action_id=action.id).first()
    if approval is None:
        _refuse(
            action,
            PendingAction.Decision.EXPIRED,
            "confirmation_expired",
            "The customer did not confirm in time. Nothing was changed.",
            version,
        )
        return
    _refuse(
        action,
        PendingAction.Decision.EXPIRED,
        "approval_expired",
        "Our support team could not review this return in time, so it was not started. Nothing was changed.",
        version,
    )
    _approval_record(approval, ReturnApproval.Status.EXPIRED, result_code="approval_expired")


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
    pending = PendingAction.objects.filter(thread_id=thread_id, decision=PendingAction.Decision.PENDING)
    if pending.filter(approval__isnull=False).exists():
        # Confirmed already and waiting for a person: the run it pauses must finish first.
        raise ApplicationError(
            "approval_pending",
            "Your return is waiting for our team's approval. You can write again here once they have decided.",
            status=409,
        )
    actions = pending.select_for_update().select_related("run", "model_call")
    count = 0
    for action in actions:
        _close(action, PendingAction.Decision.DECLINED, ToolOutcome(NOT_CONFIRMED_RESULT))
        count += 1
    return count


def pending_actions_expire() -> int:
    """Periodic: end confirmations and approvals nobody answered in time, and let their runs finish."""
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


# --- Staff approval ----------------------------------------------------------------------------


def _approval_request(action: PendingAction, effect: ReturnEffect, rule: str, policy: GuardrailPolicy) -> None:
    """The customer confirmed a return the policy wants a person to approve: park it, and let the run wait."""
    expires_at = timezone.now() + timedelta(hours=policy.staff_approval_ttl_hours)
    ReturnApproval.objects.create(
        action=action,
        thread_id=action.thread_id,
        rule=rule,
        order_id=effect.order_id,
        refund_amount=effect.refund_amount,
        policy_version=policy.version,
        expires_at=expires_at,
    )
    action.expires_at = expires_at  # the expiry sweep ends it if nobody decides
    action.save(update_fields=["expires_at"])
    if Run.objects.filter(id=action.run_id, status=Run.Status.REQUIRES_ACTION).update(
        status=Run.Status.AWAITING_APPROVAL, progress=WAITING_FOR_TEAM
    ):
        transaction.on_commit(partial(notify.run_changed, action.run_id))
    guardrails.event_record(
        layer=GuardrailEvent.Layer.TOOLS,
        stage="confirm",
        code="staff_approval_required",
        action=GuardrailEvent.Action.APPROVAL_REQUIRED,
        thread_id=action.thread_id,
        run_id=action.run_id,
        tool_name=action.tool_name,
        detail=f"rule: {rule}",
        policy_version=policy.version,
    )


def _approval_record(approval: ReturnApproval, status: str, *, user=None, reason: str = "", result_code: str = ""):
    approval.status = status
    approval.decided_by = user
    approval.decided_at = timezone.now()
    approval.decision_reason = reason
    approval.result_code = result_code
    approval.save(update_fields=["status", "decided_by", "decided_at", "decision_reason", "result_code"])


def approval_decide(*, approval_id, user, approve: bool, reason: str) -> ReturnApproval:
    """A staff member approves or declines a return waiting for them, with a reason. Recorded: who, when, why.

    Approval re-runs both stages against the order as it is now and writes the return only if
    the effect still matches the fingerprint; either way the paused run resumes so the model
    tells the customer. Exactly one decision wins (row locks); a later one raises 409, an
    expired approval 410.
    """
    reason = reason.strip()
    if not reason:
        raise ApplicationError("reason_required", "Give a reason for the decision.")
    with transaction.atomic():
        # The action row first, as the customer's decision and the expiry sweep lock it.
        action = (
            PendingAction.objects.select_for_update()
            .select_related("run", "model_call")
            .filter(approval__id=approval_id)
            .first()
        )
        if action is None:
            raise not_found_error("Approval")
        approval = ReturnApproval.objects.select_for_update().get(action_id=action.id)
        if approval.status != ReturnApproval.Status.PENDING or action.decision:
            raise ApplicationError(
                "approval_already_decided", f"This return was already {approval.status}.", status=409
            )
        if approval.expires_at <= timezone.now():
            _expire(action)
            failure = ApplicationError(
                "approval_expired", "This approval has expired; nothing was changed.", status=410
            )
        elif not user.has_perm("guardrails.decide_returnapproval"):
            raise ApplicationError("forbidden", "You are not allowed to decide returns.", status=403)
        elif approve and not can_approve_amount(user, approval.refund_amount):
            raise ApplicationError(
                "approval_over_limit",
                f"Returns above ${settings.SUPPORT_AGENT_APPROVAL_LIMIT} need a support lead's approval.",
                status=403,
            )
        elif approve:
            policy = guardrails.policy_current()
            effect, code = _effect_recheck(action, policy)
            refused = _reject(action, code, policy.version) if code else _effect_apply(action, effect, policy)
            status = ReturnApproval.Status.REJECTED if refused else ReturnApproval.Status.APPROVED
            _approval_record(approval, status, user=user, reason=reason, result_code=refused.code if refused else "")
            failure = None
        else:
            _close(action, PendingAction.Decision.DECLINED, ToolOutcome(STAFF_DECLINED_RESULT))
            _approval_record(approval, ReturnApproval.Status.DECLINED, user=user, reason=reason)
            failure = None
    if failure is not None:
        raise failure
    logger.info("return approval %s %s", approval.id, approval.status)
    return approval

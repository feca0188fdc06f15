"""Writes of the guardrails app: the active policy, events, and pending actions' lifecycle.

Called by chat/agent.py (events, pausing on an effect) and chat/services.py (decisions,
declining on a new message, expiry). Applying a confirmed effect goes through the tool's
own `apply`, after both stages have run again.
"""

import logging
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.utils import timezone

from guardrails.models import GuardrailEvent, GuardrailPolicy, PendingAction
from orders.services import ReturnEffect

logger = logging.getLogger(__name__)


def policy_current() -> GuardrailPolicy:
    """The active policy (created with safe defaults on first use). Read once per turn."""
    policy = GuardrailPolicy.objects.order_by("pk").first()
    if policy is None:
        policy, _ = GuardrailPolicy.objects.get_or_create(pk=1)
    return policy


def event_record(
    *,
    layer: str,
    stage: str,
    code: str,
    action: str,
    thread_id,
    policy_version: int,
    run_id=None,
    tool_call=None,
    tool_name: str = "",
    detail: str = "",
) -> GuardrailEvent:
    """Record one non-pass decision. `detail` must never carry customer data."""
    logger.info("guardrail %s %s %s on run %s", layer, code, action, run_id)
    return GuardrailEvent.objects.create(
        layer=layer,
        stage=stage,
        code=code,
        action=action,
        thread_id=thread_id,
        run_id=run_id,
        tool_call=tool_call,
        tool_name=tool_name,
        detail=detail[:500],
        policy_version=policy_version,
    )


def _money(amount: Decimal) -> str:
    return f"{amount:.2f}"


def return_preview(effect: ReturnEffect, prices: dict[int, Decimal]) -> dict:
    """What the customer confirms, built by the server from the computed effect (never by the model)."""
    items = [
        {"title": title, "price": _money(prices[item_id])}
        for item_id, title in zip(effect.item_ids, effect.titles, strict=True)
    ]
    count = f"{len(items)} item" + ("" if len(items) == 1 else "s")
    summary = (
        f"Return {count} from order {effect.order_id} for a refund of ${_money(effect.refund_amount)} "
        f"to your {effect.refund_method}."
    )
    return {
        "order_id": effect.order_id,
        "items": items,
        "refund_amount": _money(effect.refund_amount),
        "refund_method": effect.refund_method,
        "summary": summary,
    }


def pending_action_create(
    *, run, model_call, tool_use_id: str, tool_name: str, arguments: dict, effect: ReturnEffect, preview: dict
) -> PendingAction:
    """Park a computed effect for the customer's decision; the run pauses on it."""
    return PendingAction.objects.create(
        run=run,
        thread_id=run.thread_id,
        model_call=model_call,
        tool_use_id=tool_use_id,
        tool_name=tool_name,
        arguments=arguments,
        effect=effect.as_dict(),
        fingerprint=effect.fingerprint(),
        preview=preview,
        expires_at=timezone.now() + timedelta(seconds=settings.CONFIRMATION_TTL_SECONDS),
    )


def required_action(action: PendingAction | None) -> dict | None:
    """The run's `required_action` object of the HTTP API."""
    if action is None:
        return None
    return {
        "id": str(action.id),
        "type": "confirm_return",
        "preview": action.preview,
        "expires_at": action.expires_at.isoformat().replace("+00:00", "Z"),
    }

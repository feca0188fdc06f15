"""Writes of the guardrails app: the active policy, events, and pending actions' lifecycle.

Called by chat/agent.py (events, pausing on an effect) and chat/services.py (decisions,
declining on a new message, expiry). Applying a confirmed effect goes through the tool's
own `apply`, after both stages have run again.
"""

import copy
import logging
import threading
import time
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.db import connection, transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from guardrails.checks import check_staff_approval
from guardrails.models import GuardrailEvent, GuardrailPolicy, PendingAction
from orders.selectors import returns_count_for_customer_of_order
from orders.services import ReturnEffect

logger = logging.getLogger(__name__)

# Every turn needs the policy; staff change it rarely. A worker process reuses what it read for
# this long, so an edit made in another process (the admin) reaches every worker within it.
POLICY_CACHE_SECONDS = 5.0
_policy_cache: tuple[float, GuardrailPolicy] | None = None
_policy_generation = 0  # bumped by every clear, so a read that raced an edit is not cached
_policy_lock = threading.Lock()


def policy_current() -> GuardrailPolicy:
    """The active policy (created with safe defaults on first use). Read once per turn.

    Cached per process for POLICY_CACHE_SECONDS; a save or delete in this process clears it at
    once. Inside a transaction the database is always read and nothing is cached: what a
    transaction sees may be its own uncommitted edit, which must not reach other threads.
    """
    global _policy_cache
    shared = not connection.in_atomic_block
    if shared:
        cached, generation = _policy_cache, _policy_generation
        if cached is not None and time.monotonic() < cached[0]:
            return copy.copy(cached[1])  # a copy: a caller that edits it must not edit everyone's
    policy = GuardrailPolicy.objects.order_by("pk").first()
    if policy is None:
        policy, _ = GuardrailPolicy.objects.get_or_create(pk=1)
    if shared:
        with _policy_lock:
            if generation == _policy_generation:
                _policy_cache = (time.monotonic() + POLICY_CACHE_SECONDS, copy.copy(policy))
    return policy


def policy_cache_clear() -> None:
    """Forget the cached policy: the next policy_current() reads the database."""
    global _policy_cache, _policy_generation
    with _policy_lock:
        _policy_cache = None
        _policy_generation += 1


@receiver(post_save, sender=GuardrailPolicy, dispatch_uid="guardrails.policy_cache_clear.save")
@receiver(post_delete, sender=GuardrailPolicy, dispatch_uid="guardrails.policy_cache_clear.delete")
def _policy_changed(**kwargs) -> None:
    # Now, and again once the edit commits: a turn that read the old row in between must not
    # keep it cached after the commit.
    policy_cache_clear()
    transaction.on_commit(policy_cache_clear)


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


def staff_approval_rule(effect: ReturnEffect, policy: GuardrailPolicy) -> str:
    """The policy rule that makes a person approve this return too, or '' (reads the customer's recent returns)."""
    recent = 0  # counted only when the frequency rule is on: the other rules need no query
    if policy.staff_approval_returns_over is not None:
        since = timezone.now() - timedelta(days=policy.staff_approval_period_days)
        recent = returns_count_for_customer_of_order(order_id=effect.order_id, since=since)
    return check_staff_approval(refund_amount=effect.refund_amount, recent_returns=recent, policy=policy)

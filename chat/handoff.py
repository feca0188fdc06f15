"""Handing a conversation to a person, staff replies, and handing it back to the assistant.

Called by chat/api.py (the customer's "Talk to a person"), chat/services.py (a turn that ends
in a handoff, or the second failed turn of a thread) and chat/admin.py (staff reply, hand back).
While a thread is handed off the agent stays silent: a customer message gets a run that ends
at once (`handed_off`), and what staff write reaches the page on GET /threads/{id}/updates.
"""

import logging
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from bookly_project.errors import ApplicationError
from chat import notify, services
from chat.agent import BLOCKS_NOT_FAILURES, TurnOutcome
from chat.models import Message, Run, Thread, ToolCall
from guardrails.models import GuardrailEvent, PendingAction
from guardrails.state import thread_guard_state
from orders.models import Return

logger = logging.getLogger(__name__)

HANDOFF_NOTICE = (
    "I've passed this conversation to our support team. A person will reply here, usually within "
    "{hours} hours. You can keep writing: they will see everything in this chat."
)
FAILURES_NOTICE = (
    "I'm sorry, I'm having trouble helping with this. I've passed this conversation to our support team: "
    "a person will reply here, usually within {hours} hours."
)
# Blocked tool calls in one turn that make it count as a failed turn.
REPEATED_BLOCKS = 2


def handoff_notice(reason: str) -> str:
    """The fixed message that tells the customer a person will reply, and roughly when."""
    text = FAILURES_NOTICE if reason == Thread.HandoffReason.REPEATED_FAILURES else HANDOFF_NOTICE
    return text.format(hours=settings.HANDOFF_REPLY_WITHIN_HOURS)


def thread_mark_handed_off(*, thread_id: UUID, reason: str) -> bool:
    """Put the thread in the handed-off state unless it already is; True if this call did it."""
    if not Thread.objects.filter(id=thread_id, handed_off_at__isnull=True).update(
        handed_off_at=timezone.now(), handoff_reason=reason
    ):
        return False
    logger.info("thread %s handed off (%s)", thread_id, reason)
    transaction.on_commit(partial(notify.run_changed, thread_id))
    return True


def thread_handoff(*, thread: Thread, reason: str) -> Message | None:
    """Hand the thread to a person and tell the customer. Idempotent: None if it already was."""
    with transaction.atomic():
        if not thread_mark_handed_off(thread_id=thread.id, reason=reason):
            return None
        return services.thread_message_write(
            thread_id=thread.id, role=Message.Role.ASSISTANT, content=handoff_notice(reason)
        )


def _failed_turns_before(run: Run, since) -> int:
    """Earlier turns of the thread (after the last hand-back) that failed, fell back or were blocked repeatedly."""
    blocks = Count(
        "guardrail_events",
        filter=Q(
            guardrail_events__layer=GuardrailEvent.Layer.TOOLS,
            guardrail_events__action=GuardrailEvent.Action.BLOCKED,
        )
        & ~Q(guardrail_events__code__in=BLOCKS_NOT_FAILURES),
    )
    earlier = Run.objects.filter(thread_id=run.thread_id, seq__lt=run.seq)
    if since is not None:
        earlier = earlier.filter(created_at__gt=since)
    return (
        earlier.annotate(blocks=blocks)
        .filter(Q(status=Run.Status.FAILED) | Q(ending="fallback") | Q(blocks__gte=REPEATED_BLOCKS))
        .count()
    )


def _is_failure(outcome: TurnOutcome) -> bool:
    return outcome.status == Run.Status.FAILED or outcome.ending == "fallback" or outcome.blocked >= REPEATED_BLOCKS


def handoff_if_failing(*, run: Run, outcome: TurnOutcome) -> TurnOutcome:
    """The thread's second failed turn hands it to a person instead of failing again.

    Counted from the recorded runs since staff last handed the thread back, so a thread that
    was just given back does not bounce straight back on an old failure. The run keeps its
    error code for the record; the customer gets the handoff notice as the reply.
    """
    if not _is_failure(outcome):
        return outcome
    since = Thread.objects.filter(id=run.thread_id).values_list("handed_back_at", flat=True).first()
    if _failed_turns_before(run, since) + 1 < settings.HANDOFF_AFTER_FAILURES:
        return outcome
    reason = Thread.HandoffReason.REPEATED_FAILURES
    return TurnOutcome(
        status=Run.Status.COMPLETED,
        reply=handoff_notice(reason),
        ending="handoff",
        handoff_reason=reason,
        error_code=outcome.error_code,
        error_message=outcome.error_message,
    )


def staff_reply_post(*, thread_id: UUID, author, content: str) -> Message:
    """A person's reply to the customer, shown on their page through the thread's updates long-poll."""
    content = content.strip()
    if not content:
        raise ApplicationError("invalid_input", "Write a reply first.")
    with transaction.atomic():
        message = services.thread_message_write(
            thread_id=thread_id, role=Message.Role.STAFF, content=content, author=author
        )
        transaction.on_commit(partial(notify.run_changed, thread_id))
    return message


def thread_hand_back(*, thread_id: UUID) -> bool:
    """Give the thread back to the assistant; its next message gets a model turn again. Idempotent."""
    updated = Thread.objects.filter(id=thread_id, handed_off_at__isnull=False).update(
        handed_off_at=None, handed_back_at=timezone.now()
    )
    if updated:
        transaction.on_commit(partial(notify.run_changed, thread_id))
    return bool(updated)


# --- What staff read in the handoff queue --------------------------------------------------------

_LOOKUP_TOOLS = ("lookup_order", "check_return_eligibility", "list_customer_orders")


@dataclass(frozen=True)
class HandoffSummary:
    """A handed-off thread as staff need it, built from the record (never from model text)."""

    reason: str
    since: datetime | None
    verified_email: str | None
    lookups: list[dict]  # {"tool", "order_id", "outcome"} per successful lookup, oldest first
    returns: list[dict]  # {"rma_number", "order_id", "refund_amount", "status"}
    pending: list[dict]  # {"order_id", "refund_amount", "waiting_for"}: confirmations and approvals
    failed_turns: int
    last_messages: list[Message]


def _lookup_outcome(name: str, result: dict) -> str:
    if name == "lookup_order":
        return f"status {result.get('status', '?')}"
    if name == "check_return_eligibility":
        return "eligible" if result.get("eligible") else f"not eligible ({result.get('reason') or 'no reason'})"
    return f"{len(result.get('orders', []))} orders listed"


def handoff_summary(*, thread: Thread, last: int = 10) -> HandoffSummary:
    """Staff's summary of a thread: who, what was looked up and decided, returns, the last messages."""
    calls = ToolCall.objects.filter(run__thread_id=thread.id, is_error=False, name__in=_LOOKUP_TOOLS).order_by("id")
    lookups = [
        {"tool": name, "order_id": arguments.get("order_id", ""), "outcome": _lookup_outcome(name, result)}
        for name, arguments, result in calls.values_list("name", "input", "result")
    ]
    returns = [
        {
            "rma_number": rma.rma_number,
            "order_id": rma.order.order_id,
            "refund_amount": rma.refund_amount,
            "status": rma.status,
        }
        for rma in Return.objects.filter(thread_id=thread.id).select_related("order").order_by("created_at")
    ]
    pending = [
        {
            "order_id": action.preview.get("order_id", ""),
            "refund_amount": action.preview.get("refund_amount", ""),
            "waiting_for": "staff approval" if hasattr(action, "approval") else "the customer's confirmation",
        }
        for action in PendingAction.objects.filter(
            thread_id=thread.id, decision=PendingAction.Decision.PENDING
        ).select_related("approval")
    ]
    failed = Run.objects.filter(thread_id=thread.id).filter(Q(status=Run.Status.FAILED) | Q(ending="fallback"))
    messages = list(thread.messages.select_related("author").order_by("-seq")[:last])
    return HandoffSummary(
        reason=thread.get_handoff_reason_display() if thread.handoff_reason else "",
        since=thread.handed_off_at,
        verified_email=thread_guard_state(thread_id=thread.id).customer_email,
        lookups=lookups,
        returns=returns,
        pending=pending,
        failed_turns=failed.count(),
        last_messages=messages[::-1],
    )

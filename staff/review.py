"""Reads for the review queues: what a thread list shows, how staff search, what needs a person.

Each list is one SQL statement: the customer, order and previews are subqueries, never a
query per row. The two registries (NEEDS_PERSON, EVIDENCE) name each reason in one place,
so the admin's filters and the dashboard's counts always agree.
"""

import contextlib
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db.models import BooleanField, Exists, Expression, ExpressionWrapper, OuterRef, Q, QuerySet, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Substr

from chat.agent.prompts import REFUSAL_TEMPLATE
from chat.models import Message, ModelCall, Run, Thread, ToolCall
from guardrails.models import GuardrailEvent, ReturnApproval
from orders.models import Return
from orders.validation import ORDER_ID_PATTERN, email_normalise, order_id_normalise

PREVIEW_CHARS = 80
# Tools whose success proves the customer knows the order id + email pair (as guardrails/state.py reads them).
VERIFYING_TOOLS = ("lookup_order", "check_return_eligibility", "initiate_return")
REFUSAL_PREFIX = REFUSAL_TEMPLATE.split("{topic}")[0]
_ORDER_ID = re.compile(rf"^{ORDER_ID_PATTERN}$")


def _verified_calls() -> QuerySet[ToolCall]:
    return ToolCall.objects.filter(run__thread_id=OuterRef("pk"), is_error=False, name__in=VERIFYING_TOOLS)


def _message_preview(*, last: bool) -> Subquery:
    messages = Message.objects.filter(thread_id=OuterRef("pk")).order_by("-seq" if last else "seq")
    return Subquery(messages.annotate(preview=Substr("content", 1, PREVIEW_CHARS)).values("preview")[:1])


# Why a thread needs a person: key -> (label, condition on Thread). Add a reason here and the
# queue filter, the "attention" column and the dashboard pick it up.
NEEDS_PERSON: dict[str, tuple[str, Callable[[], Expression]]] = {
    "flagged": ("Flagged by staff", lambda: ExpressionWrapper(Q(flagged=True), output_field=BooleanField())),
    "handoff": (
        "Handed to a person",
        lambda: ExpressionWrapper(Q(handed_off_at__isnull=False), output_field=BooleanField()),
    ),
    "approval_pending": (
        "A return waits for staff approval",
        lambda: Exists(ReturnApproval.objects.filter(thread_id=OuterRef("pk"), status=ReturnApproval.Status.PENDING)),
    ),
    "failed_run": (
        "A turn failed",
        lambda: Exists(Run.objects.filter(thread_id=OuterRef("pk"), status=Run.Status.FAILED)),
    ),
    "fallback": (
        "A reply was replaced by the fallback",
        lambda: Exists(Run.objects.filter(thread_id=OuterRef("pk"), ending="fallback")),
    ),
    "l0_finding": (
        "L0 found something in the input",
        lambda: Exists(GuardrailEvent.objects.filter(thread_id=OuterRef("pk"), layer=GuardrailEvent.Layer.INPUT)),
    ),
}


def needs_person_condition(reason: str | None = None) -> Q:
    """Threads for one reason, or (no reason) unreviewed threads with any reason."""
    if reason is not None:
        return Q(NEEDS_PERSON[reason][1]())
    any_reason = Q()
    for _, condition in NEEDS_PERSON.values():
        any_reason |= Q(condition())
    return any_reason & Q(reviewed=False)


def threads_for_queue(queryset: QuerySet[Thread]) -> QuerySet[Thread]:
    """The thread list's columns as annotations: verified email, order, previews, attention flags."""
    return queryset.annotate(
        customer_email=Subquery(_verified_calls().order_by("id").values(email=KT("input__customer_email"))[:1]),
        order_id=Subquery(
            ToolCall.objects.filter(run__thread_id=OuterRef("pk"), input__has_key="order_id")
            .order_by("-id")
            .values(order=KT("input__order_id"))[:1]
        ),
        first_message=_message_preview(last=False),
        last_message=_message_preview(last=True),
        **{f"needs_{key}": condition() for key, (_, condition) in NEEDS_PERSON.items()},
    )


def thread_attention(thread: Thread) -> list[str]:
    """Labels of the reasons this (annotated) thread needs a person."""
    return [label for key, (label, _) in NEEDS_PERSON.items() if getattr(thread, f"needs_{key}", False)]


def threads_search(queryset: QuerySet[Thread], term: str) -> QuerySet[Thread]:
    """Threads matching a customer email (verified in the thread), an order id, an id, or words said."""
    term = term.strip()
    if not term:
        return queryset
    matches = Exists(Message.objects.filter(thread_id=OuterRef("pk"), content__icontains=term))
    if "@" in term:
        matches |= Exists(
            ToolCall.objects.filter(
                run__thread_id=OuterRef("pk"),
                is_error=False,
                name__in=VERIFYING_TOOLS,
                input__customer_email=email_normalise(term),
            )
        )
    order_id = order_id_normalise(term)
    if _ORDER_ID.match(order_id):
        matches |= Exists(ToolCall.objects.filter(run__thread_id=OuterRef("pk"), input__order_id=order_id))
    with contextlib.suppress(ValueError):
        matches |= Q(pk=uuid.UUID(term))
    return queryset.filter(matches)


def threads_about_order(order_id: str) -> QuerySet[Thread]:
    """Threads whose tool calls named this order (the chats about it)."""
    mentions = ToolCall.objects.filter(run__thread_id=OuterRef("pk"), input__order_id=order_id)
    return Thread.objects.filter(Exists(mentions)).order_by("-updated_at")


# What proves a turn resolved something: key -> (label, condition on Run). The dashboard counts
# each one and links to the run list filtered by the same condition.
EVIDENCE: dict[str, tuple[str, Callable[[], Q | Exists]]] = {
    "return_written": ("Return written", lambda: Exists(Return.objects.filter(run_id=OuterRef("pk")))),
    "order_status": (
        "Order status given",
        lambda: Exists(ToolCall.objects.filter(run_id=OuterRef("pk"), name="lookup_order", is_error=False)),
    ),
    "policy_quoted": (
        "Policy quoted",
        lambda: Exists(ToolCall.objects.filter(run_id=OuterRef("pk"), name="lookup_policy", is_error=False)),
    ),
    "refusal": ("Refused (off topic)", lambda: Q(assistant_message__content__startswith=REFUSAL_PREFIX)),
    "handoff": ("Handed to a person", lambda: Q(ending="handoff")),
}


@dataclass
class TurnRecord:
    """One customer message, what they saw back, and what happened in between (for staff)."""

    message: Message
    run: Run | None = None
    reply: Message | None = None
    tool_calls: list[ToolCall] = field(default_factory=list)
    events: list[GuardrailEvent] = field(default_factory=list)
    rejected_drafts: list[tuple[list[str], str]] = field(default_factory=list)  # (codes, draft text)


def thread_transcript(*, thread_id: uuid.UUID) -> list[TurnRecord]:
    """The conversation as the customer saw it, each turn with its run's record beside it (5 queries)."""
    messages = {message.pk: message for message in Message.objects.filter(thread_id=thread_id).order_by("seq")}
    runs = {run.user_message_id: run for run in Run.objects.filter(thread_id=thread_id)}
    turns: dict = {}
    records: list[TurnRecord] = []
    answers = {run.assistant_message_id for run in runs.values()}
    for message in messages.values():
        if message.pk in answers:
            continue
        run = runs.get(message.pk)
        record = TurnRecord(message=message, run=run, reply=messages.get(run.assistant_message_id) if run else None)
        records.append(record)
        if run:
            turns[run.pk] = record
    for call in ToolCall.objects.filter(run__thread_id=thread_id).order_by("id"):
        turns[call.run_id].tool_calls.append(call)
    for event in GuardrailEvent.objects.filter(thread_id=thread_id).order_by("created_at", "id"):
        if event.run_id in turns:
            turns[event.run_id].events.append(event)
    rejected = ModelCall.objects.filter(run__thread_id=thread_id).exclude(rejected_codes=[]).order_by("id")
    for call in rejected:
        draft = "\n".join(block.get("text", "") for block in call.response_content if block.get("type") == "text")
        turns[call.run_id].rejected_drafts.append((call.rejected_codes, draft))
    return records

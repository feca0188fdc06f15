"""The agent loop: one claimed run in, one reply, a pause for the customer, or a failure out.

Called by chat/services.py `run_execute` outside any transaction; calls chat/llm.py for
the model, chat/tools.py for tools and guardrails/ for every check, recording each step.
All guardrail calls are here, in the loop, not hidden inside tools or the model wrapper.
"""

import json
import logging
import time
from dataclasses import dataclass, field, replace

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from bookly_project.db import db_connection_release
from chat import notify, prompts
from chat.history import Transcript, tool_result_block, transcript_load
from chat.llm import Model, ModelError, get_model, quick_complete
from chat.models import ModelCall, Run, Thread, ToolCall
from chat.progress import progress_for_tools
from chat.tools import REPLY_TOOL, TOOLS, ToolContext, ToolOutcome, tool_apply, tool_execute, tool_schemas
from guardrails import services as guardrails
from guardrails.checks import check_effect, check_tool_call
from guardrails.models import GuardrailEvent, GuardrailPolicy, PendingAction
from guardrails.output import OFF_TOPIC, OFF_TOPIC_UNSURE, Grounding, check_reply, refusal_topic
from guardrails.screening import (
    UNTRUSTED_FINDINGS_KEY,
    check_input,
    mark_untrusted,
)
from guardrails.state import LazyGuardState
from guardrails.verdict import Verdict
from orders.models import Order
from orders.policy import POLICY_TEXTS, REFUND_TIMELINE, RETURN_LABEL_INSTRUCTIONS
from orders.services import ReturnEffect, order_eligibility

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TurnOutcome:
    """How a turn ended. `reply` is what the customer will see when it completed."""

    status: str  # one of Run.Status: completed, requires_action, failed, cancelled
    reply: str = ""
    error_code: str = ""
    error_message: str = ""
    # Why a completed turn stopped (end_turn, handoff, fallback, max_iterations, max_tokens, refusal, ...).
    ending: str = "end_turn"
    handoff_reason: str = ""  # with ending "handoff": a Thread.HandoffReason (default: the model asked)
    blocked: int = 0  # tool calls a guardrail refused in this turn (repeated blocks count as a failure)


# Refusals that say "not now" about the model's own bookkeeping, not a failure to help the customer.
BLOCKS_NOT_FAILURES = ("confirmation_pending", "reply_not_alone")


class RunCancelled(Exception):
    pass


@dataclass(frozen=True)
class Turn:
    """What every step of one turn needs to know."""

    run: Run
    model: Model
    policy: GuardrailPolicy
    context: ToolContext
    transcript: Transcript
    # (name, result) of the tool calls this turn recorded, as the database returns them: with the
    # transcript's, every tool result of the thread, which L4 grounds the reply in.
    recorded: list[tuple[str, dict]] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)  # codes of the tool calls a guardrail refused


def _heartbeat(run: Run, *, progress: str = "", **usage: int) -> None:
    """Record liveness, usage and the customer-visible step on the run; raise RunCancelled if cancelled.

    The step rides on the UPDATE every model call makes anyway, so showing it costs no statement;
    long-pollers are woken to fetch it.
    """
    updates: dict = {name: F(name) + value for name, value in usage.items() if value}
    if progress:
        updates["progress"] = progress
    updated = Run.objects.filter(
        id=run.id, status=Run.Status.IN_PROGRESS, attempts=run.attempts, cancel_requested=False
    ).update(heartbeat_at=timezone.now(), **updates)
    if not updated:
        raise RunCancelled()
    if progress:
        notify.run_changed(run.id)


def _usage(response: dict) -> dict[str, int]:
    usage = response.get("usage") or {}
    return {
        "input_tokens": usage.get("input_tokens") or 0,
        "output_tokens": usage.get("output_tokens") or 0,
        "cache_write_tokens": usage.get("cache_creation_input_tokens") or 0,
        "cache_read_tokens": usage.get("cache_read_input_tokens") or 0,
    }


def _final_text(content: list[dict]) -> str:
    return "\n".join(block["text"] for block in content if block.get("type") == "text").strip()


def run_turn(run: Run, *, model: Model | None = None) -> TurnOutcome:
    """Run the tool-use loop for a claimed run. Raises nothing the caller must handle but bugs."""
    turn = Turn(
        run=run,
        model=model or get_model(),
        policy=guardrails.policy_current(),
        context=ToolContext(thread_id=run.thread_id, run_id=run.id),
        transcript=transcript_load(run),
    )
    try:
        return replace(_loop(turn), blocked=len(turn.blocked))
    except RunCancelled:
        return TurnOutcome(status=Run.Status.CANCELLED, error_code="cancelled", error_message="The run was cancelled.")


def _bounds_reached(turn: Turn) -> TurnOutcome | None:
    """Thread-level bounds, checked before any model call: they end the conversation politely."""
    if turn.transcript.turns > turn.policy.turns_per_thread:
        return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_TURN_LIMIT, ending="turn_limit")
    if turn.transcript.tokens >= settings.THREAD_TOKEN_BUDGET:
        return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_TOKEN_BUDGET, ending="token_budget")
    return None


def _loop(turn: Turn) -> TurnOutcome:
    run, model = turn.run, turn.model
    ended = _bounds_reached(turn)
    if ended is not None:
        return ended
    messages = turn.transcript.messages
    iteration = turn.transcript.iteration
    deadline = time.monotonic() + settings.RUN_DEADLINE_SECONDS
    suspicious = _screen_input(turn, first_attempt=iteration == 0)
    reanchor = suspicious or len(messages) >= prompts.REANCHOR_AFTER_MESSAGES
    # L1 is cached; the L2 reminder sits after the cache breakpoint so it never breaks the cached prefix.
    system = [*prompts.system_blocks(), {**prompts.reminder_block(reanchor=reanchor), "bookly_uncached": True}]

    while iteration < settings.AGENT_MAX_ITERATIONS:
        if time.monotonic() > deadline:
            return TurnOutcome(status=Run.Status.FAILED, error_code="timeout", error_message="The reply took too long.")
        request = {
            "model": model.name,
            "max_tokens": settings.MODEL_MAX_TOKENS,
            "system": system,
            "tools": tool_schemas(),
            # Every response is a tool call, so every turn ends through send_reply. Constant on every
            # call: a changed tool_choice would invalidate the cached messages.
            "tool_choice": {"type": "any"},
            "messages": messages,
        }
        db_connection_release()
        started = time.monotonic()
        try:
            response = model.complete(request, deadline=deadline)
        except ModelError as error:
            ModelCall.objects.create(
                run=run,
                iteration=iteration,
                model=model.name,
                error_code=error.code,
                latency_ms=int((time.monotonic() - started) * 1000),
            )
            return TurnOutcome(status=Run.Status.FAILED, error_code=error.code, error_message=error.message)
        latency_ms = int((time.monotonic() - started) * 1000)
        content = response.get("content") or []
        stop_reason = response.get("stop_reason") or ""
        usage = _usage(response)
        model_call = ModelCall.objects.create(
            run=run,
            iteration=iteration,
            model=response.get("model") or model.name,
            response_content=content,
            stop_reason=stop_reason,
            latency_ms=latency_ms,
            **usage,
        )
        tool_uses = [block for block in content if block.get("type") == "tool_use"]
        step = progress_for_tools(tool_uses) if stop_reason == "tool_use" else ""
        _heartbeat(run, progress=step, **usage)  # also where a cancellation takes effect, before any tool runs
        iteration += 1

        if stop_reason == "pause_turn":
            # The API paused a long turn; sending its content back lets the model continue.
            messages.append({"role": "assistant", "content": content})
            continue
        replies = [block for block in tool_uses if block.get("name") == REPLY_TOOL]
        if replies and stop_reason != "max_tokens":
            ended = _reply_step(turn, model_call, tool_uses)
            if isinstance(ended, TurnOutcome):
                return ended
            messages.append({"role": "assistant", "content": content})
            messages.append({"role": "user", "content": ended})
            continue
        if stop_reason == "tool_use" and tool_uses:
            results, paused = _run_tools(turn, model_call, tool_uses)
            if paused:
                return TurnOutcome(status=Run.Status.REQUIRES_ACTION, ending="confirmation_required")
            messages.append({"role": "assistant", "content": content})
            messages.append({"role": "user", "content": results})
            continue
        if stop_reason == "max_tokens":
            return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_TRUNCATED, ending="max_tokens")
        if stop_reason == "refusal":
            return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_MODEL_REFUSED, ending="refusal")
        reply = _final_text(content)
        if not reply:
            return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_TOO_MANY_STEPS, ending="empty")
        # A plain-text ending (a misbehaving model, an old transcript): intent unknown, same checks.
        return _finish(turn, model_call, reply, intent=None)

    return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_TOO_MANY_STEPS, ending="max_iterations")


# --- The reply step ---------------------------------------------------------------------------

REPLY_NOT_ALONE = (
    "Not run: send_reply ends the turn, so it must be the only tool call in its response. Call the other tools "
    "first, read their results, then call send_reply on its own."
)


def _reply_step(turn: Turn, model_call: ModelCall, tool_uses: list[dict]) -> TurnOutcome | list[dict]:
    """End the turn through send_reply, or return the error results that send the model back to try again.

    A send_reply next to other tool calls is refused as a whole (none of them runs): the reply was
    written before those results existed, so it could not rest on them.
    """
    started = time.monotonic()
    if len(tool_uses) > 1:
        refusal = Verdict.deny("reply_not_alone", detail=REPLY_NOT_ALONE)
        return [_refused(turn, model_call, block, refusal, stage="stage1", started=started) for block in tool_uses]
    block = tool_uses[0]
    outcome = tool_execute(REPLY_TOOL, _arguments(block), turn.context)
    if outcome.is_error:
        return [_record(turn, model_call, block, outcome, started=started)[1]]
    intent, message = outcome.result["intent"], outcome.result["message"]
    if intent == "out_of_scope":
        # The server writes the refusal: the model's message is discarded, its topic used only if plain words.
        topic = refusal_topic(outcome.result["topic"])
        return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REFUSAL_TEMPLATE.format(topic=topic))
    if intent == "handoff":
        return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_HANDOFF, ending="handoff")
    return _finish(turn, model_call, message, intent=intent)


def _finish(turn: Turn, model_call: ModelCall, reply: str, *, intent: str | None) -> TurnOutcome:
    """L4 on the final reply: the fallback if it is refused; through, and the thread flagged, if it is only unsure."""
    verdict = _check_reply(turn, reply, intent)
    if OFF_TOPIC_UNSURE in verdict.codes and verdict.allowed and _second_opinion_enabled():
        verdict = _with_second_opinion(turn, reply, verdict)
    if not verdict.allowed:
        # The draft stays on its ModelCall for staff; history never replays it to the model.
        ModelCall.objects.filter(id=model_call.id).update(rejected_codes=list(verdict.codes))
        _event(
            turn,
            GuardrailEvent.Layer.OUTPUT,
            "reply",
            verdict.code,
            GuardrailEvent.Action.FALLBACK,
            detail=verdict.detail or ", ".join(verdict.codes),
        )
        return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_FALLBACK, ending="fallback")
    if verdict.flagged:
        # Unsure is not a reason to withhold an answer: the customer gets it, staff get a look.
        Thread.objects.filter(id=turn.run.thread_id).update(flagged=True)
        _event(
            turn,
            GuardrailEvent.Layer.OUTPUT,
            "reply",
            verdict.code,
            GuardrailEvent.Action.RECORDED,
            detail=verdict.detail,
        )
    return TurnOutcome(status=Run.Status.COMPLETED, reply=reply)


# --- L0 and L4 ----------------------------------------------------------------------------------


def _screen_input(turn: Turn, *, first_attempt: bool) -> bool:
    """L0 on the customer's message: record what it finds; True if the thread looks under attack."""
    run = turn.run
    screening = check_input(run.user_message.content)
    if first_attempt:
        for finding in screening.findings:
            _event(turn, GuardrailEvent.Layer.INPUT, "input", finding, GuardrailEvent.Action.RECORDED)
    # An earlier attempt in the thread keeps the reminders raised for the rest of it. Read with
    # the transcript, before this turn recorded anything: its own findings are `suspicious`.
    return screening.suspicious or turn.transcript.injection_seen


def _second_opinion_enabled() -> bool:
    return settings.BOOKLY_LLM == "anthropic" and bool(settings.L4_SECOND_OPINION_MODEL)


def _with_second_opinion(turn: Turn, reply: str, verdict: Verdict) -> Verdict:
    """Ask a small model about an unsure reply: OFF_TOPIC blocks it, ON_TOPIC clears the doubt.

    No answer (timeout, error) keeps the flag: the reply goes through. The question and its answer are
    a ModelCall of the run (purpose second_opinion), never replayed to the agent.
    """
    request = {
        "model": settings.L4_SECOND_OPINION_MODEL,
        "max_tokens": settings.L4_SECOND_OPINION_MAX_TOKENS,
        "system": prompts.SECOND_OPINION_SYSTEM,
        "messages": prompts.second_opinion_messages(reply),
    }
    db_connection_release()
    started = time.monotonic()
    try:
        response = quick_complete(request, timeout=settings.L4_SECOND_OPINION_TIMEOUT_SECONDS)
    except ModelError as error:
        ModelCall.objects.create(
            run=turn.run,
            purpose=ModelCall.Purpose.SECOND_OPINION,
            iteration=0,
            model=settings.L4_SECOND_OPINION_MODEL,
            error_code=error.code,
            latency_ms=int((time.monotonic() - started) * 1000),
        )
        return Verdict.flag(*verdict.codes, detail=f"{verdict.detail}; second opinion: none ({error.code})")
    usage = _usage(response)
    content = response.get("content") or []
    answer = _final_text(content).strip().upper()
    ModelCall.objects.create(
        run=turn.run,
        purpose=ModelCall.Purpose.SECOND_OPINION,
        iteration=0,
        model=response.get("model") or settings.L4_SECOND_OPINION_MODEL,
        response_content=content,
        stop_reason=response.get("stop_reason") or "",
        latency_ms=int((time.monotonic() - started) * 1000),
        **usage,
    )
    _heartbeat(turn.run, **usage)
    if answer.startswith("OFF_TOPIC"):
        return Verdict.deny(OFF_TOPIC, detail=f"off_topic: second opinion after {verdict.detail}")
    remaining = tuple(code for code in verdict.codes if code != OFF_TOPIC_UNSURE)
    if answer.startswith("ON_TOPIC"):
        if not remaining:
            return Verdict.allow()
        return Verdict.flag(*remaining, detail=f"{verdict.detail}; second opinion: on topic")
    return Verdict.flag(*verdict.codes, detail=f"{verdict.detail}; second opinion: unreadable answer")


def _check_reply(turn: Turn, reply: str, intent: str | None) -> Verdict:
    """L4: every fact in the reply grounded in this thread's tool results, the customer's identifiers or policy."""
    grounding = Grounding.from_sources(
        tool_results=[*turn.transcript.tool_results, *turn.recorded],
        customer_texts=turn.transcript.customer_texts,
        policy_texts=[*POLICY_TEXTS.values(), RETURN_LABEL_INSTRUCTIONS, REFUND_TIMELINE],
        today=timezone.localdate(),
    )
    return check_reply(
        reply,
        grounding=grounding,
        refusal_template=prompts.REFUSAL_TEMPLATE,
        prompt_fragments=prompts.prompt_fragments(),
        intent=intent,
    )


# --- Tools, with the two-stage check -----------------------------------------------------------


WAITING_FOR_CUSTOMER = "Not run: another action in this response is waiting for the customer's confirmation."


def _run_tools(turn: Turn, model_call: ModelCall, tool_uses: list[dict]) -> tuple[list[dict], bool]:
    """Run a response's tool_use blocks in order; stop running them once one waits for the customer."""
    results: list[dict] = []
    paused = False
    for block in tool_uses:
        if paused:
            _refused(
                turn,
                model_call,
                block,
                Verdict.deny("confirmation_pending", detail=WAITING_FOR_CUSTOMER),
                stage="stage1",
                started=time.monotonic(),
            )
            continue
        result = _run_tool(turn, model_call, block)
        if isinstance(result, PendingAction):
            paused = True
        else:
            results.append(result)
    return results, paused


def _arguments(block: dict) -> dict:
    return block["input"] if isinstance(block.get("input"), dict) else {}


def _run_tool(turn: Turn, model_call: ModelCall, block: dict) -> dict | PendingAction:
    """Stage 1 → execute → (mutating) compute effect → stage 2 → pause for the customer, or apply."""
    started = time.monotonic()
    name, arguments = str(block.get("name", ""))[:64], _arguments(block)
    state = LazyGuardState(thread_id=turn.run.thread_id)  # read only if stage 1 looks at it
    verdict = check_tool_call(name=name, arguments=arguments, state=state, policy=turn.policy)
    if not verdict.allowed:
        return _refused(turn, model_call, block, verdict, stage="stage1", started=started)

    outcome = tool_execute(name, arguments, turn.context)
    tool = TOOLS.get(name)
    if tool is not None and tool.mutating and not outcome.is_error:
        effect = outcome.effect
        verdict, prices = effect_check(effect, turn.policy)
        if not verdict.allowed:
            return _refused(turn, model_call, block, verdict, stage="stage2", started=started)
        # A return a person must approve is always confirmed by the customer first.
        if verdict.needs_confirmation or guardrails.staff_approval_rule(effect, turn.policy):
            action = guardrails.pending_action_create(
                run=turn.run,
                model_call=model_call,
                tool_use_id=block["id"],
                tool_name=name,
                arguments=arguments,
                effect=effect,
                preview=guardrails.return_preview(effect, prices),
            )
            _event(
                turn,
                GuardrailEvent.Layer.TOOLS,
                "stage2",
                "confirmation_required",
                GuardrailEvent.Action.CONFIRMATION_REQUIRED,
                tool_name=name,
            )
            return action
        # The Return and the transcript row that tells the model about it commit together,
        # so a crash in between can never leave the model told that nothing happened.
        with transaction.atomic():
            outcome = tool_apply(name, effect.as_dict(), turn.context)
            return _record(turn, model_call, block, outcome, started=started)[1]
    return _record(turn, model_call, block, outcome, started=started)[1]


def effect_check(effect: ReturnEffect, policy: GuardrailPolicy) -> tuple[Verdict, dict]:
    """Stage 2 against the order as it is now; also returns item prices for the preview."""
    order = Order.objects.prefetch_related("items").filter(order_id=effect.order_id).first()
    if order is None:
        return Verdict.deny("item_not_in_order", detail="The order no longer exists."), {}
    verdict = check_effect(effect=effect, eligibility=order_eligibility(order=order), policy=policy)
    return verdict, {item.id: item.price for item in order.items.all()}


def _event(turn: Turn, layer: str, stage: str, code: str, action: str, **extra) -> None:
    """Record a guardrail decision of this turn under the policy version in force."""
    guardrails.event_record(
        layer=layer,
        stage=stage,
        code=code,
        action=action,
        thread_id=turn.run.thread_id,
        run_id=turn.run.id,
        policy_version=turn.policy.version,
        **extra,
    )


def _refused(turn: Turn, model_call: ModelCall, block: dict, verdict: Verdict, *, stage: str, started: float) -> dict:
    outcome = ToolOutcome(
        {"error": {"code": verdict.code, "message": verdict.detail}}, is_error=True, code=verdict.code
    )
    tool_call, result = _record(turn, model_call, block, outcome, started=started, guardrail_code=verdict.code)
    if verdict.code not in BLOCKS_NOT_FAILURES:
        turn.blocked.append(verdict.code)
    _event(
        turn,
        GuardrailEvent.Layer.TOOLS,
        stage,
        verdict.code,
        GuardrailEvent.Action.BLOCKED,
        tool_name=tool_call.name,
        tool_call=tool_call,
    )
    return result


def _record(
    turn: Turn, model_call: ModelCall, block: dict, outcome: ToolOutcome, *, started: float, guardrail_code: str = ""
) -> tuple[ToolCall, dict]:
    """Store the tool call (people-typed text in its result marked as data) and build its tool_result block."""
    marked = mark_untrusted(outcome.result)
    tool_call = tool_call_record(
        run=turn.run,
        model_call=model_call,
        tool_use_id=block["id"],
        name=str(block.get("name", ""))[:64],
        arguments=_arguments(block),
        outcome=replace(outcome, result=marked),
        guardrail_code=guardrail_code,
        duration_ms=int((time.monotonic() - started) * 1000),
    )
    # What the JSON column gives back, so L4 sees this result exactly as a later turn will.
    turn.recorded.append((tool_call.name, json.loads(json.dumps(tool_call.result))))
    for path, findings in marked.get(UNTRUSTED_FINDINGS_KEY, {}).items():
        for finding in findings:
            _event(
                turn,
                GuardrailEvent.Layer.INPUT,
                "tool_result",
                finding,
                GuardrailEvent.Action.RECORDED,
                tool_name=tool_call.name,
                tool_call=tool_call,
                detail=f"in {path}"[:500],
            )
    return tool_call, tool_result_block(block["id"], marked, is_error=outcome.is_error)


def tool_call_record(
    *,
    run: Run,
    model_call: ModelCall,
    tool_use_id: str,
    name: str,
    arguments: dict,
    outcome: ToolOutcome,
    guardrail_code: str = "",
    duration_ms: int = 0,
) -> ToolCall:
    """The transcript row for one tool_use; its result is what the model is told."""
    return ToolCall.objects.create(
        run=run,
        model_call=model_call,
        tool_use_id=tool_use_id,
        name=name,
        input=arguments,
        result=outcome.result,
        is_error=outcome.is_error,
        guardrail_code=guardrail_code,
        duration_ms=duration_ms,
    )

"""The agent loop: one claimed run in, one reply, a pause for the customer, or a failure out.

Called by chat/runs.py `run_execute` outside any transaction. Each pass has four steps: call the
model (chat/agent/llm.py), record its response, run its tools with both guardrail stages
(chat/agent/tools.py, guardrails/checks.py), or finish the reply (chat/agent/reply.py). All
guardrail calls are visible here and in the reply step, not hidden inside tools or the model client.
"""

import logging
import time
from dataclasses import replace

from django.conf import settings
from django.db import transaction

from bookly_project.db import db_connection_release
from chat.agent import prompts
from chat.agent.llm import UNCACHED_MARKER, Model, ModelError, get_model
from chat.agent.reply import asks_to_reply, reply_end
from chat.agent.steps import (
    RunCancelled,
    Turn,
    TurnOutcome,
    heartbeat,
    tool_arguments,
    tool_recorded,
    tool_refused,
    turn_event,
    usage_of,
)
from chat.agent.tools import TOOLS, ToolContext, tool_apply, tool_execute, tool_schemas
from chat.guard_state import LazyGuardState
from chat.models import ModelCall, Run
from chat.progress import progress_for_tools
from chat.transcript import transcript_load
from guardrails import services as guardrails
from guardrails.checks import check_tool_call, effect_check
from guardrails.models import GuardrailEvent, PendingAction
from guardrails.screening import (
    check_input,
)
from guardrails.verdict import Verdict

logger = logging.getLogger(__name__)


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
    """Until a reply ends the turn: call the model, record its response, then run its tools or finish the reply."""
    ended = _bounds_reached(turn)
    if ended is not None:
        return ended
    messages = turn.transcript.messages
    iteration = turn.transcript.iteration
    deadline = time.monotonic() + settings.RUN_DEADLINE_SECONDS
    system = _system(turn, first_attempt=iteration == 0)

    while iteration < settings.AGENT_MAX_ITERATIONS:
        if time.monotonic() > deadline:
            return TurnOutcome(status=Run.Status.FAILED, error_code="timeout", error_message="The reply took too long.")
        called = _call_model(turn, system, messages, iteration=iteration, deadline=deadline)
        if isinstance(called, TurnOutcome):
            return called
        model_call, tool_uses = _record_response(turn, *called, iteration=iteration)
        iteration += 1
        said = {"role": "assistant", "content": model_call.response_content}
        if model_call.stop_reason == "pause_turn":
            # The API paused a long turn; sending its content back lets the model continue.
            messages.append(said)
            continue
        if model_call.stop_reason == "tool_use" and tool_uses and not asks_to_reply(tool_uses):
            results, paused = _run_tools(turn, model_call, tool_uses)
            if paused:
                return TurnOutcome(status=Run.Status.REQUIRES_ACTION, ending="confirmation_required")
            messages += [said, {"role": "user", "content": results}]
            continue
        ended = reply_end(turn, model_call, tool_uses)
        if isinstance(ended, TurnOutcome):
            return ended
        messages += [said, {"role": "user", "content": ended}]  # a refused send_reply: the model tries again

    return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_TOO_MANY_STEPS, ending="max_iterations")


def _system(turn: Turn, *, first_attempt: bool) -> list[dict]:
    """L1 and the L2 reminder, raised when L0 found something in this thread or the thread is long."""
    suspicious = _screen_input(turn, first_attempt=first_attempt)
    reanchor = suspicious or len(turn.transcript.messages) >= prompts.REANCHOR_AFTER_MESSAGES
    # L1 is cached; the L2 reminder sits after the cache breakpoint so it never breaks the cached prefix.
    return [*prompts.system_blocks(), {**prompts.reminder_block(reanchor=reanchor), UNCACHED_MARKER: True}]


def _call_model(
    turn: Turn, system: list[dict], messages: list[dict], *, iteration: int, deadline: float
) -> tuple[dict, int] | TurnOutcome:
    """Step 1: one model request (response, latency in ms); the connection goes back to the pool meanwhile."""
    request = {
        "model": turn.model.name,
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
        response = turn.model.complete(request, deadline=deadline)
    except ModelError as error:
        ModelCall.objects.create(
            run=turn.run,
            iteration=iteration,
            model=turn.model.name,
            error_code=error.code,
            latency_ms=int((time.monotonic() - started) * 1000),
        )
        return TurnOutcome(status=Run.Status.FAILED, error_code=error.code, error_message=error.message)
    return response, int((time.monotonic() - started) * 1000)


def _record_response(turn: Turn, response: dict, latency_ms: int, *, iteration: int) -> tuple[ModelCall, list[dict]]:
    """Step 2: the ModelCall row, and the run's heartbeat with its usage; returns the call and its tool_use blocks."""
    content = response.get("content") or []
    stop_reason = response.get("stop_reason") or ""
    usage = usage_of(response)
    model_call = ModelCall.objects.create(
        run=turn.run,
        iteration=iteration,
        model=response.get("model") or turn.model.name,
        response_content=content,
        stop_reason=stop_reason,
        latency_ms=latency_ms,
        **usage,
    )
    tool_uses = [block for block in content if block.get("type") == "tool_use"]
    step = progress_for_tools(tool_uses) if stop_reason == "tool_use" else ""
    heartbeat(turn.run, progress=step, **usage)  # also where a cancellation takes effect, before any tool runs
    return model_call, tool_uses


# --- L0 ----------------------------------------------------------------------------------------


def _screen_input(turn: Turn, *, first_attempt: bool) -> bool:
    """L0 on the customer's message: record what it finds; True if the thread looks under attack."""
    run = turn.run
    screening = check_input(run.user_message.content)
    if first_attempt:
        for finding in screening.findings:
            turn_event(turn, GuardrailEvent.Layer.INPUT, "input", finding, GuardrailEvent.Action.RECORDED)
    # An earlier attempt in the thread keeps the reminders raised for the rest of it. Read with
    # the transcript, before this turn recorded anything: its own findings are `suspicious`.
    return screening.suspicious or turn.transcript.injection_seen


# --- Tools, with the two-stage check -----------------------------------------------------------


WAITING_FOR_CUSTOMER = "Not run: another action in this response is waiting for the customer's confirmation."


def _run_tools(turn: Turn, model_call: ModelCall, tool_uses: list[dict]) -> tuple[list[dict], bool]:
    """Run a response's tool_use blocks in order; stop running them once one waits for the customer."""
    results: list[dict] = []
    paused = False
    for block in tool_uses:
        if paused:
            tool_refused(
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


def _run_tool(turn: Turn, model_call: ModelCall, block: dict) -> dict | PendingAction:
    """Stage 1 → execute → (mutating) compute effect → stage 2 → pause for the customer, or apply."""
    started = time.monotonic()
    name, arguments = str(block.get("name", ""))[:64], tool_arguments(block)
    state = LazyGuardState(thread_id=turn.run.thread_id)  # read only if stage 1 looks at it
    verdict = check_tool_call(name=name, arguments=arguments, state=state, policy=turn.policy)
    if not verdict.allowed:
        return tool_refused(turn, model_call, block, verdict, stage="stage1", started=started)

    outcome = tool_execute(name, arguments, turn.context)
    tool = TOOLS.get(name)
    if tool is not None and tool.mutating and not outcome.is_error:
        effect = outcome.effect
        verdict, prices = effect_check(effect, turn.policy)
        if not verdict.allowed:
            return tool_refused(turn, model_call, block, verdict, stage="stage2", started=started)
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
            turn_event(
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
            return tool_recorded(turn, model_call, block, outcome, started=started)[1]
    return tool_recorded(turn, model_call, block, outcome, started=started)[1]

"""The agent loop: one claimed run in, one reply (or a failure) out.

Called by chat/services.py `run_execute` outside any transaction; calls chat/llm.py for
the model and chat/tools.py for tools, recording every step. Guardrail layers plug in
at the marked points so they stay visible in the loop.
"""

import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from bookly_project.db import db_connection_release
from chat import prompts
from chat.history import history_build, tool_result_block
from chat.llm import Model, ModelError, get_model
from chat.models import ModelCall, Run, ToolCall
from chat.tools import ToolContext, tool_execute, tool_schemas

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TurnOutcome:
    """How a turn ended. `reply` is what the customer will see when it completed."""

    status: str  # one of Run.Status: completed, failed, cancelled
    reply: str = ""
    error_code: str = ""
    error_message: str = ""
    ending: str = "end_turn"  # why a completed turn stopped (end_turn, max_iterations, max_tokens, refusal)


class RunCancelled(Exception):
    pass


def _heartbeat(run: Run, **usage: int) -> None:
    """Record progress (and usage) on the run; raise RunCancelled if the customer cancelled it."""
    updates = {name: F(name) + value for name, value in usage.items() if value}
    updated = Run.objects.filter(
        id=run.id, status=Run.Status.IN_PROGRESS, attempts=run.attempts, cancel_requested=False
    ).update(heartbeat_at=timezone.now(), **updates)
    if not updated:
        raise RunCancelled()


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
    model = model or get_model()
    try:
        return _loop(run, model)
    except RunCancelled:
        return TurnOutcome(status=Run.Status.CANCELLED, error_code="cancelled", error_message="The run was cancelled.")


def _loop(run: Run, model: Model) -> TurnOutcome:
    messages = history_build(run)
    iteration = ModelCall.objects.filter(run=run).count()
    deadline = time.monotonic() + settings.RUN_DEADLINE_SECONDS
    context = ToolContext(thread_id=run.thread_id, run_id=run.id)
    # Seam (L0): screen the customer's input here before any model call.

    while iteration < settings.AGENT_MAX_ITERATIONS:
        if time.monotonic() > deadline:
            return TurnOutcome(status=Run.Status.FAILED, error_code="timeout", error_message="The reply took too long.")
        _heartbeat(run)
        request = {
            "model": model.name,
            "max_tokens": settings.MODEL_MAX_TOKENS,
            "system": prompts.SYSTEM_PROMPT,  # Seam (L1/L2): prompt and reminders.
            "tools": tool_schemas(),
            "messages": messages,
        }
        db_connection_release()
        started = time.monotonic()
        try:
            response = model.complete(request)
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
        _heartbeat(run, **usage)
        iteration += 1

        tool_uses = [block for block in content if block.get("type") == "tool_use"]
        if stop_reason == "tool_use" and tool_uses:
            messages.append({"role": "assistant", "content": content})
            messages.append(
                {"role": "user", "content": [_run_tool(run, model_call, block, context) for block in tool_uses]}
            )
            continue
        if stop_reason == "max_tokens":
            return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_TRUNCATED, ending="max_tokens")
        if stop_reason == "refusal":
            return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_MODEL_REFUSED, ending="refusal")
        # Seam (L4): validate the final reply here.
        reply = _final_text(content)
        if not reply:
            return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_TOO_MANY_STEPS, ending="empty")
        return TurnOutcome(status=Run.Status.COMPLETED, reply=reply)

    return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_TOO_MANY_STEPS, ending="max_iterations")


def _run_tool(run: Run, model_call: ModelCall, block: dict, context: ToolContext) -> dict:
    """Execute one tool_use (seam for L3 stage 1/2 checks) and record it."""
    started = time.monotonic()
    outcome = tool_execute(block.get("name", ""), block.get("input"), context)
    ToolCall.objects.create(
        run=run,
        model_call=model_call,
        tool_use_id=block["id"],
        name=str(block.get("name", ""))[:64],
        input=block.get("input") if isinstance(block.get("input"), dict) else {},
        result=outcome.result,
        is_error=outcome.is_error,
        guardrail_code="",
        duration_ms=int((time.monotonic() - started) * 1000),
    )
    return tool_result_block(block["id"], outcome.result, is_error=outcome.is_error)

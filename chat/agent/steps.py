"""What every step of one turn shares: the Turn, how it ends, and recording what happened.

Used by chat/agent/loop.py (the tool-use loop) and chat/agent/reply.py (the reply step): the
heartbeat that also carries a cancellation, guardrail events of the turn, and the ToolCall row
plus tool_result block of each tool_use.
"""

import json
import time
from dataclasses import dataclass, field

from django.db import connection
from django.utils import timezone

from chat import notify
from chat.agent.llm import Model
from chat.agent.tools import ToolContext, ToolOutcome
from chat.models import ModelCall, Run, ToolCall
from chat.transcript import Transcript, tool_call_record, tool_result_block
from guardrails import services as guardrails
from guardrails.models import GuardrailEvent, GuardrailPolicy
from guardrails.screening import UNTRUSTED_FINDINGS_KEY
from guardrails.verdict import Verdict

# Refusals that say "not now" about the model's own bookkeeping, not a failure to help the customer.
BLOCKS_NOT_FAILURES = ("confirmation_pending", "reply_not_alone")


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


# The heartbeat's UPDATE, written once: it is what `Run.objects.filter(id=…, status="in_progress",
# attempts=…, cancel_requested=False).update(heartbeat_at=…, <usage>=F(<usage>) + n, progress=…)`
# built on every model call, without building and compiling that query each time
# (docs/performance.md §9.6). Identifiers come from the model; every value is a parameter.
_HEARTBEAT_SQL = f"""
    UPDATE {Run._meta.db_table}
    SET heartbeat_at = %s, input_tokens = input_tokens + %s, output_tokens = output_tokens + %s,
        cache_write_tokens = cache_write_tokens + %s, cache_read_tokens = cache_read_tokens + %s,
        progress = CASE WHEN %s THEN %s ELSE progress END
    WHERE id = %s AND status = %s AND attempts = %s AND NOT cancel_requested
"""  # noqa: S608


def heartbeat(
    run: Run,
    *,
    progress: str = "",
    input_tokens: int = 0,
    output_tokens: int = 0,
    cache_write_tokens: int = 0,
    cache_read_tokens: int = 0,
) -> None:
    """Record liveness, usage and the customer-visible step on the run; raise RunCancelled if cancelled.

    The step rides on the UPDATE every model call makes anyway, so showing it costs no statement;
    long-pollers are woken to fetch it.
    """
    now = Run._meta.get_field("heartbeat_at").get_db_prep_value(timezone.now(), connection)
    usage = [input_tokens, output_tokens, cache_write_tokens, cache_read_tokens]
    with connection.cursor() as cursor:
        cursor.execute(
            _HEARTBEAT_SQL,
            [now, *usage, bool(progress), progress, run.id, Run.Status.IN_PROGRESS, run.attempts],
        )
        updated = cursor.rowcount
    if not updated:
        raise RunCancelled()
    if progress:
        notify.run_changed(run.id)


def usage_of(response: dict) -> dict[str, int]:
    usage = response.get("usage") or {}
    return {
        "input_tokens": usage.get("input_tokens") or 0,
        "output_tokens": usage.get("output_tokens") or 0,
        "cache_write_tokens": usage.get("cache_creation_input_tokens") or 0,
        "cache_read_tokens": usage.get("cache_read_input_tokens") or 0,
    }


def final_text(content: list[dict]) -> str:
    return "\n".join(block["text"] for block in content if block.get("type") == "text").strip()


def tool_arguments(block: dict) -> dict:
    return block["input"] if isinstance(block.get("input"), dict) else {}


def turn_event(turn: Turn, layer: str, stage: str, code: str, action: str, **extra) -> None:
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


def tool_refused(
    turn: Turn, model_call: ModelCall, block: dict, verdict: Verdict, *, stage: str, started: float
) -> dict:
    outcome = ToolOutcome(
        {"error": {"code": verdict.code, "message": verdict.detail}}, is_error=True, code=verdict.code
    )
    tool_call, result = tool_recorded(turn, model_call, block, outcome, started=started, guardrail_code=verdict.code)
    if verdict.code not in BLOCKS_NOT_FAILURES:
        turn.blocked.append(verdict.code)
    turn_event(
        turn,
        GuardrailEvent.Layer.TOOLS,
        stage,
        verdict.code,
        GuardrailEvent.Action.BLOCKED,
        tool_name=tool_call.name,
        tool_call=tool_call,
    )
    return result


def tool_recorded(
    turn: Turn, model_call: ModelCall, block: dict, outcome: ToolOutcome, *, started: float, guardrail_code: str = ""
) -> tuple[ToolCall, dict]:
    """Store the tool call (people-typed text in its result marked as data) and build its tool_result block."""
    tool_call = tool_call_record(
        run=turn.run,
        model_call=model_call,
        tool_use_id=block["id"],
        name=str(block.get("name", ""))[:64],
        arguments=tool_arguments(block),
        outcome=outcome,
        guardrail_code=guardrail_code,
        duration_ms=int((time.monotonic() - started) * 1000),
    )
    # What the JSON column gives back, so L4 sees this result exactly as a later turn will.
    turn.recorded.append((tool_call.name, json.loads(json.dumps(tool_call.result))))
    for path, findings in tool_call.result.get(UNTRUSTED_FINDINGS_KEY, {}).items():
        for finding in findings:
            turn_event(
                turn,
                GuardrailEvent.Layer.INPUT,
                "tool_result",
                finding,
                GuardrailEvent.Action.RECORDED,
                tool_name=tool_call.name,
                tool_call=tool_call,
                detail=f"in {path}"[:500],
            )
    return tool_call, tool_result_block(block["id"], tool_call.result, is_error=outcome.is_error)

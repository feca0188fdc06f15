"""The conversation the model sees, rebuilt from database rows on every turn.

Customer-visible messages carry the conversation; tool_use/tool_result pairs of each
run are replayed from the transcript so the model keeps what it looked up. Raw final
drafts are never replayed: the assistant message (what the customer saw) stands in
for them, so a rejected draft cannot leak back into the model's context.

`transcript_load` reads the thread once at the start of a turn and also hands the agent
what its bounds, L0 and L4 need from the same rows (usage, the L0 flag, every tool result
and customer message), so none of them queries the thread again. `tool_call_record` writes the
row each tool_use leaves behind, for the loop and for a customer's decision alike.
"""

import json
from dataclasses import dataclass
from functools import lru_cache

from django.db import connection

from chat.agent.tools import REPLY_TOOL, ToolOutcome
from chat.models import Message, ModelCall, Run, Thread, ToolCall
from guardrails.models import GuardrailEvent
from guardrails.screening import (
    INJECTION_FINDINGS,
    clean_text,
    mark_untrusted,
)

# Every turn of a thread cleans all its customer messages again, a per-character pass each; a
# worker keeps recent results (keyed by the text itself, kept in memory only).
_clean_text = lru_cache(maxsize=1024)(clean_text)

INTERRUPTED_RESULT = {
    "error": {
        "code": "interrupted",
        "message": "This tool call was interrupted before it finished and had no effect.",
    }
}


def tool_result_block(tool_use_id: str, result: dict, *, is_error: bool) -> dict:
    """The tool_result content block for one recorded tool call."""
    block = {"type": "tool_result", "tool_use_id": tool_use_id, "content": json.dumps(result, ensure_ascii=False)}
    if is_error:
        block["is_error"] = True
    return block


def _append(turns: list[dict], role: str, blocks: list[dict]) -> None:
    """Add blocks as a turn, merging with the previous turn of the same role."""
    if not blocks:
        return
    if turns and turns[-1]["role"] == role:
        turns[-1]["content"].extend(blocks)
    else:
        turns.append({"role": role, "content": list(blocks)})


def _recorded_result(tool_use_id: str, by_use: dict[str, tuple[dict, bool]]) -> dict:
    recorded = by_use.get(tool_use_id)
    if recorded is None:
        return tool_result_block(tool_use_id, INTERRUPTED_RESULT, is_error=True)
    result, is_error = recorded
    return tool_result_block(tool_use_id, result, is_error=is_error)


@dataclass(frozen=True)
class Transcript:
    """What a turn reads from its thread's record at its start, in two or three queries."""

    messages: list[dict]  # the Messages API `messages` for the run (the caller appends to it)
    turns: int  # customer turns up to and including this run (the turn bound)
    tokens: int  # input + output tokens the whole thread has spent (the token budget)
    iteration: int  # model calls this run already made: a retried attempt goes on from there
    injection_seen: bool  # L0 recorded an injection-type finding in this thread before
    tool_results: list[tuple[str, dict]]  # (name, result) of every recorded tool call of the thread
    customer_texts: list[str]  # every customer message of the thread, cleaned as the model sees them


# The two statements every turn starts with, written by hand. They are what the ORM built for
# `Run.objects.filter(thread_id=…).annotate(injection_seen=Exists(…)).order_by("seq").values_list(…)`
# and `ModelCall.objects.filter(run_id__in=…, purpose="turn").order_by("iteration", "id")
# .values_list(…)`; building and compiling those querysets was ~15 % of the worker's CPU per
# turn (docs/performance.md §9.2). Identifiers come from the models; every value is a parameter.
_RUNS_SQL = f"""
    SELECT r.id, r.seq, r.input_tokens, r.output_tokens, u.content, r.assistant_message_id, a.content,
        EXISTS (SELECT 1 FROM {GuardrailEvent._meta.db_table} e
                WHERE e.thread_id = %s AND e.layer = %s AND e.code IN ({", ".join(["%s"] * len(INJECTION_FINDINGS))}))
            AS injection_seen
    FROM {Run._meta.db_table} r
    JOIN {Message._meta.db_table} u ON u.id = r.user_message_id
    LEFT JOIN {Message._meta.db_table} a ON a.id = r.assistant_message_id
    WHERE r.thread_id = %s
    ORDER BY r.seq
"""  # noqa: S608
# Plain IN lists (not Postgres's = ANY) so the local SQLite mode reads the same; {ids} is a run of %s.
_MODEL_CALLS_SQL = f"""
    SELECT run_id, response_content FROM {ModelCall._meta.db_table}
    WHERE run_id IN ({{ids}}) AND purpose = %s
    ORDER BY iteration, id
"""  # noqa: S608
_RUN_ID = Run._meta.pk


def _thread_rows(run: Run) -> tuple[list[tuple], list[tuple]]:
    """(the thread's runs in seq order, the TURN model calls of those runs with decoded contents)."""
    thread_id = Thread._meta.pk.get_db_prep_value(run.thread_id, connection)
    with connection.cursor() as cursor:
        cursor.execute(_RUNS_SQL, [thread_id, GuardrailEvent.Layer.INPUT, *INJECTION_FINDINGS, thread_id])
        # Run ids as the ORM gives them (UUIDs; SQLite returns text), so they match other reads.
        runs = [(_RUN_ID.to_python(row[0]), *row[1:-1], bool(row[-1])) for row in cursor.fetchall()]
        if not runs:
            return [], []
        ids = [_RUN_ID.get_db_prep_value(row[0], connection) for row in runs]
        cursor.execute(_MODEL_CALLS_SQL.format(ids=", ".join(["%s"] * len(ids))), [*ids, ModelCall.Purpose.TURN])
        # jsonb arrives as text on a plain cursor (Django leaves decoding to JSONField).
        model_calls = [(_RUN_ID.to_python(run_id), json.loads(content)) for run_id, content in cursor.fetchall()]
    return runs, model_calls


def transcript_load(run: Run) -> Transcript:
    """Everything `run`'s turn needs from the database: runs, model calls, and tool calls if there are any."""
    # One row per run of the thread. The thread-level L0 flag rides along as an uncorrelated
    # EXISTS (evaluated once) instead of costing a statement of its own. Model calls are read
    # by run id, not by a join on the thread: the plain (run_id) index lookups stay cheap
    # whatever the planner's statistics say.
    runs, model_calls = _thread_rows(run)
    run_ids = [row[0] for row in runs]
    calls: dict[object, list[list[dict]]] = {}  # run id → response contents, in (iteration, id) order
    for run_id, content in model_calls:
        calls.setdefault(run_id, []).append(content)
    results: dict[object, dict[str, tuple[dict, bool]]] = {}  # run id → tool_use_id → (result, is_error)
    tool_results: list[tuple[str, dict]] = []
    # Tool calls are only ever recorded for a tool_use block of these model calls: a thread whose
    # model never asked for a tool has none, and the query is skipped.
    if any(block.get("type") == "tool_use" for contents in calls.values() for content in contents for block in content):
        tool_calls = (
            ToolCall.objects.filter(run_id__in=run_ids)
            .order_by("id")
            .values_list("run_id", "tool_use_id", "name", "result", "is_error")
        )
        for run_id, tool_use_id, name, result, is_error in tool_calls:
            results.setdefault(run_id, {})[tool_use_id] = (result, is_error)  # the latest one per tool_use
            tool_results.append((name, result))

    turns: list[dict] = []
    customer_texts: list[str] = []
    turn_count = tokens = 0
    for run_id, seq, input_tokens, output_tokens, user_text, assistant_id, assistant_text, _ in runs:
        tokens += input_tokens + output_tokens
        # The model sees the message without control or invisible characters (L0 cleaning).
        cleaned = _clean_text(user_text)
        customer_texts.append(cleaned)
        if seq > run.seq:
            continue  # a later message, queued behind this run: not part of its history
        turn_count += 1
        _append(turns, "user", [{"type": "text", "text": cleaned}])
        by_use = results.get(run_id, {})
        for content in calls.get(run_id, ()):
            tool_uses = [block for block in content if block.get("type") == "tool_use"]
            # A lone send_reply is the turn's final reply: the assistant message stands in for it.
            if all(block.get("name") == REPLY_TOOL for block in tool_uses):
                continue
            _append(turns, "assistant", content)
            # A tool_use without a recorded result (paused, cancelled, crashed) is answered
            # with an error result, so the history stays valid and the thread usable.
            _append(turns, "user", [_recorded_result(block["id"], by_use) for block in tool_uses])
        if assistant_id:
            _append(turns, "assistant", [{"type": "text", "text": assistant_text}])
    return Transcript(
        messages=turns,
        turns=turn_count,
        tokens=tokens,
        iteration=len(calls.get(run.id, ())),
        injection_seen=bool(runs) and runs[0][-1],
        tool_results=tool_results,
        customer_texts=customer_texts,
    )


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
    """The transcript row for one tool_use; its result is what the model is told, people-typed text marked as data.

    Every path that records a result comes through here: a tool run in a turn, and a return applied
    after the customer's or staff's decision (whose item titles the model reads on resume).
    """
    return ToolCall.objects.create(
        run=run,
        model_call=model_call,
        tool_use_id=tool_use_id,
        name=name,
        input=arguments,
        result=mark_untrusted(outcome.result),
        is_error=outcome.is_error,
        guardrail_code=guardrail_code,
        duration_ms=duration_ms,
    )

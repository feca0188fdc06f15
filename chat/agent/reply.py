"""The reply step: how a turn ends, and L4 on what the customer will read.

Called by chat/agent/loop.py with the model's final response. `send_reply` names an intent:
out_of_scope and handoff get fixed server-written texts; everything else goes through L4
(guardrails/output.py), with a small model's second opinion when L4 is unsure (anthropic only).
A refused draft stays on its ModelCall for staff and the customer gets the fallback.
"""

import time

from django.conf import settings
from django.utils import timezone

from bookly_project.db import db_connection_release
from chat.agent import prompts
from chat.agent.llm import ModelError, quick_complete
from chat.agent.steps import (
    Turn,
    TurnOutcome,
    final_text,
    heartbeat,
    tool_arguments,
    tool_recorded,
    tool_refused,
    turn_event,
    usage_of,
)
from chat.agent.tools import REPLY_TOOL, tool_execute
from chat.models import ModelCall, Run, Thread
from guardrails.models import GuardrailEvent
from guardrails.output import OFF_TOPIC, OFF_TOPIC_UNSURE, Grounding, check_reply, refusal_topic
from guardrails.verdict import Verdict
from orders.policy import POLICY_TEXTS, REFUND_TIMELINE, RETURN_LABEL_INSTRUCTIONS

REPLY_NOT_ALONE = (
    "Not run: send_reply ends the turn, so it must be the only tool call in its response. Call the other tools "
    "first, read their results, then call send_reply on its own."
)


def asks_to_reply(tool_uses: list[dict]) -> bool:
    """Whether the response calls send_reply: then it is step 4, never a tool run."""
    return any(block.get("name") == REPLY_TOOL for block in tool_uses)


def reply_end(turn: Turn, model_call: ModelCall, tool_uses: list[dict]) -> TurnOutcome | list[dict]:
    """Step 4: end the turn with this response, or return the error results that send the model back to try again."""
    stop_reason = model_call.stop_reason
    if stop_reason != "max_tokens" and asks_to_reply(tool_uses):
        return reply_step(turn, model_call, tool_uses)
    if stop_reason == "max_tokens":
        return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_TRUNCATED, ending="max_tokens")
    if stop_reason == "refusal":
        return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_MODEL_REFUSED, ending="refusal")
    reply = final_text(model_call.response_content)
    if not reply:
        return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_TOO_MANY_STEPS, ending="empty")
    # A plain-text ending (a misbehaving model, an old transcript): intent unknown, same checks.
    return reply_finish(turn, model_call, reply, intent=None)


def reply_step(turn: Turn, model_call: ModelCall, tool_uses: list[dict]) -> TurnOutcome | list[dict]:
    """End the turn through send_reply, or return the error results that send the model back to try again.

    A send_reply next to other tool calls is refused as a whole (none of them runs): the reply was
    written before those results existed, so it could not rest on them.
    """
    started = time.monotonic()
    if len(tool_uses) > 1:
        refusal = Verdict.deny("reply_not_alone", detail=REPLY_NOT_ALONE)
        return [tool_refused(turn, model_call, block, refusal, stage="stage1", started=started) for block in tool_uses]
    block = tool_uses[0]
    outcome = tool_execute(REPLY_TOOL, tool_arguments(block), turn.context)
    if outcome.is_error:
        return [tool_recorded(turn, model_call, block, outcome, started=started)[1]]
    intent, message = outcome.result["intent"], outcome.result["message"]
    if intent == "out_of_scope":
        # The server writes the refusal: the model's message is discarded, its topic used only if plain words.
        topic = refusal_topic(outcome.result["topic"])
        return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REFUSAL_TEMPLATE.format(topic=topic))
    if intent == "handoff":
        return TurnOutcome(status=Run.Status.COMPLETED, reply=prompts.REPLY_HANDOFF, ending="handoff")
    return reply_finish(turn, model_call, message, intent=intent)


def reply_finish(turn: Turn, model_call: ModelCall, reply: str, *, intent: str | None) -> TurnOutcome:
    """L4 on the final reply: the fallback if it is refused; through, and the thread flagged, if it is only unsure."""
    verdict = _check_reply(turn, reply, intent)
    if OFF_TOPIC_UNSURE in verdict.codes and verdict.allowed and _second_opinion_enabled():
        verdict = _with_second_opinion(turn, reply, verdict)
    if not verdict.allowed:
        # The draft stays on its ModelCall for staff; history never replays it to the model.
        ModelCall.objects.filter(id=model_call.id).update(rejected_codes=list(verdict.codes))
        turn_event(
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
        turn_event(
            turn,
            GuardrailEvent.Layer.OUTPUT,
            "reply",
            verdict.code,
            GuardrailEvent.Action.RECORDED,
            detail=verdict.detail,
        )
    return TurnOutcome(status=Run.Status.COMPLETED, reply=reply)


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
    usage = usage_of(response)
    content = response.get("content") or []
    answer = final_text(content).strip().upper()
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
    heartbeat(turn.run, **usage)
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

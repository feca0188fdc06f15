"""The conversation the model sees, rebuilt from database rows on every turn.

Customer-visible messages carry the conversation; tool_use/tool_result pairs of each
run are replayed from the transcript so the model keeps what it looked up. Raw final
drafts are never replayed: the assistant message (what the customer saw) stands in
for them, so a rejected draft cannot leak back into the model's context.
"""

import json

from django.db.models import Prefetch

from chat.models import ModelCall, Run, ToolCall
from guardrails.screening import clean_text

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


def history_build(run: Run) -> list[dict]:
    """Messages API `messages` for `run`: every earlier run of its thread, then its own progress."""
    runs = (
        Run.objects.filter(thread_id=run.thread_id, seq__lte=run.seq)
        .select_related("user_message", "assistant_message")
        .prefetch_related(
            Prefetch("model_calls", queryset=ModelCall.objects.order_by("iteration", "id")),
            Prefetch("tool_calls", queryset=ToolCall.objects.order_by("id")),
        )
        .order_by("seq")
    )
    turns: list[dict] = []
    for past in runs:
        # The model sees the message without control or invisible characters (L0 cleaning).
        _append(turns, "user", [{"type": "text", "text": clean_text(past.user_message.content)}])
        results = {call.tool_use_id: call for call in past.tool_calls.all()}
        for model_call in past.model_calls.all():
            tool_uses = [block for block in model_call.response_content if block.get("type") == "tool_use"]
            if not tool_uses:
                continue
            _append(turns, "assistant", model_call.response_content)
            # A tool_use without a recorded result (paused, cancelled, crashed) is answered
            # with an error result, so the history stays valid and the thread usable.
            _append(
                turns,
                "user",
                [
                    tool_result_block(block["id"], results[block["id"]].result, is_error=results[block["id"]].is_error)
                    if block["id"] in results
                    else tool_result_block(block["id"], INTERRUPTED_RESULT, is_error=True)
                    for block in tool_uses
                ],
            )
        if past.assistant_message_id:
            _append(turns, "assistant", [{"type": "text", "text": past.assistant_message.content}])
    return turns

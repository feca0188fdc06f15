"""The deterministic demo model: speaks the Messages API's content-block format.

It emits `tool_use` blocks and builds its text from `tool_result`s, so it goes through
the same loop and every guardrail as Claude. It is a demo, labelled as such to customers.
"""

import json
import re

from chat.prompts import REFUSAL_TEMPLATE

NAME = "bookly-offline-demo"

_GREETING = re.compile(r"^\s*(hi|hello|hey|good (morning|afternoon|evening)|howdy)\b", re.I)
_POLICY_PATTERNS = (
    ("password_reset", re.compile(r"\b(password|log ?in|sign ?in|reset)\b", re.I)),
    ("shipping", re.compile(r"\b(ship|shipping|deliver|delivery|postage|how long)\b", re.I)),
    ("returns_overview", re.compile(r"\b(return|refund|send (it|them) back)\b", re.I)),
)
_POLICY_INTROS = {
    "shipping": "Here is our shipping policy",
    "password_reset": "Here is how to reset your password",
    "returns_overview": "Here is our return policy",
}


def _text(text: str) -> list[dict]:
    return [{"type": "text", "text": text}]


def _last_user_text(messages: list[dict]) -> str:
    content = messages[-1]["content"]
    if isinstance(content, str):
        return content
    return " ".join(block.get("text", "") for block in content if block.get("type") == "text")


def _tool_results(messages: list[dict]) -> list[dict]:
    content = messages[-1]["content"]
    if isinstance(content, str):
        return []
    return [block for block in content if block.get("type") == "tool_result"]


class OfflineModel:
    name = NAME

    def complete(self, request: dict) -> dict:
        messages = request["messages"]
        results = _tool_results(messages)
        content = (
            self._answer_tool_results(results)
            if results
            else self._answer_text(_last_user_text(messages), turn=len(messages))
        )
        stop_reason = "tool_use" if any(block["type"] == "tool_use" for block in content) else "end_turn"
        return {
            "id": f"msg_offline_{len(messages):04d}",
            "type": "message",
            "role": "assistant",
            "model": NAME,
            "content": content,
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "usage": {
                "input_tokens": 0,
                "output_tokens": 0,
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
            },
        }

    def _answer_text(self, text: str, *, turn: int) -> list[dict]:
        for topic, pattern in _POLICY_PATTERNS:
            if pattern.search(text):
                return [
                    {
                        "type": "tool_use",
                        "id": f"toolu_offline_{turn:04d}_0",
                        "name": "lookup_policy",
                        "input": {"topic": topic},
                    }
                ]
        if _GREETING.search(text):
            return _text(
                "Hello! I'm Bookly's support assistant. I can help with order status, returns, "
                "and our shipping, returns and password policies. What can I do for you?"
            )
        return _text(REFUSAL_TEMPLATE.format(topic="that request"))

    def _answer_tool_results(self, results: list[dict]) -> list[dict]:
        parts = []
        for block in results:
            payload = _tool_payload(block)
            if block.get("is_error"):
                message = payload.get("error", {}).get("message", "That didn't work.")
                parts.append(f"I'm sorry, I couldn't do that: {message}")
            elif "topic" in payload and "text" in payload:
                parts.append(f"{_POLICY_INTROS.get(payload['topic'], 'Here is our policy')}: {payload['text']}")
        return _text(" ".join(parts) or "I'm sorry, I couldn't find that.")


def _tool_payload(block: dict) -> dict:
    content = block.get("content")
    if isinstance(content, list):
        content = "".join(part.get("text", "") for part in content if part.get("type") == "text")
    try:
        payload = json.loads(content or "{}")
    except (TypeError, ValueError):
        return {}
    return payload if isinstance(payload, dict) else {}

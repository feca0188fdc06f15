"""The TOOLS registry: every tool the model can call, in one place, and how to run one.

Called by chat/agent.py; handlers call orders/ (the store's rules live there). Every
handler treats its arguments as untrusted and validates them again.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from orders.policy import POLICY_TEXTS, POLICY_TOPICS


class ToolError(Exception):
    """A tool refusing its input; goes back to the model as a tool_result with is_error."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class ToolContext:
    """What a handler may know about the turn calling it (ids only)."""

    thread_id: Any
    run_id: Any
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    input_schema: dict
    mutating: bool
    handler: Callable[[ToolContext, dict], dict]

    def schema(self) -> dict:
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema}


@dataclass(frozen=True)
class ToolOutcome:
    result: dict
    is_error: bool = False
    code: str = ""


def _require_object(arguments: Any) -> dict:
    if not isinstance(arguments, dict):
        raise ToolError("invalid_arguments", "Tool input must be a JSON object.")
    return arguments


def _allowed_keys(arguments: dict, allowed: set[str]) -> None:
    unknown = sorted(set(arguments) - allowed)
    if unknown:
        raise ToolError("invalid_arguments", f"Unknown field(s): {', '.join(unknown)}.")


def lookup_policy(context: ToolContext, arguments: dict) -> dict:
    """Verbatim policy text for one known topic."""
    _allowed_keys(arguments, {"topic"})
    topic = arguments.get("topic")
    if not isinstance(topic, str) or topic not in POLICY_TOPICS:
        raise ToolError("unknown_topic", f"topic must be one of: {', '.join(POLICY_TOPICS)}.")
    return {"topic": topic, "text": POLICY_TEXTS[topic]}


TOOLS: dict[str, Tool] = {
    tool.name: tool
    for tool in (
        Tool(
            name="lookup_policy",
            description=(
                "Get the exact text of a store policy. Use it whenever the customer asks about shipping, "
                "resetting a password, or how returns work in general, and quote the text verbatim."
            ),
            input_schema={
                "type": "object",
                "properties": {"topic": {"type": "string", "enum": list(POLICY_TOPICS)}},
                "required": ["topic"],
                "additionalProperties": False,
            },
            mutating=False,
            handler=lookup_policy,
        ),
    )
}


def tool_schemas() -> list[dict]:
    """The `tools` list of a Messages API request, in registry order."""
    return [tool.schema() for tool in TOOLS.values()]


def tool_execute(name: str, arguments: Any, context: ToolContext) -> ToolOutcome:
    """Run one tool. Never raises for bad input: refusals come back as error outcomes."""
    tool = TOOLS.get(name)
    if tool is None:
        return ToolOutcome({"error": {"code": "unknown_tool", "message": f"There is no tool named {name!r}."}},
                           is_error=True, code="unknown_tool")
    try:
        return ToolOutcome(tool.handler(context, _require_object(arguments)))
    except ToolError as error:
        return ToolOutcome({"error": {"code": error.code, "message": error.message}}, is_error=True, code=error.code)

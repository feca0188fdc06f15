"""The short steps a customer sees while a run works: fixed, server-written labels, never model text.

Read by chat/agent.py (a tool starts) and guardrails/approvals.py (a return waits for staff).
"""

# Keyed by tool name: a tool that is not listed shows no step.
TOOL_STEPS: dict[str, str] = {
    "lookup_order": "Looking up your order",
    "list_customer_orders": "Looking up your orders",
    "check_return_eligibility": "Checking return eligibility",
    "initiate_return": "Preparing your return",
    "lookup_policy": "Looking up our policy",
}
WAITING_FOR_TEAM = "Waiting for our team"


def progress_for_tools(tool_uses: list[dict]) -> str:
    """The step for a model response's tool calls: the first one that has a label, or ''."""
    for block in tool_uses:
        label = TOOL_STEPS.get(str(block.get("name", "")))
        if label:
            return label
    return ""

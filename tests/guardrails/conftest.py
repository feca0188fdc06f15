"""Guardrail test helpers: a scripted model patched into the agent, the demo orders, the policy.

The model is the only thing outside the machine, so it is the only thing scripted; every
other step (claims, checks, tools, returns, pending actions) runs for real on Postgres.
"""

import json

import pytest
from django.core.management import call_command

from chat import services
from chat.models import Thread
from guardrails.output import SCOPE_SCORER
from tests.fakes import FakeReply, text_reply, tool_use_reply

SARAH = "sarah.chen@example.com"  # BK-10042 (delivered, in window), BK-10103 (processing)
MARIA = "maria.gonzalez@example.com"  # BK-9871 (delivered 55 days ago)
DAVID = "david.park@example.com"  # BK-10120 (an ebook, an audiobook and a printed book)
ALEX = "alex.rivera@example.com"  # BK-10077 (delivered exactly 30 days ago)
REASON = "I changed my mind"
DONE = text_reply("Thanks, is there anything else I can help with?")


@pytest.fixture
def scope_scorer_silent(monkeypatch) -> None:
    """The L4 scope scorer reaches none of its thresholds: what the rules alone decide."""
    monkeypatch.setattr(SCOPE_SCORER, "threshold", lambda name="threshold": 1.01)


@pytest.fixture
def demo_orders(db) -> None:
    call_command("load_demo_orders", verbosity=0)


def eligibility_call(order_id: str, email: str = SARAH, *, tool_use_id: str | None = None) -> FakeReply:
    return tool_use_reply(
        "check_return_eligibility", {"order_id": order_id, "customer_email": email}, tool_use_id=tool_use_id
    )


def lookup_call(order_id: str, email: str = SARAH, *, tool_use_id: str | None = None) -> FakeReply:
    return tool_use_reply("lookup_order", {"order_id": order_id, "customer_email": email}, tool_use_id=tool_use_id)


def return_input(order_id: str, email: str = SARAH, titles: list[str] | None = None) -> dict:
    arguments = {"order_id": order_id, "customer_email": email, "reason": REASON}
    if titles is not None:
        arguments["item_titles"] = titles
    return arguments


def return_call(
    order_id: str, email: str = SARAH, titles: list[str] | None = None, *, tool_use_id: str | None = None
) -> FakeReply:
    return tool_use_reply("initiate_return", return_input(order_id, email, titles), tool_use_id=tool_use_id)


def thread_new(owner: str = "alice-session") -> Thread:
    return services.thread_create(owner=owner)


def tool_result(request: dict, tool_use_id: str) -> tuple[dict, bool]:
    """The tool_result for `tool_use_id` in the last (user) turn of a model request: (content, is_error)."""
    last = request["messages"][-1]
    assert last["role"] == "user"
    blocks = [
        block
        for block in last["content"]
        if block.get("type") == "tool_result" and block.get("tool_use_id") == tool_use_id
    ]
    assert len(blocks) == 1, f"no single tool_result for {tool_use_id} in {last['content']}"
    return json.loads(blocks[0]["content"]), bool(blocks[0].get("is_error"))

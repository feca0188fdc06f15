"""L1 system prompt and L2 reminders: rendered from the policy data, stable for caching, safe fixed replies."""

import hashlib
import importlib
import os
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from chat.agent import prompts
from guardrails.output import Grounding, check_reply
from orders import policy
from orders.policy import POLICY_TEXTS

ROOT = Path(__file__).resolve().parent.parent.parent
TOOL_NAMES = ("lookup_order", "list_customer_orders", "check_return_eligibility", "initiate_return", "lookup_policy")
FIXED_REPLIES = (
    "REPLY_TOO_MANY_STEPS",
    "REPLY_TRUNCATED",
    "REPLY_MODEL_REFUSED",
    "REPLY_FALLBACK",
    "REPLY_TURN_LIMIT",
    "REPLY_TOKEN_BUDGET",
    "REPLY_HANDOFF",
)


@pytest.fixture
def reloaded_prompts(monkeypatch):
    """chat.agent.prompts rebuilt after the test changes orders.policy; restored afterwards."""
    yield lambda: importlib.reload(prompts)
    monkeypatch.undo()
    importlib.reload(prompts)


def test_system_blocks_are_one_text_block_with_the_prompt_and_no_cache_control():
    assert prompts.system_blocks() == [{"type": "text", "text": prompts.SYSTEM_PROMPT}]


def test_the_refusal_template_is_the_exact_agreed_sentence():
    assert prompts.REFUSAL_TEMPLATE == (
        "I can help with order status, returns, and our standard policies, but I'm not able to help with "
        "{topic}. Is there an order or a policy question I can help you with instead?"
    )
    assert prompts.REFUSAL_TEMPLATE in prompts.SYSTEM_PROMPT


def test_the_critical_rules_come_first_and_are_repeated_at_the_end():
    rules = prompts._CRITICAL_RULES
    first = prompts.SYSTEM_PROMPT.index(rules)
    assert first < prompts.SYSTEM_PROMPT.index("SCOPE AND REFUSALS")
    assert prompts.SYSTEM_PROMPT.endswith(rules)
    assert prompts.SYSTEM_PROMPT.count(rules) == 2


@pytest.mark.parametrize(
    "text",
    [
        f"within {policy.RETURN_WINDOW_DAYS} days of delivery",
        policy.RETURN_CONDITION,
        f"the {policy.REFUND_METHOD} within {policy.REFUND_BUSINESS_DAYS} business days",
        "These cannot be returned: audiobooks, ebooks, gift cards and personalized items.",
    ],
)
def test_the_return_policy_is_rendered_from_orders_policy(text):
    assert text in prompts.SYSTEM_PROMPT


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("RETURN_WINDOW_DAYS", 45, "within 45 days of delivery"),
        ("REFUND_BUSINESS_DAYS", 10, "within 10 business days"),
        ("RETURN_CONDITION", "unopened", "if they are unopened."),
        ("REFUND_METHOD", "store credit", "Refunds go to the store credit"),
        (
            "NON_RETURNABLE_CATEGORIES",
            frozenset({"ebook", "magazine"}),
            "These cannot be returned: ebooks and magazine.",
        ),
    ],
)
def test_changing_the_policy_data_changes_the_prompt(monkeypatch, reloaded_prompts, name, value, expected):
    monkeypatch.setattr(policy, name, value)
    assert expected in reloaded_prompts().SYSTEM_PROMPT


def test_the_prompt_is_byte_identical_across_processes_for_the_prompt_cache():
    code = "import hashlib, chat.agent.prompts as p; print(hashlib.sha256(p.SYSTEM_PROMPT.encode()).hexdigest())"
    digests = {
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout.strip()
        for seed in ("1", "2", "3")
    }
    assert digests == {hashlib.sha256(prompts.SYSTEM_PROMPT.encode()).hexdigest()}


@pytest.mark.parametrize(
    "rule",
    [
        *TOOL_NAMES,
        "Never guess a parameter.",
        "Before initiate_return, call check_return_eligibility for the same order and email",
        "the customer reviews and confirms it in the app",
        "Until a tool result says the return was created, say that it is waiting for their confirmation.",
        "When a tool returns an error, tell the customer plainly what its message says",
        "call lookup_policy and quote its text word for word",
        "Ask one clarifying question at a time",
        "Write plain text only",
    ],
)
def test_the_tool_and_style_rules_are_in_the_prompt(rule):
    assert rule in prompts.SYSTEM_PROMPT


@pytest.mark.parametrize(
    "example",
    [
        "Example 1, the order number is missing.\nCustomer: Where is my order?\nAssistant: I can check that for you.",
        f"Assistant: Here is our shipping policy: {POLICY_TEXTS['shipping']}",
        f"Assistant: {prompts.REFUSAL_TEMPLATE.format(topic='recipes')}",
        "Example 4, a customer with two orders.",
    ],
)
def test_the_worked_examples_are_in_the_prompt(example):
    assert example in prompts.SYSTEM_PROMPT


def test_the_prompt_itself_uses_no_markdown():
    assert not re.search(r"\*\*|^\s*#|^\s*[-*] |`", prompts.SYSTEM_PROMPT, re.MULTILINE)


@pytest.mark.parametrize(("reanchor", "contains_reanchor"), [(False, False), (True, True)])
def test_the_reminder_block_adds_re_anchoring_only_when_asked(reanchor, contains_reanchor):
    block = prompts.reminder_block(reanchor=reanchor)
    assert block["type"] == "text"
    assert block["text"].startswith(prompts.REMINDER)
    assert (prompts.REANCHOR in block["text"]) is contains_reanchor
    assert len(block["text"]) < 1200  # short: it is sent on every call, uncached


def test_a_thread_is_long_after_twelve_messages():
    assert prompts.REANCHOR_AFTER_MESSAGES == 12


def test_prompt_fragments_hold_the_secret_parts_but_not_what_replies_may_say():
    fragments = prompts.prompt_fragments()
    assert prompts._CRITICAL_RULES in fragments
    assert prompts.REMINDER in fragments and prompts.REANCHOR in fragments
    for allowed in (prompts.REFUSAL_TEMPLATE, *POLICY_TEXTS.values(), prompts._EXAMPLE_1_REPLY):
        assert not any(allowed in fragment for fragment in fragments)
    sources = prompts.SYSTEM_PROMPT + prompts.REMINDER + prompts.REANCHOR
    assert all(fragment in sources for fragment in fragments)


@pytest.mark.parametrize("name", FIXED_REPLIES)
def test_every_fixed_reply_passes_output_validation_with_no_facts(name):
    reply = getattr(prompts, name)
    empty = Grounding.from_sources(tool_results=[], customer_texts=[], policy_texts=[], today=date(2026, 11, 20))
    verdict = check_reply(
        reply, grounding=empty, refusal_template=prompts.REFUSAL_TEMPLATE, prompt_fragments=prompts.prompt_fragments()
    )
    assert verdict.allowed, verdict.detail
    assert not re.search(r"\d", reply)


def test_fixed_replies_are_all_different():
    assert len({getattr(prompts, name) for name in FIXED_REPLIES}) == len(FIXED_REPLIES)

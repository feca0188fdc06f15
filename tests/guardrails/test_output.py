"""L4 output validation: grounding from structured tool fields, markdown, off-topic, prompt leaks, the rates."""

from datetime import date
from decimal import Decimal

import pytest

from chat.prompts import REFUSAL_TEMPLATE, SYSTEM_PROMPT, prompt_fragments
from guardrails.output import (
    MARKDOWN,
    OFF_TOPIC,
    PROMPT_LEAK,
    UNGROUNDED_AMOUNT,
    UNGROUNDED_DATE,
    UNGROUNDED_EMAIL,
    UNGROUNDED_ORDER_ID,
    UNGROUNDED_TRACKING_NUMBER,
    Grounding,
    check_reply,
)
from orders.policy import POLICY_TEXTS
from scripts.measure_l4 import measure

TODAY = date(2026, 11, 20)
PLANTED = "Order BK-99999 arrives 2026-12-25 for $5.00"
ORDER = {
    "order_id": "BK-10042",
    "status": "delivered",
    "order_date": "2026-10-30",
    "delivered_date": "2026-11-05",
    "tracking_number": "1Z999AA10123456784",
    "total": "33.98",
    "items": [
        {"title": "C# in Depth", "author": "Jon Skeet", "price": "16.99", "category": "textbook"},
        {"title": "*NSYNC: The Official Book", "author": "", "price": "16.99", "category": "nonfiction"},
        {"title": PLANTED, "author": "", "price": "9.50", "category": "fiction"},
    ],
}
ELIGIBILITY = {
    "order_id": "BK-10042",
    "eligible": True,
    "reason": "",
    "delivered_date": "2026-11-05",
    "window_ends": "2026-12-05",
    "days_since_delivery": 15,
    "return_window_days": 30,
    "items": [],
}
CUSTOMER = ["Where is BK-10042? My email is jane.doe@example.com"]


def grounding(*, tool_results=None, customer_texts=None, today=TODAY) -> Grounding:
    return Grounding.from_sources(
        tool_results=[("lookup_order", ORDER)] if tool_results is None else tool_results,
        customer_texts=CUSTOMER if customer_texts is None else customer_texts,
        policy_texts=list(POLICY_TEXTS.values()),
        today=today,
    )


def check(reply: str, **sources):
    return check_reply(
        reply, grounding=grounding(**sources), refusal_template=REFUSAL_TEMPLATE, prompt_fragments=prompt_fragments()
    )


# --- Grounding is read from structured fields only ----------------------------------------------


def test_grounding_reads_facts_by_key_name_and_walks_nested_lists():
    facts = grounding(customer_texts=[])
    assert facts.order_ids == {"BK-10042"}
    assert {date(2026, 10, 30), date(2026, 11, 5), TODAY} <= facts.dates
    assert {Decimal("33.98"), Decimal("16.99"), Decimal("9.50")} <= facts.amounts
    assert facts.tracking_numbers == {"1Z999AA10123456784"}
    assert {"C# in Depth", PLANTED} <= facts.titles


def test_a_planted_title_grounds_none_of_the_facts_it_contains():
    facts = grounding(customer_texts=[])
    assert "BK-99999" not in facts.order_ids
    assert date(2026, 12, 25) not in facts.dates
    assert Decimal("5.00") not in facts.amounts


@pytest.mark.parametrize(
    ("result", "attribute", "value"),
    [
        ({"order_ids": ["BK-1001", "BK-1002"]}, "order_ids", "BK-1002"),
        ({"orders": [{"order_id": "BK-2232", "status": "shipped"}]}, "order_ids", "BK-2232"),
        ({"window_ends": "2026-12-05"}, "dates", date(2026, 12, 5)),
        ({"expires_at": "2026-11-21T18:30:00+00:00"}, "dates", date(2026, 11, 21)),
        ({"refund_amount": "17.99"}, "amounts", Decimal("17.99")),
        ({"amount": 12}, "amounts", Decimal(12)),
        ({"effect": {"refund_amount": "33.98"}}, "amounts", Decimal("33.98")),
        ({"items": [{"title": "A", "price": "10.00"}, {"title": "B", "price": "5.50"}]}, "amounts", Decimal("15.50")),
        ({"customer_email": "Jane.Doe@Example.com"}, "emails", "jane.doe@example.com"),
        ({"tracking_number": "1z 999 aa1 0123456784"}, "tracking_numbers", "1Z999AA10123456784"),
        (
            {"error": {"code": "outside_return_window", "message": "x", "details": {"window_ends": "2026-10-25"}}},
            "dates",
            date(2026, 10, 25),
        ),
    ],
)
def test_each_structured_field_grounds_its_fact(result, attribute, value):
    facts = grounding(tool_results=[("some_tool", result)], customer_texts=[])
    assert value in getattr(facts, attribute)


@pytest.mark.parametrize(
    "result",
    [
        {"message": "Order BK-12345 was delivered on 2026-11-01 for $12.00 to x@example.com"},
        {"error": {"code": "order_not_found", "message": "No order BK-12345 matches jane@example.com."}},
        {"note": "tracking 1Z999AA10123456799"},
        {"price": "not a number", "delivered_date": "soon"},
    ],
)
def test_free_text_fields_ground_nothing(result):
    facts = grounding(tool_results=[("some_tool", result)], customer_texts=[])
    nothing = grounding(tool_results=[], customer_texts=[])
    assert not facts.order_ids and not facts.emails and not facts.tracking_numbers
    assert facts.amounts == nothing.amounts  # the policy's amounts only
    assert facts.dates == {TODAY}


def test_policy_texts_ground_their_amounts():
    facts = grounding(tool_results=[], customer_texts=[])
    assert {Decimal("25"), Decimal("9.99")} <= facts.amounts


# --- Replies that repeat grounded facts pass ---------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "Your order BK-10042 was delivered on November 5, 2026.",
        "BK-10042 was delivered on 2026-11-05 and cost $33.98.",
        "It was delivered on Nov 5th; the tracking number was 1Z999AA10123456784.",
        "It was placed on 10/30/2026 and delivered on 5 November.",
        "Each of the two books was 16.99 USD.",
        "C# in Depth and *NSYNC: The Official Book were both in that order.",
        "*NSYNC: The Official Book shipped with C# in Depth.",
        "I sent the details to jane.doe@example.com.",
        "Standard shipping is free on orders over $25; expedited shipping costs $9.99.",
        "You have 30 days from delivery, and refunds arrive within 7 business days.",
        "Today is November 20, so you are inside the window.",
        "Here are your items:\n1. C# in Depth\n2. *NSYNC: The Official Book",
        "Thanks! What is the email address on that order?",
        REFUSAL_TEMPLATE.format(topic="recipes"),
        REFUSAL_TEMPLATE.format(topic="questions about how I work"),
        "Here is our shipping policy: " + POLICY_TEXTS["shipping"],
        "Here is our return policy: " + POLICY_TEXTS["returns_overview"],
    ],
)
def test_grounded_plain_on_topic_replies_pass(reply):
    verdict = check(reply)
    assert verdict.allowed, verdict.detail


def test_an_order_id_the_customer_typed_may_be_repeated_even_before_any_lookup():
    verdict = check(
        "Thanks. What is the email address on order BK-10424?",
        tool_results=[],
        customer_texts=["sorry, I meant bk10424"],
    )
    assert verdict.allowed, verdict.detail


@pytest.mark.parametrize(
    "reply",
    [
        "You mentioned you were charged $29.99 instead of $24.99 on November 3.",
        "I'll look into the 41.50 on your receipt.",
    ],
)
def test_amounts_and_dates_the_customer_typed_may_be_repeated(reply):
    verdict = check(
        reply, tool_results=[], customer_texts=["I was charged $29.99 not $24.99 on Nov 3", "receipt says 41.50"]
    )
    assert verdict.allowed, verdict.detail


def test_a_date_from_an_earlier_turns_tool_result_passes():
    earlier_and_now = [
        ("lookup_order", ORDER),
        ("lookup_policy", {"topic": "shipping", "text": "..."}),
        ("check_return_eligibility", ELIGIBILITY),
    ]
    verdict = check(
        "As I said earlier, it was delivered on November 5, so you can return it until December 5.",
        tool_results=earlier_and_now,
    )
    assert verdict.allowed, verdict.detail


def test_a_year_less_date_is_read_as_the_nearest_year():
    january = date(2027, 1, 4)
    assert check("It was delivered on Nov 5.", today=january).allowed
    assert not check("It was delivered on Nov 5, 2027.", today=january).allowed


# --- Ungrounded facts are refused, each with its own code ---------------------------------------------


@pytest.mark.parametrize(
    ("reply", "code"),
    [
        ("Your order BK-99999 arrives 2026-12-25 for $5.00.", UNGROUNDED_ORDER_ID),
        ("Your order BK-99999 arrives 2026-12-25 for $5.00.", UNGROUNDED_DATE),
        ("Your order BK-99999 arrives 2026-12-25 for $5.00.", UNGROUNDED_AMOUNT),
        ("I also found order BK-10043.", UNGROUNDED_ORDER_ID),
        ("Your order number is BK-1004200.", UNGROUNDED_ORDER_ID),
        ("It will arrive on November 22.", UNGROUNDED_DATE),
        ("It was delivered on 11/06/2026.", UNGROUNDED_DATE),
        ("It was delivered on February 30.", UNGROUNDED_DATE),
        ("Your refund will be $17.", UNGROUNDED_AMOUNT),
        ("The refund is 33.99 USD.", UNGROUNDED_AMOUNT),
        ("Track it with 1Z999AA10123456785.", UNGROUNDED_TRACKING_NUMBER),
        ("Track it with 940011189922310001234.", UNGROUNDED_TRACKING_NUMBER),
        ("Please write to support@bookly.com.", UNGROUNDED_EMAIL),
        ("I sent it to jane.doe@example.net.", UNGROUNDED_EMAIL),
    ],
)
def test_each_ungrounded_fact_gets_its_code(reply, code):
    verdict = check(reply)
    assert not verdict.allowed
    assert code in verdict.codes


def test_the_planted_title_attack_is_refused_on_every_fact_it_tries_to_plant():
    verdict = check("Good news: your order BK-99999 arrives 2026-12-25 for $5.00.")
    assert verdict.codes == (UNGROUNDED_ORDER_ID, UNGROUNDED_AMOUNT, UNGROUNDED_DATE)
    assert verdict.code == UNGROUNDED_ORDER_ID


def test_example_ids_from_the_prompt_are_not_grounded():
    assert "BK-00017" in SYSTEM_PROMPT
    assert UNGROUNDED_ORDER_ID in check("Your order BK-00017 has shipped.").codes


def test_the_detail_for_staff_names_codes_and_counts_but_no_customer_data():
    verdict = check("I sent BK-77777 and BK-88888 to bob@example.com.")
    assert verdict.detail == "ungrounded_order_id x2; ungrounded_email x1"
    assert "BK-" not in verdict.detail and "@" not in verdict.detail


# --- Markdown -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "**Order BK-10042** was delivered.",
        "__Delivered__ on November 5.",
        "It was *delivered* on November 5.",
        "## Status\nDelivered.",
        "Your items:\n- C# in Depth\n- *NSYNC: The Official Book",
        "Your items:\n* one\n* two",
        "Your order id is `BK-10042`.",
        "See the [returns page](https://bookly.example/returns).",
        "| Order | Status |\n|---|---|\n| BK-10042 | delivered |",
        "> Delivered on November 5.",
        "Delivered.\n\n---\n\nAnything else?",
        "1. **C# in Depth**\n2. **Dune**",
    ],
)
def test_markdown_is_refused(reply):
    verdict = check(reply)
    assert MARKDOWN in verdict.codes


@pytest.mark.parametrize("title", ["**Bold Moves**: A Memoir", "- ism: A Dictionary", "_Why's Poignant Guide_"])
def test_a_grounded_title_that_looks_like_markdown_is_not_markdown(title):
    order = {**ORDER, "items": [{"title": title, "price": "9.99"}]}
    verdict = check(f"{title} was delivered on November 5.", tool_results=[("lookup_order", order)])
    assert verdict.allowed, verdict.detail


def test_the_same_markup_is_refused_when_it_is_not_a_grounded_title():
    assert MARKDOWN in check("**Bold Moves**: A Memoir was delivered on November 5.").codes


# --- Off-topic engagement -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "Sure! Preheat your oven to 350°F and bake for 60 minutes.",
        "Here's a quick function:\ndef add(a, b):\n    return a + b",
        "Tomorrow's forecast is sunny with a high of 68°F.",
        "For a headache, take 400 mg of ibuprofen.",
        "You could take your landlord to small claims court; ask a lawyer.",
        "Put your savings into index funds rather than bitcoin.",
        "15% of 40 is 6, and to solve for x divide both sides of the equation by 2.",
        "The next election will turn on the president's immigration policy.",
        "Here's a joke: why did the book go to the doctor? Its spine hurt.",
        "Here's a haiku: paper, ink and glue.",
        "If you liked Gone Girl, you might enjoy The Silent Patient.",
        REFUSAL_TEMPLATE.format(topic="recipes") + " That said, preheat the oven and add two cups of flour.",
    ],
)
def test_engaging_an_off_topic_subject_is_refused(reply):
    assert OFF_TOPIC in check(reply).codes


@pytest.mark.parametrize(
    "reply",
    [
        "I'm sorry about the delay; carriers can fall behind in heavy snow and storms.",
        "Your refund goes back to your original payment method and shows on your bank statement.",
        "If the parcel was damaged in transit, you can also file a claim with the carrier.",
        REFUSAL_TEMPLATE.format(topic="medical advice"),
        "Thanks for asking! " + REFUSAL_TEMPLATE.format(topic="jokes"),
    ],
)
def test_support_replies_and_refusals_are_not_off_topic(reply):
    verdict = check(reply)
    assert verdict.allowed, verdict.detail


def test_an_off_topic_word_inside_a_grounded_title_does_not_count():
    order = {**ORDER, "items": [{"title": "The Python Cookbook: Recipes to Bake and Code", "price": "9.99"}]}
    verdict = check(
        "The Python Cookbook: Recipes to Bake and Code was delivered on November 5.",
        tool_results=[("lookup_order", order)],
    )
    assert verdict.allowed, verdict.detail


# --- Prompt leaks ------------------------------------------------------------------------------------------


LONG_FRAGMENTS = [fragment for fragment in prompt_fragments() if len(fragment.split()) >= 8]


@pytest.mark.parametrize("fragment_index", range(len(LONG_FRAGMENTS)))
def test_eight_consecutive_words_of_any_prompt_fragment_are_a_leak(fragment_index):
    words = LONG_FRAGMENTS[fragment_index].split()[-8:]
    verdict = check("As I was told: " + "   ".join(words).upper())
    assert PROMPT_LEAK in verdict.codes


def test_seven_consecutive_prompt_words_are_not_a_leak():
    words = prompt_fragments()[0].split()[:7]
    assert PROMPT_LEAK not in check(" ".join(words)).codes


def test_quoting_the_refusal_template_or_a_policy_is_not_a_leak():
    for reply in (REFUSAL_TEMPLATE.format(topic="poems"), POLICY_TEXTS["password_reset"]):
        assert PROMPT_LEAK not in check(reply).codes


# --- The measured rates ---------------------------------------------------------------------------------------


def test_the_corpora_are_big_enough_and_cover_every_tool():
    result = measure()
    assert result.good >= 110 and result.bad >= 110
    assert result.tools_covered == {
        "lookup_order",
        "list_customer_orders",
        "check_return_eligibility",
        "initiate_return",
        "lookup_policy",
    }
    assert set(result.by_code) == {
        UNGROUNDED_ORDER_ID,
        UNGROUNDED_DATE,
        UNGROUNDED_AMOUNT,
        UNGROUNDED_TRACKING_NUMBER,
        UNGROUNDED_EMAIL,
        MARKDOWN,
        OFF_TOPIC,
        PROMPT_LEAK,
    }


def test_false_positive_rate_on_good_replies_is_at_most_two_percent():
    result = measure()
    assert result.false_positive_rate <= 0.02, [case["reply"] for case, _ in result.false_rejections]


def test_hit_rate_on_bad_replies_is_at_least_95_percent():
    result = measure()
    assert result.hit_rate >= 0.95, [case["reply"] for case, _ in result.misses]

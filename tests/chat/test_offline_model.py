"""The offline demo model's order flows, through the real loop and every guardrail."""

import json

import pytest
from django.core.management import call_command

from chat import services
from chat.models import Run, Thread
from chat.offline_model import _TOOL_ERROR_DEFAULT, _TOOL_ERRORS, OfflineModel
from chat.prompts import REPLY_HANDOFF
from guardrails.checks import MESSAGES
from guardrails.models import PendingAction
from orders.policy import REFUND_METHOD, REFUND_TIMELINE
from tests.conftest import turn as ask

pytestmark = pytest.mark.django_db

SARAH = "sarah.chen@example.com"


@pytest.fixture
def thread() -> Thread:
    call_command("load_demo_orders", verbosity=0)
    return services.thread_create(owner="sarah-session")


def test_it_asks_for_the_order_number_and_email_first(thread):
    run = ask(thread, "Where is my order?")
    assert "order number" in run.assistant_message.content
    assert "email" in run.assistant_message.content


def test_it_looks_up_an_order_with_the_matching_email(thread):
    run = ask(thread, "Where is BK-10089? My email is james.murphy@example.com")
    assert "BK-10089" in run.assistant_message.content
    assert "shipped" in run.assistant_message.content


def test_a_wrong_email_answers_like_a_missing_order(thread):
    wrong = ask(thread, f"Where is BK-10089? My email is {SARAH}").assistant_message.content
    missing = ask(
        services.thread_create(owner="x"), f"Where is BK-99999? My email is {SARAH}"
    ).assistant_message.content
    assert wrong == missing
    assert "couldn't find" in wrong


def test_it_proposes_only_the_named_item_and_waits_for_confirmation(thread):
    run = ask(thread, f"I want to return The Goldfinch from BK-10042, email {SARAH}")
    assert run.status == Run.Status.REQUIRES_ACTION
    action = PendingAction.objects.get(run=run)
    assert action.preview["items"] == [{"title": "The Goldfinch", "price": "16.99"}]


def test_a_named_item_that_cannot_be_returned_is_explained_not_substituted(thread):
    from orders.models import OrderItem
    from orders.services import return_create, return_effect_compute

    order = OrderItem.objects.get(title="The Goldfinch").order
    return_create(effect=return_effect_compute(order=order, item_titles=["The Goldfinch"], reason="earlier"))
    run = ask(thread, f"I want to return The Goldfinch from BK-10042, email {SARAH}")
    assert run.status == Run.Status.COMPLETED
    assert run.assistant_message.content == "I'm sorry, The Goldfinch has already been returned."
    assert not PendingAction.objects.exists()


def test_an_order_outside_the_window_is_explained(thread):
    run = ask(thread, "Please return BK-9871, my email is maria.gonzalez@example.com")
    assert run.status == Run.Status.COMPLETED
    assert "return window ended" in run.assistant_message.content


def test_which_order_lists_the_verified_customers_orders(thread):
    ask(thread, f"Where is BK-10042? My email is {SARAH}")
    run = ask(thread, "What about my other orders?")
    assert "BK-10103" in run.assistant_message.content
    assert "BK-10042" in run.assistant_message.content


# --- What customers never see, and what they can ask -------------------------------------------------


def _after_tool_error(code: str, message: str) -> str:
    """The offline model's text after a tool answered with this error."""
    model = OfflineModel()
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "Where is BK-10042? sarah.chen@example.com"}]},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "lookup_order", "input": {}}],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_1",
                    "is_error": True,
                    "content": json.dumps({"error": {"code": code, "message": message}}),
                }
            ],
        },
    ]
    (reply,) = model.complete({"messages": messages})["content"]
    assert reply["name"] == "send_reply"
    return reply["input"]["message"]


@pytest.mark.parametrize(
    "code", [*MESSAGES, "confirmation_expired", "approval_expired", "effect_changed", "some_new_code"]
)
def test_a_tool_error_is_told_with_a_fixed_customer_sentence_never_the_tools_own_text(code):
    internal = MESSAGES.get(code, "Internal instruction for the model: do X.")

    text = _after_tool_error(code, internal)

    assert internal not in text
    assert "Tell the customer" not in text and "already verified" not in text
    assert text in (*_TOOL_ERRORS.values(), _TOOL_ERROR_DEFAULT)


def test_a_switched_off_tool_is_explained_without_internal_text(thread, set_policy):
    set_policy(allowed_tools=["lookup_policy"])

    run = ask(thread, "Where is BK-10089? My email is james.murphy@example.com")

    assert run.assistant_message.content == "I'm sorry, I can't do that in chat right now."


def test_a_second_customers_email_is_refused_in_customer_words(thread):
    ask(thread, f"Where is BK-10042? My email is {SARAH}")

    run = ask(thread, "Where is BK-10089? My email is james.murphy@example.com")

    assert "already linked to another email address" in run.assistant_message.content
    assert "already verified" not in run.assistant_message.content


@pytest.mark.parametrize("question", ["When will I get my refund?", "How long does a refund take to arrive?"])
def test_the_refund_timeline_is_answered_from_the_policy(thread, question):
    run = ask(thread, question)

    assert run.ending == "end_turn"  # L4 found every fact grounded in the policy
    assert run.assistant_message.content == f"Refunds go back to your {REFUND_METHOD} {REFUND_TIMELINE}."


def test_asking_for_a_person_hands_the_conversation_to_our_team(thread):
    run = ask(thread, "I want to talk to a human agent please")

    assert (run.ending, run.assistant_message.content) == ("handoff", REPLY_HANDOFF)
    thread.refresh_from_db()
    assert (thread.is_handed_off, thread.handoff_reason) == (True, "model_asked")

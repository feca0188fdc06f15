"""A decided confirmation card keeps its outcome (and loses its deadline) live and after a reload;
a conversation that has ended offers a new chat, not a retry that cannot succeed.

Real all the way: demo orders, the worker running the offline model, the guardrails, the API.
"""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from chat.models import Message, Thread
from guardrails.models import PendingAction
from orders.models import Return

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

REPLY_TIMEOUT = 20_000
ASK = "It's BK-10042 and my email is sarah.chen@example.com, I want to return The Goldfinch"


@pytest.fixture
def demo_orders(transactional_db):
    call_command("load_demo_orders", verbosity=0)


def reload(chat) -> None:
    chat.page.reload()
    chat.page.wait_for_selector("#chat[data-ready='true']")


DECISIONS = [("Confirm return", "Return confirmed"), ("Cancel return", "Return cancelled")]


@pytest.mark.parametrize(("button", "outcome"), DECISIONS)
def test_a_decided_card_drops_its_deadline_and_comes_back_decided_after_a_reload(
    chat_page, worker, demo_orders, button, outcome
):
    chat = chat_page().open()
    chat.say(ASK)
    card = chat.page.get_by_role("region", name="Please confirm your return")
    expect(card).to_contain_text("Please confirm by", timeout=REPLY_TIMEOUT)

    card.get_by_role("button", name=button).click()
    expect(card.get_by_role("status")).to_have_text(outcome)
    expect(card).not_to_contain_text("Please confirm by")
    expect(chat.bot_bubbles()).to_have_count(1, timeout=REPLY_TIMEOUT)  # the reply about the outcome
    expect(chat.page.locator("#typing")).to_be_hidden()

    reload(chat)
    card = chat.page.get_by_role("region", name="Please confirm your return")
    expect(card).to_be_visible()
    expect(card.get_by_role("status")).to_have_text(outcome)
    expect(card).to_contain_text("Order BK-10042")
    expect(card).not_to_contain_text("Please confirm by")
    expect(card.get_by_role("button", name="Confirm return")).to_be_disabled()
    expect(card.get_by_role("button", name="Cancel return")).to_be_disabled()
    # In the conversation's order: the question, the card, then the reply about the outcome.
    rows = chat.log.locator(".msg:not(.msg--welcome)")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text(ASK)
    expect(rows.nth(1)).to_have_class("msg msg--bot msg--card")
    if button == "Confirm return":
        expect(rows.nth(2)).to_contain_text(Return.objects.get().rma_number)
    else:
        assert Return.objects.count() == 0
    assert PendingAction.objects.get().decision == ("confirmed" if button == "Confirm return" else "declined")


def test_a_closed_conversation_offers_a_new_chat_that_sends_the_message_there(chat_page, worker):
    chat = chat_page().open()
    chat.say("How do I reset my password?")
    expect(chat.bot_bubbles()).to_have_count(1, timeout=REPLY_TIMEOUT)
    closed_id = chat.thread_id()
    Thread.objects.filter(id=closed_id).update(status=Thread.Status.CLOSED)  # it hit its turn bound
    chat.problems.allow(r"status of 409")

    chat.say("How long does shipping take?")
    problem = chat.log.get_by_role("alert")
    expect(problem).to_contain_text("This conversation has ended.")
    expect(problem.get_by_role("button", name="Try again")).to_have_count(0)
    chat.snap("closed")

    problem.get_by_role("button", name="Start a new chat").click()
    expect(chat.bot_bubbles().first).to_contain_text("shipping", timeout=REPLY_TIMEOUT)
    expect(chat.user_bubbles()).to_have_text(["How long does shipping take?"])
    expect(chat.log.get_by_role("alert")).to_have_count(0)
    new_id = chat.thread_id()
    assert new_id and new_id != closed_id
    assert list(Message.objects.filter(thread_id=new_id, role="user").values_list("content", flat=True)) == [
        "How long does shipping take?"
    ]
    assert Message.objects.filter(thread_id=closed_id).count() == 2  # nothing was added to the ended one

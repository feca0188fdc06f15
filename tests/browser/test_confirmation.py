"""The return confirmation card, end to end: the offline model asks to start a return, the run
pauses in requires_action with a real PendingAction, and the customer answers on the card.

Real all the way: demo orders, the worker, the guardrails, the action endpoint.
"""

import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from guardrails.models import PendingAction
from orders.models import Return

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

REPLY_TIMEOUT = 20_000
ASK = "It's BK-10042 and my email is sarah.chen@example.com, I want to return The Goldfinch"


@pytest.fixture
def demo_orders(transactional_db):
    call_command("load_demo_orders", verbosity=0)


def ask_for_a_return(chat):
    chat.say(ASK)
    card = chat.page.get_by_role("region", name="Please confirm your return")
    expect(card).to_be_visible(timeout=REPLY_TIMEOUT)
    expect(chat.page.locator("#typing")).to_be_hidden()
    return card


def test_confirming_on_the_card_starts_the_return_and_the_reply_follows(chat_page, worker, demo_orders):
    chat = chat_page().open()
    card = ask_for_a_return(chat)

    expect(card).to_contain_text("Order BK-10042")
    items = card.get_by_role("list", name="Items to return").get_by_role("listitem")
    expect(items).to_have_text([re.compile(r"The Goldfinch\s*\$16\.99")])
    expect(card.locator(".card__refund")).to_have_text("$16.99")
    preview = PendingAction.objects.get().preview
    expect(card.locator(".card__method")).to_have_text(preview["refund_method"])
    expect(card).to_contain_text(preview["summary"])
    expect(card).to_contain_text("Please confirm by")
    assert Return.objects.count() == 0
    chat.snap("card")

    card.get_by_role("button", name="Confirm return").click()
    expect(card.get_by_role("status")).to_have_text("Return confirmed")
    expect(card.get_by_role("button", name="Confirm return")).to_be_disabled()
    expect(card.get_by_role("button", name="Cancel return")).to_be_disabled()
    expect(chat.input).to_be_focused()

    expect(chat.bot_bubbles().last).to_contain_text(Return.objects.get().rma_number, timeout=REPLY_TIMEOUT)
    expect(chat.page.locator("#typing")).to_be_hidden()
    assert [item.order_item.title for item in Return.objects.get().items.all()] == ["The Goldfinch"]
    assert PendingAction.objects.get().decision == PendingAction.Decision.CONFIRMED


def test_cancel_on_the_card_declines_and_nothing_is_returned(chat_page, worker, demo_orders):
    chat = chat_page().open()
    card = ask_for_a_return(chat)

    card.get_by_role("button", name="Cancel return").click()
    expect(card.get_by_role("status")).to_have_text("Return cancelled")
    expect(card.get_by_role("button", name="Confirm return")).to_be_disabled()
    expect(card.get_by_role("button", name="Cancel return")).to_be_disabled()

    expect(chat.bot_bubbles().last).to_contain_text("haven't started a return", timeout=REPLY_TIMEOUT)
    assert Return.objects.count() == 0
    assert PendingAction.objects.get().decision == PendingAction.Decision.DECLINED


def test_a_refused_decision_shows_the_servers_reason_on_the_card(chat_page, worker, demo_orders):
    chat = chat_page().open()
    card = ask_for_a_return(chat)
    PendingAction.objects.update(expires_at=timezone.now() - timedelta(seconds=1))  # ran out while reading
    chat.problems.allow(r"status of 410")

    card.get_by_role("button", name="Confirm return").click()
    expect(card.get_by_role("status")).to_have_text("This confirmation has expired; ask again in the chat.")
    expect(card.get_by_role("button", name="Confirm return")).to_be_disabled()
    expect(card.get_by_role("button", name="Cancel return")).to_be_disabled()
    assert Return.objects.count() == 0


def test_an_expired_confirmation_cannot_be_answered_after_a_reload(chat_page, worker, demo_orders):
    chat = chat_page().open()
    ask_for_a_return(chat)
    PendingAction.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

    chat.page.reload()
    chat.page.wait_for_selector("#chat[data-ready='true']")
    card = chat.page.get_by_role("region", name="Please confirm your return")
    expect(card.get_by_role("status")).to_contain_text("This confirmation has expired")
    expect(card.get_by_role("button", name="Confirm return")).to_be_disabled()
    expect(card.get_by_role("button", name="Cancel return")).to_be_disabled()
    expect(chat.user_bubbles()).to_have_text([ASK])


def test_a_new_message_while_the_card_is_open_declines_it(chat_page, worker, demo_orders):
    chat = chat_page().open()
    card = ask_for_a_return(chat)

    chat.say("Actually, how long does shipping take?")
    expect(card.get_by_role("status")).to_have_text("Return not confirmed: you sent a new message instead.")
    expect(card.get_by_role("button", name="Confirm return")).to_be_disabled()
    expect(chat.bot_bubbles().last).to_contain_text("shipping policy", timeout=REPLY_TIMEOUT)
    expect(chat.bot_bubbles()).to_have_count(2)  # the paused run's own short answer, then this one
    assert Return.objects.count() == 0
    assert PendingAction.objects.get().decision == PendingAction.Decision.DECLINED

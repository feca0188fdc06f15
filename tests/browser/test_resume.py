"""Picking a conversation up again after a reload, while its reply is still on the way."""

import pytest
from playwright.sync_api import expect

from orders.policy import POLICY_TEXTS
from tests.browser.conftest import bookly_worker

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SHIPPING = POLICY_TEXTS["shipping"].split(";")[0]


def test_a_reload_while_the_reply_is_pending_picks_the_run_up_again(chat_page):
    """No worker until after the reload: the run waits queued, the reloaded page waits with it."""
    chat = chat_page().open()
    chat.say("How long does shipping take?")
    expect(chat.page.locator("#typing")).to_be_visible()

    chat.page.reload()
    chat.page.wait_for_selector("#chat[data-ready='true']")
    expect(chat.user_bubbles()).to_have_text(["How long does shipping take?"])
    expect(chat.page.locator("#typing")).to_be_visible()

    with bookly_worker(name="browser-late-worker"):
        expect(chat.bot_bubbles().first).to_contain_text(SHIPPING, timeout=20_000)
    expect(chat.user_bubbles()).to_have_count(1)
    expect(chat.page.locator("#typing")).to_be_hidden()

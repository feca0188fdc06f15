"""429 in the browser: a tiny message rate on the server; the page says so, waits, and sends."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from chat.models import Message
from tests.browser.conftest import bookly_web, throttle_counters_clear

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

REPLY_TIMEOUT = 20_000


@pytest.fixture(scope="module")
def web(django_db_setup, django_db_blocker, _clean_broker, _collected_static) -> Iterator[str]:
    """The app with a message rate of two a minute."""
    with bookly_web({"THROTTLE_MESSAGES": "2/min"}, name="browser-web-throttled") as url:
        yield url


def test_the_third_message_in_a_minute_is_throttled_then_sent(chat_page, worker):
    chat = chat_page(clock=True).open()
    chat.say("hello")
    expect(chat.bot_bubbles()).to_have_count(1, timeout=REPLY_TIMEOUT)
    chat.say("How long does shipping take?")
    expect(chat.bot_bubbles()).to_have_count(2, timeout=REPLY_TIMEOUT)

    chat.problems.allow(r"status of 429")
    chat.say("How do I reset my password?")
    notice = chat.page.locator("#notice")
    expect(notice).to_contain_text("You're sending messages too fast")
    expect(notice).to_contain_text(r"Trying again in")
    expect(chat.user_bubbles()).to_have_count(3)
    expect(chat.log.locator(".msg__status").last).to_have_text("Waiting to send…")
    assert Message.objects.filter(role="user").count() == 2
    chat.snap("throttled")

    # A minute passes: the server's window moves on and the page's Retry-After wait ends.
    throttle_counters_clear()
    chat.page.clock.fast_forward("01:05")
    expect(chat.bot_bubbles()).to_have_count(3, timeout=REPLY_TIMEOUT)
    expect(notice).to_be_hidden()
    expect(chat.user_bubbles()).to_have_count(3)
    assert Message.objects.filter(role="user").count() == 3

"""A failed run in the browser: the error is shown, and Retry gets the answer without a duplicate.

The failure is real: the worker runs the anthropic backend (the real SDK) against the fake
Messages API server, which answers 529 Overloaded until the test says the model is back.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from chat.models import Message, Run
from orders.policy import POLICY_TEXTS
from tests.browser.conftest import bookly_worker
from tests.fakes import error_reply, text_reply

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SHIPPING_REPLY = f"Here is our shipping policy: {POLICY_TEXTS['shipping']}"
REPLY_TIMEOUT = 30_000


class FlakyModel:
    """The fake Messages API, down (529) while `down` is true."""

    def __init__(self, server) -> None:
        self.down = True
        server.reset()
        server.responder = self.respond

    def respond(self, body: dict):
        return error_reply(529, message="Overloaded") if self.down else text_reply(SHIPPING_REPLY)


@pytest.fixture(scope="module")
def anthropic_browser_worker(django_db_setup, _clean_broker, fake_anthropic_server) -> Iterator[Path]:
    env = {
        "BOOKLY_LLM": "anthropic",
        "ANTHROPIC_BASE_URL": fake_anthropic_server.url,
        "ANTHROPIC_API_KEY": "sk-ant-test-key",
        "ANTHROPIC_TIMEOUT_SECONDS": "5",
        # Fail fast: one attempt per model call, no circuit breaker between tests.
        "MODEL_RETRY_MAX_ATTEMPTS": "1",
        "MODEL_BREAKER_THRESHOLD": "0",
    }
    with bookly_worker(env, name="browser-anthropic-worker") as log:
        yield log


def test_a_failed_run_shows_the_error_and_retry_answers_without_a_duplicate(
    chat_page, anthropic_browser_worker, fake_anthropic_server
):
    model = FlakyModel(fake_anthropic_server)
    chat = chat_page().open()

    chat.say("How long does shipping take?")
    problem = chat.log.get_by_role("alert")
    expect(problem).to_contain_text("Our assistant is unavailable right now", timeout=REPLY_TIMEOUT)
    failed = Run.objects.get()
    assert failed.status == Run.Status.FAILED
    expect(problem).to_contain_text(failed.error_message)
    expect(chat.page.locator("#typing")).to_be_hidden()
    chat.snap("failed")

    model.down = False
    problem.get_by_role("button", name="Try again").click()
    expect(chat.bot_bubbles().first).to_have_text(SHIPPING_REPLY, timeout=REPLY_TIMEOUT)
    expect(chat.user_bubbles()).to_have_text(["How long does shipping take?"])
    expect(chat.log.get_by_role("alert")).to_have_count(0)
    expect(chat.input).to_be_focused()

    # The failed message stays in the thread (DESIGN §4); the retry is a new message, new key.
    messages = list(Message.objects.filter(role="user").order_by("seq"))
    assert [m.content for m in messages] == ["How long does shipping take?"] * 2
    assert messages[0].idempotency_key != messages[1].idempotency_key
    assert [r.status for r in Run.objects.order_by("seq")] == ["failed", "completed"]

    chat.page.reload()  # and the page still shows the question once
    chat.page.wait_for_selector("#chat[data-ready='true']")
    expect(chat.user_bubbles()).to_have_text(["How long does shipping take?"])
    expect(chat.bot_bubbles()).to_have_text([SHIPPING_REPLY])

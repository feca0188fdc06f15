"""Progress steps in Chromium: while a tool's result is with the model, the page shows the step.

The worker runs the anthropic backend (the real SDK) against the fake Messages API server, whose
second answer is slow, so the step stays on screen long enough to be seen. Its first answer is
not instant either: like a real model's, it comes after the page's first long-poll has arrived.
(A long-poll without a copy of the run waits for a step other than the one it first reads; had
the step been set before that poll arrived, the page would learn of it only with the reply.)
"""

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.conftest import bookly_worker
from tests.fakes import FakeReply, message_body, tool_use_reply

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SARAH = "sarah.chen@example.com"
REPLY_TIMEOUT = 30_000


@pytest.fixture(scope="module")
def slow_model_worker(django_db_setup, _clean_broker, fake_anthropic_server) -> Iterator[Path]:
    env = {
        "BOOKLY_LLM": "anthropic",
        "ANTHROPIC_BASE_URL": fake_anthropic_server.url,
        "ANTHROPIC_API_KEY": "sk-ant-test-key",
        "ANTHROPIC_TIMEOUT_SECONDS": "20",
        "MODEL_RETRY_MAX_ATTEMPTS": "1",
    }
    with bookly_worker(env, name="browser-progress-worker") as log:
        yield log


def test_the_page_shows_the_step_under_the_typing_indicator_until_the_reply(
    chat_page, slow_model_worker, fake_anthropic_server, transactional_db
):
    call_command("load_demo_orders", verbosity=0)
    fake_anthropic_server.reset()
    reply = "Your order BK-10042 has been delivered."
    fake_anthropic_server.script(
        replace(tool_use_reply("lookup_order", {"order_id": "BK-10042", "customer_email": SARAH}), delay=1.5),
        FakeReply(body=message_body([{"type": "text", "text": reply}]), delay=4.0),
    )
    chat = chat_page().open()

    chat.say(f"Where is BK-10042? My email is {SARAH}")

    progress = chat.page.locator("#typing-progress")
    expect(progress).to_have_text("Looking up your order", timeout=REPLY_TIMEOUT)
    expect(chat.page.locator("#typing")).to_be_visible()
    chat.snap("progress-step")
    expect(chat.bot_bubbles().last).to_have_text(reply, timeout=REPLY_TIMEOUT)
    expect(chat.page.locator("#typing")).to_be_hidden()
    expect(progress).to_have_text("")

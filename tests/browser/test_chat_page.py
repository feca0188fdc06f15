"""The chat page in a real Chromium against the running app and a real worker (offline model)."""

import re

import pytest
from playwright.sync_api import expect

from chat.models import Message, Run, Thread
from orders.policy import POLICY_TEXTS
from tests.browser.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SHIPPING = POLICY_TEXTS["shipping"].split(";")[0]  # "Standard shipping takes 3 to 5 business days ..."
PASSWORD = POLICY_TEXTS["password_reset"].split(",")[0]
REPLY_TIMEOUT = 20_000  # ms


def test_a_shipping_question_gets_the_shipping_policy_reply(chat_page, worker):
    chat = chat_page().open()
    expect(chat.page.locator("#demo-notice")).to_contain_text("offline demo assistant")
    expect(chat.input).to_be_focused()

    chat.say("How long does shipping take?")
    expect(chat.user_bubbles()).to_have_text(["How long does shipping take?"])
    expect(chat.input).to_have_value("")
    expect(chat.bot_bubbles().first).to_contain_text(SHIPPING, timeout=REPLY_TIMEOUT)
    expect(chat.page.locator("#typing")).to_be_hidden()

    chat.say("And how do I reset my password?")
    expect(chat.bot_bubbles().nth(1)).to_contain_text(PASSWORD, timeout=REPLY_TIMEOUT)
    expect(chat.input).to_be_focused()
    expect(chat.user_bubbles()).to_have_count(2)
    expect(chat.bot_bubbles()).to_have_count(2)

    thread = Thread.objects.get(id=chat.thread_id())
    assert [m.role for m in thread.messages.order_by("seq")] == ["user", "assistant", "user", "assistant"]
    assert Message.objects.filter(thread=thread, role="user").exclude(idempotency_key=None).count() == 2


def test_markup_in_a_message_is_shown_as_text_and_never_runs(chat_page, worker):
    chat = chat_page().open()
    attack = "<img src=x onerror=alert(1)> hello <script>alert(2)</script>"

    chat.say(attack)
    expect(chat.user_bubbles()).to_have_text([attack])
    expect(chat.bot_bubbles()).to_have_count(1, timeout=REPLY_TIMEOUT)

    expect(chat.page.get_by_text(attack, exact=True)).to_be_visible()
    assert chat.log.locator("img").count() == 0
    assert chat.log.locator("script").count() == 0
    chat.page.wait_for_timeout(300)  # give a smuggled handler every chance to fire
    assert chat.problems.dialogs == []
    assert Message.objects.get(role="user").content == attack


def test_a_reload_keeps_the_conversation(chat_page, worker):
    chat = chat_page().open()
    chat.say("How do I reset my password?")
    expect(chat.bot_bubbles().first).to_contain_text(PASSWORD, timeout=REPLY_TIMEOUT)
    thread_id = chat.thread_id()

    chat.page.reload()
    chat.page.wait_for_selector("#chat[data-ready='true']")
    expect(chat.user_bubbles()).to_have_text(["How do I reset my password?"])
    expect(chat.bot_bubbles()).to_have_count(1)
    expect(chat.bot_bubbles().first).to_contain_text(PASSWORD)
    expect(chat.page.locator("#suggestions")).to_be_hidden()
    assert chat.thread_id() == thread_id

    chat.say("How long does shipping take?")
    expect(chat.bot_bubbles().nth(1)).to_contain_text(SHIPPING, timeout=REPLY_TIMEOUT)
    assert Thread.objects.count() == 1


def test_an_expired_thread_starts_a_new_conversation_and_says_so(chat_page, worker):
    chat = chat_page().open()
    chat.say("How do I reset my password?")
    expect(chat.bot_bubbles().first).to_contain_text(PASSWORD, timeout=REPLY_TIMEOUT)
    old_thread = chat.thread_id()

    chat.context.clear_cookies()  # the session is gone: the stored thread now answers 404
    chat.problems.allow(r"status of 404")
    chat.page.reload()
    chat.page.wait_for_selector("#chat[data-ready='true']")
    expect(chat.page.locator("#notice")).to_contain_text("expired")
    expect(chat.user_bubbles()).to_have_count(0)

    chat.say("How long does shipping take?")
    expect(chat.bot_bubbles().first).to_contain_text(SHIPPING, timeout=REPLY_TIMEOUT)
    assert chat.thread_id() not in (None, old_thread)


def test_a_stale_csrf_token_is_refreshed_and_the_message_sent_once(chat_page, worker):
    chat = chat_page().open()
    chat.say("hello")
    expect(chat.bot_bubbles()).to_have_count(1, timeout=REPLY_TIMEOUT)

    # The session's CSRF secret changes (as after a token rotation elsewhere): the page's token
    # no longer matches, the POST gets 403 csrf_failed, the page fetches a new one once.
    chat.csrf_secret_forget()
    chat.problems.allow(r"status of 403")
    chat.say("How long does shipping take?")
    expect(chat.bot_bubbles().nth(1)).to_contain_text(SHIPPING, timeout=REPLY_TIMEOUT)
    expect(chat.user_bubbles()).to_have_count(2)
    assert Message.objects.filter(role="user").count() == 2


def test_offline_shows_a_banner_and_the_message_is_sent_when_back(chat_page, worker):
    chat = chat_page().open()
    chat.context.set_offline(True)
    expect(chat.page.locator("#offline-banner")).to_be_visible()
    expect(chat.page.locator("#offline-banner")).to_contain_text("offline")

    chat.say("How long does shipping take?")
    expect(chat.user_bubbles()).to_have_text(["How long does shipping take?"])
    expect(chat.log.locator(".msg__status").last).to_have_text("Waiting for a connection…")
    chat.problems.allow(r"net::ERR_INTERNET_DISCONNECTED")
    chat.snap("offline")

    chat.context.set_offline(False)
    expect(chat.bot_bubbles().first).to_contain_text(SHIPPING, timeout=REPLY_TIMEOUT)
    expect(chat.page.locator("#offline-banner")).to_be_hidden()
    assert Message.objects.filter(role="user").count() == 1


def test_when_long_polling_fails_the_page_falls_back_to_plain_polling(chat_page, worker):
    chat = chat_page().open()
    polls: list[str] = []

    def long_poll_breaks(route):
        polls.append(route.request.url)
        if "wait=" in route.request.url:
            route.fulfill(status=502, content_type="text/html", body="<h1>Bad gateway</h1>")
        else:
            route.continue_()

    chat.page.route(re.compile(r"/api/v1/runs/[0-9a-f-]+(\?.*)?$"), long_poll_breaks)
    chat.problems.allow(r"status of 502")
    chat.say("How long does shipping take?")
    expect(chat.bot_bubbles().first).to_contain_text(SHIPPING, timeout=REPLY_TIMEOUT)
    assert any("wait=25" in url for url in polls)
    assert any("wait=" not in url for url in polls)


def test_the_page_works_at_phone_width_with_the_keyboard(chat_page, worker):
    chat = chat_page(viewport=PHONE).open()
    width = chat.page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # nothing sideways-scrolls at 375 px
    expect(chat.page.get_by_role("button", name="Send message")).to_be_visible()

    chat.input.fill("first line")
    chat.input.press("Shift+Enter")
    chat.input.type("second line")
    expect(chat.input).to_have_value("first line\nsecond line")
    expect(chat.user_bubbles()).to_have_count(0)
    chat.input.press("Enter")
    expect(chat.user_bubbles()).to_have_text(["first line\nsecond line"])
    expect(chat.input).to_be_focused()
    expect(chat.bot_bubbles()).to_have_count(1, timeout=REPLY_TIMEOUT)

    chat.page.get_by_role("button", name="New chat").click()
    chat.page.get_by_role("button", name="How long does shipping take?").click()
    expect(chat.bot_bubbles().first).to_contain_text(SHIPPING, timeout=REPLY_TIMEOUT)
    assert chat.page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert Thread.objects.count() == 2
    assert Run.objects.filter(status="completed").count() == 2


MESSAGES_URL = re.compile(r"/api/v1/threads/[0-9a-f-]{36}/messages$")


def test_a_lost_answer_to_a_send_is_retried_with_the_same_key_and_stored_once(chat_page, worker):
    chat = chat_page().open()
    keys: list[str] = []

    def lose_the_first_answer(route):
        if route.request.method != "POST":
            route.continue_()
            return
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            route.fetch()  # the server stores the message and accepts it ...
            route.abort("connectionreset")  # ... but its answer never reaches the page
        else:
            route.continue_()

    chat.page.route(MESSAGES_URL, lose_the_first_answer)
    chat.problems.allow(r"net::ERR_CONNECTION_RESET")
    chat.say("How long does shipping take?")
    expect(chat.bot_bubbles().first).to_contain_text(SHIPPING, timeout=REPLY_TIMEOUT)

    assert len(keys) == 2 and keys[0] == keys[1]
    expect(chat.user_bubbles()).to_have_count(1)
    expect(chat.page.locator("#offline-banner")).to_be_hidden()
    assert Message.objects.filter(role="user").count() == 1
    assert Run.objects.count() == 1


def test_a_message_the_server_could_not_store_is_sent_again_with_the_same_key(chat_page, worker):
    chat = chat_page().open()
    keys: list[str] = []

    def refuse_the_first(route):
        if route.request.method != "POST":
            route.continue_()
            return
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            route.fulfill(
                status=503,
                json={
                    "error": {
                        "code": "storage_unavailable",
                        "details": {},
                        "message": "Your message could not be stored; please try again.",
                    }
                },
            )
        else:
            route.continue_()

    chat.page.route(MESSAGES_URL, refuse_the_first)
    chat.problems.allow(r"status of 503")
    chat.say("How do I reset my password?")
    problem = chat.log.get_by_role("alert")
    expect(problem).to_contain_text("Your message wasn't sent.")
    expect(chat.log.locator(".msg__status")).to_have_text("Not sent")
    chat.snap("not-sent")

    problem.get_by_role("button", name="Try again").click()
    expect(chat.bot_bubbles().first).to_contain_text(PASSWORD, timeout=REPLY_TIMEOUT)
    expect(chat.user_bubbles()).to_have_count(1)
    expect(chat.log.get_by_role("alert")).to_have_count(0)
    assert keys == [keys[0], keys[0]]
    assert Message.objects.filter(role="user").count() == 1


def test_the_page_forbids_html_parsing_outright_with_trusted_types(chat_page, worker):
    """Belt and braces under textContent: on this page the browser itself refuses innerHTML."""
    chat = chat_page().open()
    chat.problems.allow(r"TrustedHTML")

    outcome = chat.page.evaluate(
        """() => {
            try {
                document.getElementById("messages").innerHTML = "<img src=x onerror=alert(1)>";
                return "assigned";
            } catch (error) {
                return error.name;
            }
        }"""
    )

    assert outcome == "TypeError"
    assert chat.log.locator("img").count() == 0
    violations = chat.csp_violations()
    assert violations and all(v.startswith("require-trusted-types-for") for v in violations)
    chat.page.evaluate("() => { window.__bookly.cspViolations = []; }")  # expected: not a finding

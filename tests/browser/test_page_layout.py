"""What a customer trips over on the page, without any reply needed (no worker in this module):
the page itself never scrolls, the conversation stays keyboard-reachable, the phone layout keeps
its level-one heading, and a reply that takes long gets a note."""

import pytest
from playwright.sync_api import expect

from chat.models import Message, Thread
from tests.browser.conftest import DESKTOP, PHONE, bookly_worker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CONVERSATION = "Chat with Bookly support"


def long_conversation(chat, pairs: int = 20) -> Thread:
    """A stored conversation of `pairs` questions and answers, resumed by the page after a reload."""
    thread = Thread.objects.create(owner=chat.customer_id(), last_seq=2 * pairs)
    for index in range(pairs):
        Message.objects.create(thread=thread, seq=2 * index + 1, role="user", content=f"Question number {index}")
        Message.objects.create(
            thread=thread, seq=2 * index + 2, role="assistant", content=f"Answer number {index}, " + "words " * 30
        )
    chat.page.evaluate("id => window.localStorage.setItem('bookly.threadId', id)", str(thread.id))
    chat.page.reload()
    chat.page.wait_for_selector("#chat[data-ready='true']")
    expect(chat.bot_bubbles()).to_have_count(pairs)
    return thread


def page_overflow(chat) -> int:
    """How far the document scrolls beyond the viewport (0 when only the conversation scrolls)."""
    return chat.page.evaluate("() => document.documentElement.scrollHeight - window.innerHeight")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_long_conversation_scrolls_inside_its_pane_and_the_page_never_does(chat_page, viewport):
    chat = chat_page(viewport=viewport).open()
    long_conversation(chat)

    assert page_overflow(chat) == 0
    pane = chat.page.locator("#conversation")
    assert pane.evaluate("node => node.scrollHeight > node.clientHeight")  # there is something to scroll
    chat.page.mouse.wheel(0, 5000)  # a customer scrolling the page past the chat
    assert chat.page.evaluate("() => window.scrollY") == 0
    expect(chat.input).to_be_in_viewport()


def test_the_conversation_stays_keyboard_reachable_when_it_holds_nothing_focusable(chat_page):
    chat = chat_page().open()
    long_conversation(chat)
    region = chat.page.get_by_role("region", name=CONVERSATION)
    focusable_inside = """node => [...node.querySelectorAll('button, a[href], input, textarea, [tabindex]')]
        .filter((element) => element.checkVisibility()).length"""
    assert region.evaluate(focusable_inside) == 0  # the suggestions are gone once the chat has started

    # What axe's scrollable-region-focusable asks for in every browser (recent Chromium would also
    # focus a scroller on its own): in the tab order, with an accessible name (the region's).
    expect(region).to_have_attribute("tabindex", "0")
    chat.page.get_by_role("button", name="New chat").focus()
    chat.page.keyboard.press("Tab")
    expect(region).to_be_focused()
    assert region.evaluate("node => node.scrollTop") > 0  # resumed at the newest message
    chat.page.keyboard.press("Home")
    chat.page.wait_for_function("() => document.getElementById('conversation').scrollTop === 0")
    chat.page.keyboard.press("Tab")
    expect(chat.input).to_be_focused()


def test_the_phone_layout_keeps_a_level_one_heading_once_the_chat_has_started(chat_page):
    chat = chat_page(viewport=PHONE).open()
    long_conversation(chat, pairs=2)
    expect(chat.page.locator("#chat")).to_have_class("chat chat--active")

    heading = chat.page.get_by_role("heading", level=1)
    expect(heading).to_have_count(1)
    expect(heading).to_have_accessible_name("How can we help?")
    assert page_overflow(chat) == 0
    # The room still goes to the messages: the intro takes no space.
    box = chat.page.locator(".chat__intro").bounding_box()
    assert box is not None and box["height"] <= 1


def test_a_reply_that_takes_unusually_long_gets_a_note_until_it_arrives(chat_page):
    """No worker at first: the run waits queued while the page's clock runs past 15 s."""
    chat = chat_page(clock=True).open()
    note = chat.page.get_by_text("This is taking longer than usual")

    chat.say("How long does shipping take?")
    expect(chat.page.locator("#typing")).to_be_visible()
    chat.page.clock.fast_forward(5_000)
    expect(note).to_be_hidden()
    chat.page.clock.fast_forward(11_000)
    expect(note).to_be_visible()
    expect(chat.page.locator("#slow-note")).to_have_attribute("role", "status")
    chat.snap("slow")

    with bookly_worker(name="browser-slow-worker"):
        expect(chat.bot_bubbles().first).to_contain_text("shipping", timeout=20_000)
    expect(note).to_be_hidden()
    expect(chat.page.locator("#typing")).to_be_hidden()

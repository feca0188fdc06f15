"""The customer's side of people in the loop, end to end in Chromium: a return waiting for staff
approval, and a conversation handed to a person.

Real all the way: demo orders, the offline model in a real worker, the guardrails, the web
process's long-polls. Staff act through the same services the admin calls.
"""

from decimal import Decimal

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from playwright.sync_api import expect

from chat import confirmations, handoff
from chat.models import Message, Thread
from guardrails.models import ReturnApproval
from guardrails.services import policy_current
from orders.models import Return

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

REPLY_TIMEOUT = 20_000
ASK = "It's BK-10042 and my email is sarah.chen@example.com, I want to return The Goldfinch"


@pytest.fixture
def demo_orders(transactional_db):
    call_command("load_demo_orders", verbosity=0)


@pytest.fixture
def dana(transactional_db) -> User:
    """A support agent who may decide held returns (up to SUPPORT_AGENT_APPROVAL_LIMIT)."""
    user = User.objects.create_user("dana", "dana@example.com", "pw-not-used-123", first_name="Dana", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="decide_returnapproval"))
    return User.objects.get(pk=user.pk)  # a fresh instance: permissions are cached per instance


def test_a_return_waits_for_our_team_and_the_outcome_follows_on_the_same_page(chat_page, worker, demo_orders, dana):
    policy = policy_current()
    policy.staff_approval_above_amount = Decimal("10.00")
    policy.save()
    chat = chat_page().open()
    chat.say(ASK)
    card = chat.page.get_by_role("region", name="Please confirm your return")
    expect(card).to_be_visible(timeout=REPLY_TIMEOUT)

    card.get_by_role("button", name="Confirm return").click()

    expect(card.get_by_role("status")).to_have_text(
        "Confirmed. Waiting for our team to approve this return.", timeout=REPLY_TIMEOUT
    )
    expect(chat.page.locator("#typing")).to_be_visible()
    expect(chat.page.locator("#typing-progress")).to_have_text("Waiting for our team")
    expect(chat.page.locator("#typing")).to_contain_text("Your return is with our team")
    assert not Return.objects.exists()
    chat.snap("waiting-for-our-team")

    confirmations.approval_decide(
        approval_id=ReturnApproval.objects.get().id, user=dana, approve=True, reason="Regular customer"
    )

    rma = Return.objects.get()
    expect(chat.bot_bubbles().last).to_contain_text(rma.rma_number, timeout=REPLY_TIMEOUT)
    expect(chat.page.locator("#typing")).to_be_hidden()
    expect(card.get_by_role("status")).to_have_text("Confirmed. Our team's decision is below.")


def test_a_declined_return_is_explained_on_the_page(chat_page, worker, demo_orders, dana):
    policy = policy_current()
    policy.staff_approval_always = True
    policy.save()
    chat = chat_page().open()
    chat.say(ASK)
    card = chat.page.get_by_role("region", name="Please confirm your return")
    expect(card).to_be_visible(timeout=REPLY_TIMEOUT)
    card.get_by_role("button", name="Confirm return").click()
    expect(chat.page.locator("#typing-progress")).to_have_text("Waiting for our team", timeout=REPLY_TIMEOUT)

    confirmations.approval_decide(approval_id=ReturnApproval.objects.get().id, user=dana, approve=False, reason="Limit")

    expect(chat.bot_bubbles().last).to_contain_text("couldn't approve it", timeout=REPLY_TIMEOUT)
    assert not Return.objects.exists()


def test_asking_for_a_person_then_a_staff_reply_appears_on_the_page(chat_page, worker, dana):
    chat = chat_page().open()
    chat.say("How long does shipping take?")
    expect(chat.bot_bubbles().last).to_contain_text("shipping policy", timeout=REPLY_TIMEOUT)

    chat.page.get_by_role("button", name="Talk to a person").click()

    expect(chat.bot_bubbles().last).to_contain_text("A person will reply here, usually within 4 hours")
    banner = chat.page.locator("#handoff-banner")
    expect(banner).to_contain_text("usually within 4 hours")
    expect(chat.page.get_by_role("button", name="Waiting for a person")).to_be_disabled()
    thread = Thread.objects.get()
    assert thread.is_handed_off

    chat.say("It's about order BK-10042.")
    expect(chat.user_bubbles().last).to_have_text("It's about order BK-10042.")
    handoff.staff_reply_post(thread_id=thread.id, author=dana, content="Hi, this is Dana. I'm checking it now.")

    staff = chat.log.locator(".msg--staff")
    expect(staff).to_have_count(1, timeout=REPLY_TIMEOUT)
    expect(staff.locator(".msg__text")).to_have_text("Hi, this is Dana. I'm checking it now.")
    expect(staff.locator(".msg__author")).to_have_text("Dana · Bookly support")
    expect(chat.bot_bubbles()).to_have_count(3)  # shipping, the notice, Dana: the assistant stayed silent
    assert Message.objects.filter(thread=thread, role="assistant").count() == 2
    chat.snap("staff-reply")

    handoff.thread_hand_back(thread_id=thread.id)
    expect(banner).to_be_hidden(timeout=REPLY_TIMEOUT)
    expect(chat.page.get_by_role("button", name="Talk to a person")).to_be_enabled()


def test_a_handed_off_conversation_stays_with_the_team_after_a_reload(chat_page, worker, dana):
    chat = chat_page().open()
    chat.page.get_by_role("button", name="Talk to a person").click()
    expect(chat.page.locator("#handoff-banner")).to_be_visible(timeout=REPLY_TIMEOUT)

    chat.page.reload()
    chat.page.wait_for_selector("#chat[data-ready='true']")

    expect(chat.page.locator("#handoff-banner")).to_be_visible(timeout=REPLY_TIMEOUT)
    handoff.staff_reply_post(thread_id=Thread.objects.get().id, author=dana, content="Still here to help.")
    expect(chat.log.locator(".msg--staff .msg__text")).to_have_text("Still here to help.", timeout=REPLY_TIMEOUT)

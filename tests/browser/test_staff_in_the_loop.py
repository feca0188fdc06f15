"""The staff side of people in the loop in Chromium: a support agent signs in to the admin, finds a
handed-off conversation with its summary and replies; a lead approves a return with a reason.
"""

import time
from decimal import Decimal

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from playwright.sync_api import expect

from chat import actions, services
from chat.models import Message, Run, Thread
from guardrails.models import ReturnApproval
from guardrails.services import policy_current
from orders.models import Return

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-test-password-123"
ASK = "It's BK-10042 and my email is sarah.chen@example.com, I want to return The Goldfinch"


def staff_member(*codenames: str) -> User:
    user = User.objects.create_user("dana", "dana@example.com", PASSWORD, first_name="Dana", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    return user


def sign_in(chat, user: User) -> None:
    chat.problems.allow(r"favicon\.ico")  # the admin pages have none
    page = chat.page
    page.goto(chat.base_url + "/admin/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="Log out").or_(page.get_by_role("button", name="Log out"))).to_be_visible()


def test_an_agent_finds_the_handed_off_conversation_and_replies(chat_page, worker):
    call_command("load_demo_orders", verbosity=0)
    customer = chat_page().open()
    customer.say(ASK)
    expect(customer.page.get_by_role("region", name="Please confirm your return")).to_be_visible(timeout=20_000)
    customer.page.get_by_role("button", name="Talk to a person").click()
    expect(customer.page.locator("#handoff-banner")).to_be_visible()
    thread = Thread.objects.get()
    staff = chat_page()
    sign_in(staff, staff_member("view_handedoffthread", "reply_handedoffthread"))

    staff.page.goto(staff.base_url + "/admin/chat/handedoffthread/")
    staff.page.get_by_role("link", name=str(thread.id)).click()

    summary = staff.page.locator(".handoff-summary")
    expect(summary).to_contain_text("the customer asked for a person")
    expect(summary).to_contain_text("sarah.chen@example.com")
    expect(summary).to_contain_text("check_return_eligibility BK-10042: eligible")
    expect(summary).to_contain_text("waiting for the customer's confirmation")
    staff.snap("handed-off-thread")
    staff.page.get_by_label("Reply").fill("Hi Sarah, I'm Dana. I can help with the return.")
    staff.page.get_by_role("button", name="Save", exact=True).click()

    expect(customer.log.locator(".msg--staff .msg__text")).to_have_text(
        "Hi Sarah, I'm Dana. I can help with the return.", timeout=20_000
    )
    assert Message.objects.filter(thread=thread, role="staff", author__username="dana").count() == 1


def test_a_lead_approves_a_return_with_a_reason(chat_page, worker):
    call_command("load_demo_orders", verbosity=0)
    policy = policy_current()
    policy.staff_approval_above_amount = Decimal("10.00")
    policy.save()
    thread = services.thread_create(owner="someone")
    customer_run = services.message_post(owner=thread.owner, thread_id=thread.id, content=ASK).run
    deadline = time.monotonic() + 20  # the worker takes the run
    while customer_run.status != Run.Status.REQUIRES_ACTION and time.monotonic() < deadline:
        time.sleep(0.2)
        customer_run.refresh_from_db()
    action = customer_run.pending_actions.get()
    actions.action_decide(run=customer_run, action_id=action.id, decision="confirm")
    staff = chat_page()
    sign_in(staff, staff_member("view_returnapproval", "decide_returnapproval"))

    staff.page.goto(staff.base_url + "/admin/guardrails/returnapproval/")
    expect(staff.page.locator("#result_list")).to_contain_text("BK-10042")
    staff.snap("approval-queue")
    staff.page.locator("input[name='_selected_action']").first.check()
    staff.page.locator("select[name='action']").select_option("approve")
    staff.page.get_by_role("button", name="Go").click()
    staff.page.get_by_label("Reason").fill("Long-standing customer; item checked.")
    staff.snap("approval-reason")
    staff.page.get_by_role("button", name="Approve").click()

    expect(staff.page.locator(".messagelist")).to_contain_text("Return of BK-10042: approved")
    approval = ReturnApproval.objects.get()
    assert (approval.status, approval.decided_by.username) == ("approved", "dana")
    assert Return.objects.count() == 1

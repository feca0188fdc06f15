"""Roles, logged in through the real admin: what a support agent, a lead and an auditor can see and do."""

from decimal import Decimal

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.test import Client

from chat.models import Thread
from guardrails.models import GuardrailPolicy
from guardrails.services import policy_current
from staff.roles import AUDITOR, ROLES, SUPPORT_AGENT, SUPPORT_LEAD, can_approve_amount
from tests.staff.conftest import ORDER_STATUS, staff_client

pytestmark = pytest.mark.django_db

POLICY_FORM = {
    "returns_enabled": "on",
    "confirmation_mode": "always",
    "confirm_above_amount": "0.00",
    "max_refund_without_human": "150.00",
    "returns_per_thread": "2",
    "turns_per_thread": "30",
    "staff_approval_period_days": "30",
    "staff_approval_ttl_hours": "48",
}


def action_names(response) -> set[str]:
    form = response.context["action_form"]  # None when no action is available
    if form is None:
        return set()
    return {name for name, _ in form.fields["action"].choices if name}


def test_the_migration_creates_the_three_roles():
    assert set(Group.objects.values_list("name", flat=True)) >= set(ROLES)


def test_the_auditor_holds_view_permissions_only():
    codenames = Group.objects.get(name=AUDITOR).permissions.values_list("codename", flat=True)
    assert codenames and all(codename.startswith("view_") for codename in codenames)


def test_a_role_logs_in_through_the_admin_login_form(db):
    user = User.objects.create_user("agnes", "agnes@bookly.example", "correct-horse-battery-9", is_staff=True)
    user.groups.add(Group.objects.get(name=SUPPORT_AGENT))
    client = Client()
    response = client.post(
        "/admin/login/?next=/admin/chat/thread/",
        {"username": "agnes", "password": "correct-horse-battery-9", "next": "/admin/chat/thread/"},
    )
    assert response.status_code == 302 and response["Location"] == "/admin/chat/thread/"
    assert client.get("/admin/chat/thread/").status_code == 200


@pytest.mark.parametrize("role", ["agent", "lead", "auditor"])
@pytest.mark.parametrize(
    "path",
    [
        "/admin/chat/thread/",
        "/admin/chat/run/",
        "/admin/guardrails/guardrailevent/",
        "/admin/orders/return/",
        "/admin/orders/order/",
        "/admin/guardrails/policyversion/",
        "/admin/dashboard/",
    ],
)
def test_every_role_can_see_the_queues_and_the_dashboard(request, role, path):
    assert request.getfixturevalue(role).get(path).status_code == 200


@pytest.mark.parametrize("role", ["agent", "auditor"])
def test_only_whoever_runs_the_site_manages_staff_accounts(request, role, lead):
    assert request.getfixturevalue(role).get("/admin/auth/user/").status_code == 403
    assert lead.get("/admin/auth/user/").status_code == 403


def test_a_staff_account_without_a_role_sees_no_queue_and_no_dashboard(db):
    nobody = staff_client("nobody", None)
    assert nobody.get("/admin/chat/thread/").status_code == 403
    assert nobody.get("/admin/dashboard/").status_code == 403


def test_someone_not_logged_in_is_sent_to_the_login_page(db):
    response = Client().get("/admin/dashboard/")
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")


# --- Actions need the permission they exercise ----------------------------------------------------


@pytest.mark.parametrize("role", ["agent", "lead"])
def test_agents_and_leads_are_offered_mark_reviewed_and_flag(request, role, conversation):
    conversation(ORDER_STATUS)
    assert {"mark_reviewed", "flag"} <= action_names(request.getfixturevalue(role).get("/admin/chat/thread/"))


def test_an_auditor_is_offered_no_action_and_a_posted_one_changes_nothing(auditor, conversation):
    thread = conversation(ORDER_STATUS)
    assert action_names(auditor.get("/admin/chat/thread/")) == set()

    for action in ("mark_reviewed", "flag"):
        auditor.post("/admin/chat/thread/", {"action": action, "_selected_action": [str(thread.pk)]})
    thread.refresh_from_db()
    assert (thread.reviewed, thread.flagged) == (False, False)


def test_an_agent_flags_a_thread_through_the_action(agent, conversation):
    thread = conversation(ORDER_STATUS)
    response = agent.post("/admin/chat/thread/", {"action": "flag", "_selected_action": [str(thread.pk)]})
    assert response.status_code == 302
    assert Thread.objects.get(pk=thread.pk).flagged


def test_an_auditor_cannot_save_a_thread_review(auditor, conversation):
    thread = conversation(ORDER_STATUS)
    page = auditor.get(f"/admin/chat/thread/{thread.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()

    response = auditor.post(f"/admin/chat/thread/{thread.pk}/change/", {"reviewed": "on", "staff_note": "x"})
    assert response.status_code == 403
    assert not Thread.objects.get(pk=thread.pk).reviewed


# --- Policy edits: the lead only ----------------------------------------------------------------------


@pytest.mark.parametrize("role", ["agent", "auditor"])
def test_agents_and_auditors_can_read_the_policy_but_not_change_it(request, role):
    client = request.getfixturevalue(role)
    policy = policy_current()
    page = client.get(f"/admin/guardrails/guardrailpolicy/{policy.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()

    response = client.post(f"/admin/guardrails/guardrailpolicy/{policy.pk}/change/", POLICY_FORM)
    assert response.status_code == 403
    assert GuardrailPolicy.objects.get().turns_per_thread == 40


def test_a_lead_changes_the_policy(lead):
    policy = policy_current()
    response = lead.post(f"/admin/guardrails/guardrailpolicy/{policy.pk}/change/", POLICY_FORM)
    assert response.status_code == 302, response.content[:2000]
    assert GuardrailPolicy.objects.get().turns_per_thread == 30


# --- Approving held returns (the permission the approval queue checks) --------------------------------


def test_an_agent_may_approve_up_to_the_limit_and_a_lead_any_amount(settings, db):
    settings.SUPPORT_AGENT_APPROVAL_LIMIT = Decimal("100.00")
    agent = User.objects.create_user("agnes", is_staff=True)
    agent.groups.add(Group.objects.get(name=SUPPORT_AGENT))
    lead = User.objects.create_user("leo", is_staff=True)
    lead.groups.add(Group.objects.get(name=SUPPORT_LEAD))
    auditor = User.objects.create_user("audrey", is_staff=True)
    auditor.groups.add(Group.objects.get(name=AUDITOR))

    assert can_approve_amount(agent, Decimal("100.00"))
    assert not can_approve_amount(agent, Decimal("100.01"))
    assert can_approve_amount(lead, Decimal("5000.00"))
    assert not can_approve_amount(auditor, Decimal("1.00"))


def test_a_lead_holds_every_permission_of_the_product_apps(db):
    lead_permissions = set(Group.objects.get(name=SUPPORT_LEAD).permissions.values_list("pk", flat=True))
    product = Permission.objects.filter(content_type__app_label__in=["chat", "orders", "guardrails", "staff"])
    assert set(product.values_list("pk", flat=True)) == lead_permissions


@pytest.mark.django_db(transaction=True)
def test_the_roles_come_back_after_the_database_is_flushed():
    from django.core.management import call_command

    call_command("flush", interactive=False, verbosity=0)

    assert set(Group.objects.values_list("name", flat=True)) == set(ROLES)
    assert Group.objects.get(name=SUPPORT_AGENT).permissions.filter(codename="decide_returnapproval").exists()

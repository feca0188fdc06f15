"""Staff approval of high-risk returns: the customer confirms, a person approves or declines.

A scripted model drives a run to the confirmation card; alice confirms through the API; the
policy sends the return to the approval queue; staff decide through the service (and, below,
through the admin as a user with and without the permission). The resumed run is executed
in-process, as the worker's task would. The race runs against real Postgres from two threads.
"""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from django.utils import timezone

from bookly_project.errors import ApplicationError
from chat import confirmations, runs
from chat.models import Run, ToolCall
from guardrails.checks import check_staff_approval
from guardrails.models import GuardrailEvent, GuardrailPolicy, PendingAction, ReturnApproval
from orders.models import Order, OrderItem, Return
from orders.services import return_create, return_effect_compute
from tests.conftest import turn
from tests.fakes import ScriptedModel
from tests.guardrails.conftest import DONE, eligibility_call, return_call, thread_new, tool_result
from tests.guardrails.test_confirmation import ASKED, RETURN, at_once

APPROVAL_POLICY = {"staff_approval_above_amount": Decimal("10.00")}  # The Goldfinch is 16.99


def paused(customer, scripted: ScriptedModel) -> dict:
    """A new thread whose run waits for alice to confirm the return of The Goldfinch (BK-10042)."""
    thread_id = customer.new_thread()
    scripted.script(eligibility_call("BK-10042"), return_call("BK-10042", titles=["The Goldfinch"], tool_use_id=RETURN))
    run_id = customer.say(thread_id, ASKED).json()["run"]["id"]
    runs.run_execute(run_id=run_id)
    run = customer.get(f"/api/v1/runs/{run_id}").json()
    assert run["status"] == "requires_action", run
    return run


def confirmed(customer, scripted: ScriptedModel) -> dict:
    """alice confirms; the policy wants a person too. The run object the confirmation answered."""
    run = paused(customer, scripted)
    response = customer.post(
        f"/api/v1/runs/{run['id']}/actions/{run['required_action']['id']}", {"decision": "confirm"}
    )
    assert response.status_code == 202, response.content
    return response.json()


def resumed_result(run: dict, scripted: ScriptedModel) -> tuple[dict, bool]:
    """Execute the resumed run; the initiate_return tool_result the model got."""
    scripted.script(DONE)
    runs.run_execute(run_id=run["id"])
    assert Run.objects.get(id=run["id"]).status == Run.Status.COMPLETED
    return tool_result(scripted.requests[-1], RETURN)


@pytest.fixture
def approval_policy(set_policy):
    return set_policy(**APPROVAL_POLICY)


@pytest.fixture
def agent_user(db) -> User:
    """A support agent: may decide held returns up to SUPPORT_AGENT_APPROVAL_LIMIT."""
    user = User.objects.create_user("dana", "dana@example.com", "pw-not-used-123", first_name="Dana", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="decide_returnapproval"))
    return User.objects.get(pk=user.pk)  # a fresh instance: permissions are cached per instance


# --- The rules -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "refund", "recent", "rule"),
    [
        ({}, "500.00", 9, ""),
        ({"staff_approval_always": True}, "1.00", 0, "always"),
        ({"staff_approval_above_amount": Decimal("50.00")}, "50.00", 0, ""),
        ({"staff_approval_above_amount": Decimal("50.00")}, "50.01", 0, "amount"),
        ({"staff_approval_returns_over": 2}, "5.00", 1, ""),
        ({"staff_approval_returns_over": 2}, "5.00", 2, "frequency"),
        ({"staff_approval_returns_over": 0}, "5.00", 0, "frequency"),
    ],
    ids=["no-rule", "always", "at-the-amount", "above-the-amount", "under-the-count", "at-the-count", "zero-allowed"],
)
def test_which_rule_asks_for_a_person(changes, refund, recent, rule):
    policy = GuardrailPolicy(**changes)
    assert check_staff_approval(refund_amount=Decimal(refund), recent_returns=recent, policy=policy) == rule


# --- Waiting for staff ------------------------------------------------------------------------------


def test_a_confirmed_return_above_the_amount_waits_for_staff_and_writes_nothing(
    alice, scripted, demo_orders, approval_policy
):
    run = confirmed(alice, scripted)

    assert (run["status"], run["required_action"], run["progress"]) == (
        "awaiting_approval",
        None,
        "Waiting for our team",
    )
    assert not Return.objects.exists()
    approval = ReturnApproval.objects.get()
    assert (approval.status, approval.rule, approval.order_id, approval.refund_amount) == (
        "pending",
        "amount",
        "BK-10042",
        Decimal("16.99"),
    )
    assert approval.action.decision == PendingAction.Decision.PENDING
    assert approval.action.expires_at == approval.expires_at
    assert approval.expires_at - timezone.now() > timedelta(hours=47)
    event = GuardrailEvent.objects.get(code="staff_approval_required")
    assert (event.action, event.detail) == ("approval_required", "rule: amount")
    status = alice.get(f"/api/v1/threads/{run['thread_id']}/messages/{run['user_message']['id']}/status").json()
    assert status["status"] == "awaiting_approval"
    assert len(scripted.requests) == 2  # no model call while staff decide


def test_the_long_poll_holds_while_the_return_waits_for_staff(alice, scripted, demo_orders, approval_policy):
    run = confirmed(alice, scripted)

    polled = alice.get(f"/api/v1/runs/{run['id']}?wait=0.5").json()

    assert polled["status"] == "awaiting_approval"
    assert polled["poll_after_ms"] is not None


def test_staff_approval_writes_the_return_and_the_model_tells_the_customer(
    alice, scripted, demo_orders, approval_policy, agent_user
):
    run = confirmed(alice, scripted)
    approval = ReturnApproval.objects.get()

    decided = confirmations.approval_decide(
        approval_id=approval.id, user=agent_user, approve=True, reason="Loyal customer"
    )

    assert (decided.status, decided.decided_by, decided.decision_reason) == ("approved", agent_user, "Loyal customer")
    assert decided.decided_at is not None
    rma = Return.objects.get()
    assert (str(rma.run_id), rma.refund_amount) == (run["id"], Decimal("16.99"))
    assert PendingAction.objects.get().decision == PendingAction.Decision.CONFIRMED
    assert alice.get(f"/api/v1/runs/{run['id']}").json()["status"] == "queued"
    content, is_error = resumed_result(run, scripted)
    assert (content["rma_number"], is_error) == (rma.rma_number, False)


def test_staff_decline_writes_nothing_and_the_model_is_told(alice, scripted, demo_orders, approval_policy, agent_user):
    run = confirmed(alice, scripted)

    decided = confirmations.approval_decide(
        approval_id=ReturnApproval.objects.get().id, user=agent_user, approve=False, reason="Too many returns"
    )

    assert decided.status == "declined"
    assert not Return.objects.exists()
    assert PendingAction.objects.get().decision == PendingAction.Decision.DECLINED
    content, is_error = resumed_result(run, scripted)
    assert (content["status"], is_error) == ("declined_by_staff", False)


def test_approval_of_a_return_whose_order_changed_writes_nothing(
    alice, scripted, demo_orders, approval_policy, agent_user
):
    run = confirmed(alice, scripted)
    OrderItem.objects.filter(order__order_id="BK-10042", title="The Goldfinch").update(price=Decimal("18.99"))

    decided = confirmations.approval_decide(
        approval_id=ReturnApproval.objects.get().id, user=agent_user, approve=True, reason="Fine"
    )

    assert (decided.status, decided.result_code) == ("rejected", "effect_changed")
    assert not Return.objects.exists()
    assert PendingAction.objects.get().decision == PendingAction.Decision.REJECTED
    content, is_error = resumed_result(run, scripted)
    assert (content["error"]["code"], is_error) == ("effect_changed", True)


def test_approval_reruns_stage_one_against_the_policy_as_it_is_then(
    alice, scripted, demo_orders, approval_policy, agent_user, set_policy
):
    confirmed(alice, scripted)
    set_policy(returns_enabled=False)

    decided = confirmations.approval_decide(
        approval_id=ReturnApproval.objects.get().id, user=agent_user, approve=True, reason="Fine"
    )

    assert (decided.status, decided.result_code) == ("rejected", "returns_disabled")
    assert not Return.objects.exists()


@pytest.mark.parametrize("approve", [True, False])
def test_a_decision_needs_a_reason(alice, scripted, demo_orders, approval_policy, agent_user, approve):
    confirmed(alice, scripted)

    with pytest.raises(confirmations.ApplicationError) as refused:
        confirmations.approval_decide(
            approval_id=ReturnApproval.objects.get().id, user=agent_user, approve=approve, reason=" "
        )

    assert refused.value.code == "reason_required"
    assert ReturnApproval.objects.get().status == "pending"
    assert not Return.objects.exists()


def test_a_second_decision_is_refused_and_writes_no_second_return(
    alice, scripted, demo_orders, approval_policy, agent_user
):
    confirmed(alice, scripted)
    approval_id = ReturnApproval.objects.get().id
    confirmations.approval_decide(approval_id=approval_id, user=agent_user, approve=True, reason="Fine")

    with pytest.raises(confirmations.ApplicationError) as again:
        confirmations.approval_decide(approval_id=approval_id, user=agent_user, approve=False, reason="Changed my mind")

    assert (again.value.status, again.value.code) == (409, "approval_already_decided")
    assert Return.objects.count() == 1
    assert ReturnApproval.objects.get().status == "approved"


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_approvals_write_exactly_one_return(scripted, demo_orders, set_policy):
    set_policy(**APPROVAL_POLICY)
    scripted.script(eligibility_call("BK-10042"), return_call("BK-10042", titles=["The Goldfinch"], tool_use_id=RETURN))
    run = turn(thread_new(), ASKED)
    action = PendingAction.objects.get(run=run)
    confirmations.action_decide(run=run, action_id=action.id, decision="confirm")
    approval_id = ReturnApproval.objects.get().id
    users = [User.objects.create_user(name, f"{name}@example.com", "pw-not-used-123") for name in ("dana", "eli")]
    for user in users:
        user.user_permissions.add(Permission.objects.get(codename="decide_returnapproval"))
    users = [User.objects.get(pk=user.pk) for user in users]  # fresh instances: permissions are cached

    def approve(user: User):
        return lambda: (
            confirmations.approval_decide(approval_id=approval_id, user=user, approve=True, reason="ok").status
        )

    outcomes = at_once(approve(users[0]), approve(users[1]))

    assert sorted(outcomes, key=str) == [(409, "approval_already_decided"), "approved"]
    assert Return.objects.count() == 1
    assert ToolCall.objects.filter(run=run, tool_use_id=RETURN).count() == 1


# --- While waiting: the customer, and the clock -------------------------------------------------------


def test_the_customer_cannot_confirm_again_while_staff_decide(alice, scripted, demo_orders, approval_policy):
    run = paused(alice, scripted)
    path = f"/api/v1/runs/{run['id']}/actions/{run['required_action']['id']}"
    assert alice.post(path, {"decision": "confirm"}).status_code == 202

    again = alice.post(path, {"decision": "decline"})

    assert (again.status_code, again.json()["error"]["code"]) == (409, "action_already_decided")
    assert ReturnApproval.objects.get().status == "pending"


def test_a_message_while_staff_decide_is_refused_and_nothing_is_stored(alice, scripted, demo_orders, approval_policy):
    run = confirmed(alice, scripted)
    messages_before = alice.get(f"/api/v1/threads/{run['thread_id']}/messages").json()["results"]

    response = alice.say(run["thread_id"], "Any news?")

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "approval_pending"
    assert alice.get(f"/api/v1/threads/{run['thread_id']}/messages").json()["results"] == messages_before
    assert ReturnApproval.objects.get().status == "pending"


def test_an_approval_nobody_decided_expires_and_the_customer_is_told(alice, scripted, demo_orders, approval_policy):
    run = confirmed(alice, scripted)
    past = timezone.now() - timedelta(seconds=1)
    ReturnApproval.objects.update(expires_at=past)
    PendingAction.objects.update(expires_at=past)

    assert confirmations.pending_actions_expire() == 1

    approval = ReturnApproval.objects.get()
    assert (approval.status, approval.result_code, approval.decided_by) == ("expired", "approval_expired", None)
    assert PendingAction.objects.get().decision == PendingAction.Decision.EXPIRED
    assert not Return.objects.exists()
    content, is_error = resumed_result(run, scripted)
    assert (content["error"]["code"], is_error) == ("approval_expired", True)


def test_the_frequency_rule_counts_the_customers_recent_returns_by_email(alice, scripted, demo_orders, set_policy):
    set_policy(staff_approval_returns_over=1, staff_approval_period_days=30)
    order = Order.objects.get(order_id="BK-10042")
    return_create(effect=return_effect_compute(order=order, item_titles=["Sapiens"], reason="Earlier return"))

    run = confirmed(alice, scripted)

    assert run["status"] == "awaiting_approval"
    assert ReturnApproval.objects.get().rule == "frequency"


def test_an_old_return_outside_the_period_does_not_count(alice, scripted, demo_orders, set_policy):
    set_policy(staff_approval_returns_over=1, staff_approval_period_days=30)
    order = Order.objects.get(order_id="BK-10042")
    earlier = return_create(effect=return_effect_compute(order=order, item_titles=["Sapiens"], reason="Earlier"))
    Return.objects.filter(id=earlier.id).update(created_at=timezone.now() - timedelta(days=31))

    run = confirmed(alice, scripted)

    assert run["status"] == "queued"  # applied: no person needed
    assert not ReturnApproval.objects.exists()
    assert Return.objects.count() == 2


def test_a_return_a_person_must_approve_is_confirmed_by_the_customer_first_even_when_the_policy_skips_it(
    alice, scripted, demo_orders, set_policy
):
    set_policy(
        confirmation_mode=GuardrailPolicy.ConfirmationMode.ABOVE_AMOUNT,
        confirm_above_amount=Decimal("100.00"),
        staff_approval_always=True,
    )

    run = paused(alice, scripted)

    assert run["required_action"]["type"] == "confirm_return"
    assert not Return.objects.exists()


# --- The admin queue ---------------------------------------------------------------------------------


def admin_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def with_permissions(user: User, *codenames: str) -> User:
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    return User.objects.get(pk=user.pk)  # a fresh object: permissions are cached per instance


def admin_decide(client: Client, approval: ReturnApproval, action: str, reason: str | None):
    data = {"action": action, "_selected_action": [str(approval.id)]}
    if reason is not None:
        data |= {"apply": "1", "reason": reason}
    return client.post("/admin/guardrails/returnapproval/", data)


def test_a_staff_member_with_the_permission_approves_in_the_admin(
    alice, scripted, demo_orders, approval_policy, agent_user
):
    confirmed(alice, scripted)
    approval = ReturnApproval.objects.get()
    client = admin_client(with_permissions(agent_user, "view_returnapproval", "decide_returnapproval"))
    assert "BK-10042" in client.get("/admin/guardrails/returnapproval/").content.decode()
    page = client.get(f"/admin/guardrails/returnapproval/{approval.id}/change/").content.decode()
    assert "The Goldfinch ($16.99)" in page

    asked = admin_decide(client, approval, "approve", None)
    assert asked.status_code == 200 and 'name="reason"' in asked.content.decode()  # the reason page first
    assert ReturnApproval.objects.get().status == "pending"
    decided = admin_decide(client, approval, "approve", "Checked the order history")

    assert decided.status_code == 302
    approval.refresh_from_db()
    assert (approval.status, approval.decided_by, approval.decision_reason) == (
        "approved",
        agent_user,
        "Checked the order history",
    )
    assert Return.objects.count() == 1


def test_the_admin_refuses_a_decision_without_a_reason(alice, scripted, demo_orders, approval_policy, agent_user):
    confirmed(alice, scripted)
    client = admin_client(with_permissions(agent_user, "view_returnapproval", "decide_returnapproval"))

    response = admin_decide(client, ReturnApproval.objects.get(), "decline", "")

    assert response.status_code == 200
    assert "This field is required" in response.content.decode()
    assert ReturnApproval.objects.get().status == "pending"


@pytest.mark.parametrize("action", ["approve", "decline"])
def test_a_staff_member_without_the_permission_cannot_decide(alice, scripted, demo_orders, approval_policy, action):
    confirmed(alice, scripted)
    viewer = User.objects.create_user("vic", "vic@example.com", "pw-not-used-789", is_staff=True)
    client = admin_client(with_permissions(viewer, "view_returnapproval"))
    listing = client.get("/admin/guardrails/returnapproval/").content.decode()
    assert "BK-10042" in listing and f'value="{action}"' not in listing

    admin_decide(client, ReturnApproval.objects.get(), action, "I should not be able to")

    assert ReturnApproval.objects.get().status == "pending"
    assert not Return.objects.exists()


def test_a_run_resumed_after_a_long_wait_is_not_expired_by_the_queue_timeout(
    alice, scripted, demo_orders, approval_policy, agent_user, monkeypatch
):
    monkeypatch.setattr(runs, "run_dispatch", lambda **kwargs: None)  # the worker is busy elsewhere
    run = confirmed(alice, scripted)
    Run.objects.filter(id=run["id"]).update(created_at=timezone.now() - timedelta(hours=5))
    confirmations.approval_decide(
        approval_id=ReturnApproval.objects.get().id, user=agent_user, approve=True, reason="ok"
    )

    report = runs.runs_sweep()

    assert report.expired == 0
    assert Run.objects.get(id=run["id"]).status == Run.Status.QUEUED
    content, is_error = resumed_result(run, scripted)
    assert is_error is False and content["rma_number"] == Return.objects.get().rma_number


def test_in_a_thread_handed_to_a_person_the_resumed_run_still_tells_the_outcome(
    alice, scripted, demo_orders, approval_policy, agent_user
):
    run = confirmed(alice, scripted)
    assert alice.post(f"/api/v1/threads/{run['thread_id']}/handoff").status_code == 200
    confirmations.approval_decide(
        approval_id=ReturnApproval.objects.get().id, user=agent_user, approve=True, reason="ok"
    )

    content, is_error = resumed_result(run, scripted)

    assert (content["rma_number"], is_error) == (Return.objects.get().rma_number, False)
    assert Run.objects.get(id=run["id"]).assistant_message.content == DONE.body["content"][0]["text"]


def test_staff_set_the_approval_rules_on_the_policy_page(db):
    admin = User.objects.create_superuser("lead", "lead@example.com", "pw-not-used-123")
    client = admin_client(admin)
    policy = GuardrailPolicy.objects.create()
    page = client.get(f"/admin/guardrails/guardrailpolicy/{policy.pk}/change/")
    assert 'name="staff_approval_above_amount"' in page.content.decode()

    response = client.post(
        f"/admin/guardrails/guardrailpolicy/{policy.pk}/change/",
        {
            "returns_enabled": "on",
            "confirmation_mode": "always",
            "confirm_above_amount": "0.00",
            "max_refund_without_human": "200.00",
            "returns_per_thread": "2",
            "turns_per_thread": "40",
            "staff_approval_above_amount": "75.00",
            "staff_approval_returns_over": "3",
            "staff_approval_period_days": "30",
            "staff_approval_ttl_hours": "24",
        },
    )

    assert response.status_code == 302, response.content.decode()[:3000]
    policy.refresh_from_db()
    assert (
        policy.staff_approval_above_amount,
        policy.staff_approval_returns_over,
        policy.staff_approval_ttl_hours,
    ) == (
        Decimal("75.00"),
        3,
        24,
    )
    assert policy.staff_approval_always is False


def test_only_staff_allowed_to_decide_can_approve_and_agents_only_up_to_their_limit(
    alice, scripted, demo_orders, approval_policy, agent_user, settings
):
    confirmed(alice, scripted)
    approval = ReturnApproval.objects.get()
    outsider = User.objects.create_user("olly", "olly@example.com", "pw-not-used-456", is_staff=True)

    with pytest.raises(ApplicationError) as refused:
        confirmations.approval_decide(approval_id=approval.id, user=outsider, approve=True, reason="looks fine")
    assert (refused.value.status, refused.value.code) == (403, "forbidden")
    settings.SUPPORT_AGENT_APPROVAL_LIMIT = Decimal("10.00")  # below The Goldfinch's 16.99
    with pytest.raises(ApplicationError) as over:
        confirmations.approval_decide(approval_id=approval.id, user=agent_user, approve=True, reason="looks fine")
    assert (over.value.status, over.value.code) == (403, "approval_over_limit")
    assert not Return.objects.exists()
    assert ReturnApproval.objects.get().status == ReturnApproval.Status.PENDING

"""Staff test helpers: a user per role logged in through the real admin, and real conversations.

Conversations run through the real agent with the offline demo model (the configured model in
tests), so every row the admin shows was written by the product, not by the test.
"""

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.test import Client

from chat import services
from chat.models import Message, Run, Thread
from guardrails.models import GuardrailEvent
from orders.models import Return
from staff.roles import AUDITOR, SUPPORT_AGENT, SUPPORT_LEAD
from tests.conftest import turn

SARAH = "sarah.chen@example.com"  # BK-10042 (delivered, in window)
MARIA = "maria.gonzalez@example.com"  # BK-9871


@pytest.fixture
def demo_orders(db) -> None:
    call_command("load_demo_orders", verbosity=0)


def staff_client(username: str, group: str | None) -> Client:
    user = User.objects.create_user(username, f"{username}@bookly.example", "pw-not-used-123", is_staff=True)
    if group:
        user.groups.add(Group.objects.get(name=group))
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def agent(db) -> Client:
    return staff_client("agnes", SUPPORT_AGENT)


@pytest.fixture
def lead(db) -> Client:
    return staff_client("leo", SUPPORT_LEAD)


@pytest.fixture
def auditor(db) -> Client:
    return staff_client("audrey", AUDITOR)


@pytest.fixture
def conversation(demo_orders) -> Callable[..., Thread]:
    """A thread where a customer says each text in turn (offline model, real agent and guardrails)."""

    def create(*texts: str, owner: str = "customer-1") -> Thread:
        thread = services.thread_create(owner=owner)
        for text in texts:
            turn(thread, text)
        thread.refresh_from_db()
        return thread

    return create


ORDER_STATUS = f"Where is my order BK-10042? My email is {SARAH}"
OFF_TOPIC = "Can you write me a poem about the sea?"
SHIPPING = "How long does shipping take?"


def bot_return(scripted, conversation) -> Thread:
    """A thread where the bot started a return of The Goldfinch (BK-10042) and the customer confirmed it."""
    from chat import actions
    from chat.models import Run
    from guardrails.models import PendingAction
    from tests.guardrails.conftest import DONE, eligibility_call, return_call

    scripted.script(eligibility_call("BK-10042"), return_call("BK-10042", titles=["The Goldfinch"]))
    thread = conversation("I want to return The Goldfinch from BK-10042, my email is sarah.chen@example.com")
    run = Run.objects.get(thread=thread)
    action = PendingAction.objects.get(run=run)
    actions.action_decide(run=run, action_id=action.pk, decision="confirm")
    scripted.script(DONE)
    services.run_execute(run_id=run.pk)
    return thread


def age(thread: Thread, days: int) -> None:
    """Move a conversation `days` into the past (every timestamp the dashboard reads)."""
    shift = timedelta(days=days)
    for model, lookup in ((Thread, "pk"), (Run, "thread_id"), (Message, "thread_id")):
        for row in model.objects.filter(**{lookup: thread.pk}):
            fields = [name for name in ("created_at", "updated_at", "completed_at", "started_at") if hasattr(row, name)]
            model.objects.filter(pk=row.pk).update(
                **{name: getattr(row, name) - shift for name in fields if getattr(row, name)}
            )
    for event in GuardrailEvent.objects.filter(thread_id=thread.pk):
        GuardrailEvent.objects.filter(pk=event.pk).update(created_at=event.created_at - shift)
    for rma in Return.objects.filter(thread_id=thread.pk):
        Return.objects.filter(pk=rma.pk).update(created_at=rma.created_at - shift)

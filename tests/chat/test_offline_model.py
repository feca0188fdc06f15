"""The offline demo model's order flows, through the real loop and every guardrail."""

import pytest
from django.core.management import call_command

from chat import services
from chat.models import Run, Thread
from guardrails.models import PendingAction
from tests.conftest import turn as ask

pytestmark = pytest.mark.django_db

SARAH = "sarah.chen@example.com"


@pytest.fixture
def thread() -> Thread:
    call_command("load_demo_orders", verbosity=0)
    return services.thread_create(owner="sarah-session")


def test_it_asks_for_the_order_number_and_email_first(thread):
    run = ask(thread, "Where is my order?")
    assert "order number" in run.assistant_message.content
    assert "email" in run.assistant_message.content


def test_it_looks_up_an_order_with_the_matching_email(thread):
    run = ask(thread, "Where is BK-10089? My email is james.murphy@example.com")
    assert "BK-10089" in run.assistant_message.content
    assert "shipped" in run.assistant_message.content


def test_a_wrong_email_answers_like_a_missing_order(thread):
    wrong = ask(thread, f"Where is BK-10089? My email is {SARAH}").assistant_message.content
    missing = ask(
        services.thread_create(owner="x"), f"Where is BK-99999? My email is {SARAH}"
    ).assistant_message.content
    assert wrong == missing
    assert "couldn't find" in wrong


def test_it_proposes_only_the_named_item_and_waits_for_confirmation(thread):
    run = ask(thread, f"I want to return The Goldfinch from BK-10042, email {SARAH}")
    assert run.status == Run.Status.REQUIRES_ACTION
    action = PendingAction.objects.get(run=run)
    assert action.preview["items"] == [{"title": "The Goldfinch", "price": "16.99"}]


def test_a_named_item_that_cannot_be_returned_is_explained_not_substituted(thread):
    from orders.models import OrderItem
    from orders.services import return_create, return_effect_compute

    order = OrderItem.objects.get(title="The Goldfinch").order
    return_create(effect=return_effect_compute(order=order, item_titles=["The Goldfinch"], reason="earlier"))
    run = ask(thread, f"I want to return The Goldfinch from BK-10042, email {SARAH}")
    assert run.status == Run.Status.COMPLETED
    assert run.assistant_message.content == "I'm sorry, The Goldfinch has already been returned."
    assert not PendingAction.objects.exists()


def test_an_order_outside_the_window_is_explained(thread):
    run = ask(thread, "Please return BK-9871, my email is maria.gonzalez@example.com")
    assert run.status == Run.Status.COMPLETED
    assert "return window ended" in run.assistant_message.content


def test_which_order_lists_the_verified_customers_orders(thread):
    ask(thread, f"Where is BK-10042? My email is {SARAH}")
    run = ask(thread, "What about my other orders?")
    assert "BK-10103" in run.assistant_message.content
    assert "BK-10042" in run.assistant_message.content

"""A whole return through the API, with the offline model and a real worker: ask, confirm, RMA."""

import pytest
from django.core.management import call_command

from orders.models import Return

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo_orders(transactional_db):
    call_command("load_demo_orders", verbosity=0)


def test_a_return_is_confirmed_by_the_customer_and_answered_with_an_rma(alice, demo_orders, offline_worker):
    thread = alice.new_thread()
    asked = alice.wait_run(alice.say(thread, "I'd like to return a book").json()["run"]["id"])
    assert asked["status"] == "completed"
    assert "order number" in asked["assistant_message"]["content"]

    posted = alice.say(thread, "It's BK-10042 and my email is sarah.chen@example.com, I want to return The Goldfinch")
    run = alice.wait_run(posted.json()["run"]["id"])
    assert run["status"] == "requires_action"
    action = run["required_action"]
    assert action["type"] == "confirm_return"
    assert action["preview"]["order_id"] == "BK-10042"
    assert action["preview"]["items"] == [{"title": "The Goldfinch", "price": "16.99"}]
    assert action["preview"]["refund_amount"] == "16.99"
    assert Return.objects.count() == 0  # nothing happens before the customer confirms

    confirmed = alice.post(f"/api/v1/runs/{run['id']}/actions/{action['id']}", {"decision": "confirm"})
    assert confirmed.status_code == 202
    assert confirmed.json()["status"] in ("queued", "in_progress", "completed")
    done = alice.wait_run(run["id"])
    assert done["status"] == "completed"
    rma = Return.objects.get()
    assert rma.rma_number in done["assistant_message"]["content"]
    assert [item.order_item.title for item in rma.items.all()] == ["The Goldfinch"]

    again = alice.post(f"/api/v1/runs/{run['id']}/actions/{action['id']}", {"decision": "confirm"})
    assert again.status_code == 409
    assert Return.objects.count() == 1


def test_a_declined_return_writes_nothing(alice, demo_orders, offline_worker):
    thread = alice.new_thread()
    posted = alice.say(thread, "Please return order BK-10042, email sarah.chen@example.com")
    run = alice.wait_run(posted.json()["run"]["id"])
    assert run["status"] == "requires_action"
    declined = alice.post(f"/api/v1/runs/{run['id']}/actions/{run['required_action']['id']}", {"decision": "decline"})
    assert declined.status_code == 202
    done = alice.wait_run(run["id"])
    assert done["status"] == "completed"
    assert "haven't started a return" in done["assistant_message"]["content"]
    assert Return.objects.count() == 0

"""After a reload the page rebuilds a thread from its message list: a customer message whose run
asked for a confirmation carries that decided confirmation, so the card comes back with its outcome."""

import pytest

from guardrails.models import PendingAction
from orders.models import Return
from tests.guardrails.test_confirmation import action_path, paused, resume

pytestmark = pytest.mark.django_db


def listed(customer, thread_id: str) -> list[dict]:
    response = customer.get(f"/api/v1/threads/{thread_id}/messages")
    assert response.status_code == 200
    return response.json()["results"]


@pytest.mark.parametrize(("decision", "recorded"), [("confirm", "confirmed"), ("decline", "declined")])
def test_a_decided_confirmation_is_listed_on_its_customer_message(alice, scripted, demo_orders, decision, recorded):
    run = paused(alice, scripted)
    assert [message["action"] for message in listed(alice, run["thread_id"])] == [None]  # undecided: not listed

    assert alice.post(action_path(run), {"decision": decision}).status_code == 202
    resume(run, scripted)

    question, reply = listed(alice, run["thread_id"])
    assert (question["role"], reply["role"], reply["action"]) == ("user", "assistant", None)
    action = question["action"]
    assert action["id"] == run["required_action"]["id"]
    assert action["decision"] == recorded
    assert action["preview"] == run["required_action"]["preview"]
    assert action["type"] == "confirm_return"
    assert Return.objects.count() == (1 if decision == "confirm" else 0)
    assert PendingAction.objects.get().decision == recorded


def test_bob_cannot_list_alices_decided_confirmation(alice, bob, scripted, demo_orders):
    run = paused(alice, scripted)
    alice.post(action_path(run), {"decision": "confirm"})
    response = bob.get(f"/api/v1/threads/{run['thread_id']}/messages")
    assert response.status_code == 404
    assert "preview" not in response.content.decode()

"""Handoff to a person: the customer asks, the model hands over, or the assistant fails twice.

Through the real API (alice and bob, real sessions with CSRF), the real services and the admin
(a staff user with and without the reply permission). Turns run in-process, as the worker's
task would, against a scripted model.
"""

import json

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.test import Client

from chat import handoff, services
from chat.agent import TurnOutcome
from chat.llm import ModelError
from chat.models import Message, Run, Thread
from tests.conftest import turn
from tests.fakes import text_reply, tool_use_reply

pytestmark = pytest.mark.django_db

SARAH = "sarah.chen@example.com"
UNGROUNDED = text_reply("Your order BK-55555 was delivered yesterday.")  # L4 replaces it with the fallback


def handoff_path(thread_id: str) -> str:
    return f"/api/v1/threads/{thread_id}/handoff"


def updates(customer, thread_id: str, **params) -> dict:
    query = "&".join(f"{key}={value}" for key, value in params.items())
    response = customer.get(f"/api/v1/threads/{thread_id}/updates?{query}")
    assert response.status_code == 200, response.content
    return json.loads(response.content)


@pytest.fixture
def demo_orders(db) -> None:
    call_command("load_demo_orders", verbosity=0)


@pytest.fixture
def dana(db) -> User:
    return User.objects.create_user("dana", "dana@example.com", "pw-not-used-123", first_name="Dana", is_staff=True)


def handed_off_thread(customer) -> tuple[str, dict]:
    thread_id = customer.new_thread()
    response = customer.post(handoff_path(thread_id))
    assert response.status_code == 200, response.content
    return thread_id, response.json()


# --- The customer asks ------------------------------------------------------------------------------


def test_asking_for_a_person_hands_the_thread_off_and_says_when_someone_will_reply(alice, settings):
    settings.HANDOFF_REPLY_WITHIN_HOURS = 6
    thread_id, body = handed_off_thread(alice)

    assert body["thread"]["handoff"]["reason"] == "customer_asked"
    assert body["thread"]["handoff"]["reply_within_hours"] == 6
    assert body["message"]["role"] == "assistant"
    assert "A person will reply here, usually within 6 hours" in body["message"]["content"]
    thread = Thread.objects.get(id=thread_id)
    assert (thread.is_handed_off, thread.handoff_reason) == (True, "customer_asked")
    assert alice.get(f"/api/v1/threads/{thread_id}").json()["handoff"]["reason"] == "customer_asked"
    assert [m["content"] for m in alice.get(f"/api/v1/threads/{thread_id}/messages").json()["results"]] == [
        body["message"]["content"]
    ]


def test_asking_again_changes_nothing(alice):
    thread_id, first = handed_off_thread(alice)

    again = alice.post(handoff_path(thread_id))

    assert again.status_code == 200
    assert again.json()["message"] is None
    assert again.json()["thread"]["handoff"]["since"] == first["thread"]["handoff"]["since"]
    assert Message.objects.filter(thread_id=thread_id).count() == 1


def test_bob_cannot_hand_off_alices_thread(alice, bob):
    thread_id = alice.new_thread()

    response = bob.post(handoff_path(thread_id))

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert not Thread.objects.get(id=thread_id).is_handed_off
    assert bob.get(f"/api/v1/threads/{thread_id}/updates").status_code == 404


def test_handoff_without_the_csrf_token_is_refused(alice):
    thread_id = alice.new_thread()

    response = alice.client.post(handoff_path(thread_id), data="{}", content_type="application/json")

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "csrf_failed"
    assert not Thread.objects.get(id=thread_id).is_handed_off


# --- The agent stays silent ---------------------------------------------------------------------------


def test_a_message_to_a_handed_off_thread_is_stored_and_no_model_turn_runs(alice, scripted):
    thread_id, _ = handed_off_thread(alice)

    response = alice.say(thread_id, "Hello? Is anyone there?")

    assert response.status_code == 202
    run = response.json()["run"]
    assert (run["status"], run["assistant_message"], run["handed_off"]) == ("completed", None, True)
    services.run_execute(run_id=run["id"])  # even if a task arrived, nothing runs
    assert scripted.requests == []
    assert Run.objects.get(id=run["id"]).ending == "handed_off"
    contents = [m["content"] for m in alice.get(f"/api/v1/threads/{thread_id}/messages").json()["results"]]
    assert contents[-1] == "Hello? Is anyone there?"


def test_a_run_queued_before_the_handoff_finishes_without_a_model_turn(alice, scripted):
    thread_id = alice.new_thread()
    run_id = alice.say(thread_id, "Where is my order?").json()["run"]["id"]
    assert alice.post(handoff_path(thread_id)).status_code == 200

    services.run_execute(run_id=run_id)

    run = Run.objects.get(id=run_id)
    assert (run.status, run.ending, run.assistant_message_id) == ("completed", "handed_off", None)
    assert scripted.requests == []


# --- The model hands over, or the assistant fails twice ----------------------------------------------


def test_a_turn_ending_in_handoff_hands_the_thread_to_a_person(db):
    thread = services.thread_create(owner="alice-session")
    run = services.message_post(owner=thread.owner, thread_id=thread.id, content="I want a human").run
    claimed = services.run_claim(run_id=run.id)
    notice = handoff.handoff_notice(Thread.HandoffReason.MODEL_ASKED)

    services.run_finish(run=claimed, outcome=TurnOutcome(status=Run.Status.COMPLETED, reply=notice, ending="handoff"))

    thread.refresh_from_db()
    assert (thread.is_handed_off, thread.handoff_reason) == (True, "model_asked")
    run.refresh_from_db()
    assert (run.status, run.assistant_message.content) == ("completed", notice)


def test_the_second_failed_turn_hands_off_instead_of_failing_again(scripted):
    thread = services.thread_create(owner="alice-session")
    scripted.script(ModelError("model_unavailable", "down"), ModelError("model_unavailable", "down"))

    first = turn(thread, "Where is BK-10042?")
    assert (first.status, first.ending) == ("failed", "end_turn")
    thread.refresh_from_db()
    assert not thread.is_handed_off

    second = turn(thread, "Hello?")

    assert (second.status, second.ending, second.error_code) == ("completed", "handoff", "model_unavailable")
    assert "passed this conversation to our support team" in second.assistant_message.content
    thread.refresh_from_db()
    assert (thread.is_handed_off, thread.handoff_reason) == (True, "repeated_failures")


def test_two_fallbacks_hand_off(scripted):
    thread = services.thread_create(owner="alice-session")
    scripted.script(UNGROUNDED, UNGROUNDED)

    assert turn(thread, "Where is my order?").ending == "fallback"
    second = turn(thread, "And now?")

    assert second.ending == "handoff"
    assert Thread.objects.get(id=thread.id).handoff_reason == "repeated_failures"


def test_a_turn_with_repeated_guardrail_blocks_counts_as_a_failure(scripted, demo_orders):
    thread = services.thread_create(owner="alice-session")
    blocked_return = tool_use_reply(
        "initiate_return", {"order_id": "BK-10042", "customer_email": SARAH, "reason": "changed my mind"}
    )
    scripted.script(blocked_return, blocked_return, text_reply("Sorry, I could not do that."))
    scripted.script(ModelError("model_unavailable", "down"))

    blocked = turn(thread, "Return BK-10042 for sarah.chen@example.com")
    assert (blocked.status, blocked.ending) == ("completed", "end_turn")
    failed = turn(thread, "Hello?")

    assert failed.ending == "handoff"


def test_one_failure_does_not_hand_off(scripted):
    thread = services.thread_create(owner="alice-session")
    scripted.script(ModelError("model_unavailable", "down"), text_reply("Hello! How can I help?"))

    turn(thread, "Hi")
    answered = turn(thread, "Hi again")

    assert (answered.status, answered.ending) == ("completed", "end_turn")
    assert not Thread.objects.get(id=thread.id).is_handed_off


def test_a_thread_handed_back_does_not_bounce_straight_back(scripted):
    thread = services.thread_create(owner="alice-session")
    scripted.script(*[ModelError("model_unavailable", "down")] * 3)
    turn(thread, "one")
    assert turn(thread, "two").ending == "handoff"
    assert handoff.thread_hand_back(thread_id=thread.id)

    after = turn(thread, "three")

    assert (after.status, after.ending) == ("failed", "end_turn")  # one failure since the hand-back
    assert not Thread.objects.get(id=thread.id).is_handed_off


# --- Staff reply, and hand back -------------------------------------------------------------------------


def test_a_staff_reply_reaches_the_customers_updates_with_the_authors_name(alice, dana):
    thread_id, body = handed_off_thread(alice)

    handoff.staff_reply_post(thread_id=thread_id, author=dana, content="Hi, I'm looking at your order now.")

    got = updates(alice, thread_id, after=body["message"]["id"], wait=5)
    assert [(m["role"], m["author"], m["content"]) for m in got["messages"]] == [
        ("staff", "Dana", "Hi, I'm looking at your order now.")
    ]
    assert got["thread"]["handoff"]["reason"] == "customer_asked"
    listed = alice.get(f"/api/v1/threads/{thread_id}/messages").json()["results"]
    assert listed[-1]["author"] == "Dana"


def test_updates_hold_while_nothing_is_new_and_answer_at_once_for_a_thread_not_handed_off(alice):
    thread_id, body = handed_off_thread(alice)
    assert updates(alice, thread_id, after=body["message"]["id"], wait=0.3)["messages"] == []
    other = alice.new_thread()

    got = updates(alice, other, wait=10)

    assert (got["thread"]["handoff"], got["messages"]) == (None, [])


@pytest.mark.parametrize("query", ["after=not-a-uuid", "wait=31", "wait=soon"])
def test_updates_refuse_bad_parameters(alice, query):
    thread_id = alice.new_thread()

    response = alice.get(f"/api/v1/threads/{thread_id}/updates?{query}")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_input"


def test_after_a_hand_back_the_next_message_gets_a_model_turn(alice, scripted):
    thread_id, _ = handed_off_thread(alice)
    assert handoff.thread_hand_back(thread_id=thread_id)
    assert updates(alice, thread_id)["thread"]["handoff"] is None
    scripted.script(text_reply("Hello! How can I help?"))

    run = alice.say(thread_id, "Hi again").json()["run"]
    assert (run["status"], run["handed_off"]) == ("queued", False)
    services.run_execute(run_id=run["id"])

    assert Run.objects.get(id=run["id"]).assistant_message.content == "Hello! How can I help?"


# --- The admin queue ------------------------------------------------------------------------------------


def staff_client(user: User, *codenames: str) -> Client:
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    client = Client()
    client.force_login(User.objects.get(pk=user.pk))
    return client


def test_the_queue_lists_handed_off_threads_with_a_summary_from_the_record(alice, dana, scripted, demo_orders):
    thread_id = alice.new_thread()
    scripted.script(
        tool_use_reply("lookup_order", {"order_id": "BK-10042", "customer_email": SARAH}),
        text_reply("Order BK-10042 was delivered."),
    )
    services.run_execute(run_id=alice.say(thread_id, f"Where is BK-10042? {SARAH}").json()["run"]["id"])
    alice.post(handoff_path(thread_id))
    quiet_thread = alice.new_thread()
    client = staff_client(dana, "view_handedoffthread")

    listing = client.get("/admin/chat/handedoffthread/").content.decode()
    page = client.get(f"/admin/chat/handedoffthread/{thread_id}/change/").content.decode()

    assert thread_id in listing and quiet_thread not in listing
    assert SARAH in page
    assert "lookup_order BK-10042: status delivered" in page
    assert "the customer asked for a person" in page
    assert "Where is BK-10042?" in page
    assert 'name="reply"' not in page  # view only: no reply form


def test_a_staff_member_with_the_permission_replies_and_hands_back_from_the_admin(alice, dana):
    thread_id, _ = handed_off_thread(alice)
    client = staff_client(dana, "view_handedoffthread", "reply_handedoffthread")

    response = client.post(
        f"/admin/chat/handedoffthread/{thread_id}/change/",
        {"reply": "Your refund is on its way.", "hand_back": "on"},
    )

    assert response.status_code == 302, response.content.decode()[:2000]
    reply = Message.objects.filter(thread_id=thread_id).order_by("seq").last()
    assert (reply.role, reply.author, reply.content) == ("staff", dana, "Your refund is on its way.")
    assert not Thread.objects.get(id=thread_id).is_handed_off


def test_a_staff_member_without_the_permission_cannot_reply(alice, dana):
    thread_id, _ = handed_off_thread(alice)
    client = staff_client(dana, "view_handedoffthread")

    response = client.post(f"/admin/chat/handedoffthread/{thread_id}/change/", {"reply": "Not allowed"})

    assert response.status_code == 403
    assert not Message.objects.filter(thread_id=thread_id, role="staff").exists()

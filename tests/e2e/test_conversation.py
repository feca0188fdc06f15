"""Whole conversations through the API with a real Celery worker process, Postgres and Redis."""

import json
import time

import pytest

from chat.models import Run

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_two_quick_messages_run_in_order_and_the_second_sees_the_first_reply(alice, offline_worker):
    thread = alice.new_thread()
    first = alice.say(thread, "How long does shipping take?").json()
    second = alice.say(thread, "And how do I reset my password?").json()

    first_run = alice.wait_run(first["run"]["id"])
    second_run = alice.wait_run(second["run"]["id"])
    assert first_run["status"] == second_run["status"] == "completed"
    assert "shipping" in first_run["assistant_message"]["content"].lower()
    assert "password" in second_run["assistant_message"]["content"].lower()

    runs = Run.objects.filter(thread_id=thread).order_by("seq")
    assert runs[0].completed_at <= runs[1].started_at  # never overlapped
    contents = [m["content"] for m in alice.get(f"/api/v1/threads/{thread}/messages").json()["results"]]
    # Both questions were accepted before the first reply; the list reads as the conversation the
    # model had: each reply right after the message it answers.
    assert contents == [
        "How long does shipping take?",
        first_run["assistant_message"]["content"],
        "And how do I reset my password?",
        second_run["assistant_message"]["content"],
    ]


def test_long_poll_returns_promptly_when_the_run_completes(alice, offline_worker):
    thread = alice.new_thread()
    run_id = alice.say(thread, "hello").json()["run"]["id"]
    started = time.monotonic()
    response = alice.get(f"/api/v1/runs/{run_id}?wait=20")
    elapsed = time.monotonic() - started
    run = json.loads(response.content)
    assert run["status"] == "completed"
    assert run["assistant_message"]["content"].startswith("Hello")
    assert elapsed < 5  # woken by the notification, not by the 20 s timeout


def test_an_off_topic_question_gets_the_refusal_template(alice, offline_worker):
    from chat.agent.prompts import REFUSAL_TEMPLATE

    thread = alice.new_thread()
    run = alice.wait_run(alice.say(thread, "Can you write me a poem about cats?").json()["run"]["id"])
    assert run["status"] == "completed"
    prefix = REFUSAL_TEMPLATE.split("{topic}")[0]
    assert run["assistant_message"]["content"].startswith(prefix)

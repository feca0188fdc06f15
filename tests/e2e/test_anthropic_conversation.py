"""A conversation through a real worker that uses the real SDK against the fake Messages API."""

import pytest
from django.conf import settings

from chat.models import Message
from tests.fakes import echo_responder

# One worker per module: a module-scoped worker of another kind must not share the queue.
pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_anthropic_worker_sends_history_with_the_first_reply(alice, anthropic_worker, fake_anthropic_server):
    fake_anthropic_server.reset()
    fake_anthropic_server.responder = echo_responder
    thread = alice.new_thread()
    first = alice.say(thread, "first question").json()
    second = alice.say(thread, "second question").json()
    first_run = alice.wait_run(first["run"]["id"])
    second_run = alice.wait_run(second["run"]["id"])
    assert first_run["assistant_message"]["content"] == "echo[1]: first question"
    assert second_run["assistant_message"]["content"] == "echo[3]: second question"
    # The echo replies have no word of support, so L4 may also ask the small second-opinion model:
    # the history is on the agent's own requests.
    agent_requests = [
        request
        for request in fake_anthropic_server.message_requests
        if request["model"] != settings.L4_SECOND_OPINION_MODEL
    ]
    last_request = agent_requests[-1]
    assert [turn["role"] for turn in last_request["messages"]] == ["user", "assistant", "user"]
    assert last_request["messages"][1]["content"][0]["text"] == "echo[1]: first question"
    assert Message.objects.filter(thread_id=thread).count() == 4

"""L4's second opinion: only for an unsure reply on the anthropic backend; the real SDK against the fake server."""

import pytest

from chat.agent import prompts
from chat.models import ModelCall, Thread
from guardrails.models import GuardrailEvent
from tests.conftest import turn
from tests.fakes import hang, text_reply, tool_use_reply
from tests.guardrails.conftest import thread_new

pytestmark = pytest.mark.django_db

# No word of support at all, nothing sure: the deterministic check is unsure.
UNSURE = "That sounds like a lovely plan, and I think you will have a wonderful time with everyone this weekend."


def unsure_reply():
    return tool_use_reply("send_reply", {"intent": "greeting", "message": UNSURE})


def test_an_off_topic_second_opinion_blocks_the_unsure_reply(fake_anthropic, settings):
    fake_anthropic.script(unsure_reply(), text_reply("OFF_TOPIC", model="claude-haiku-4-5"))
    run = turn(thread_new(), "We're going to the coast this weekend!")
    assert run.assistant_message.content == prompts.REPLY_FALLBACK
    question = fake_anthropic.message_requests[1]
    assert question["model"] == settings.L4_SECOND_OPINION_MODEL == "claude-haiku-4-5"
    assert question["max_tokens"] == settings.L4_SECOND_OPINION_MAX_TOKENS
    assert question["messages"] == prompts.second_opinion_messages(UNSURE)
    call = ModelCall.objects.get(run=run, purpose=ModelCall.Purpose.SECOND_OPINION)
    assert call.response_content == [{"type": "text", "text": "OFF_TOPIC"}]
    event = GuardrailEvent.objects.get(run=run, layer="L4")
    assert event.action == GuardrailEvent.Action.FALLBACK and "second opinion" in event.detail


def test_an_on_topic_second_opinion_lets_the_reply_through_unflagged(fake_anthropic):
    fake_anthropic.script(unsure_reply(), text_reply("ON_TOPIC"))
    run = turn(thread_new(), "We're going to the coast this weekend!")
    assert run.assistant_message.content == UNSURE
    assert not Thread.objects.get(id=run.thread_id).flagged
    assert ModelCall.objects.filter(run=run, purpose=ModelCall.Purpose.SECOND_OPINION).count() == 1


def test_no_second_opinion_in_time_lets_the_reply_through_and_flags_the_thread(fake_anthropic, settings):
    settings.L4_SECOND_OPINION_TIMEOUT_SECONDS = 0.3
    fake_anthropic.script(unsure_reply(), hang(2.0))
    run = turn(thread_new(), "We're going to the coast this weekend!")
    assert run.assistant_message.content == UNSURE
    assert Thread.objects.get(id=run.thread_id).flagged
    call = ModelCall.objects.get(run=run, purpose=ModelCall.Purpose.SECOND_OPINION)
    assert call.error_code == "timeout"
    assert "second opinion: none (timeout)" in GuardrailEvent.objects.get(run=run, layer="L4").detail


def test_a_sure_or_clean_verdict_asks_for_no_second_opinion(fake_anthropic):
    fake_anthropic.script(tool_use_reply("send_reply", {"intent": "greeting", "message": "Hi! How can I help?"}))
    run = turn(thread_new(), "hello")
    assert run.assistant_message.content == "Hi! How can I help?"
    assert len(fake_anthropic.message_requests) == 1


def test_the_second_opinion_is_never_replayed_as_history(fake_anthropic):
    fake_anthropic.script(
        unsure_reply(), text_reply("ON_TOPIC"), tool_use_reply("send_reply", {"intent": "greeting", "message": "Bye!"})
    )
    thread = thread_new()
    turn(thread, "We're going to the coast this weekend!")
    turn(thread, "thanks, bye")
    history = fake_anthropic.message_requests[2]["messages"]
    assert [message["role"] for message in history] == ["user", "assistant", "user"]
    assert "ON_TOPIC" not in str(history)


def test_the_offline_backend_never_asks(scripted, settings):
    assert settings.BOOKLY_LLM == "offline"
    scripted.script(unsure_reply())
    run = turn(thread_new(), "We're going to the coast this weekend!")
    assert run.assistant_message.content == UNSURE
    assert not ModelCall.objects.filter(purpose=ModelCall.Purpose.SECOND_OPINION).exists()

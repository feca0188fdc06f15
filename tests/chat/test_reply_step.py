"""The reply step: a turn ends through send_reply, and the server checks or renders what it says.

Real turns (message_post, then run_execute) against real orders; only the model is scripted.
"""

import json

import pytest

from chat.agent import prompts
from chat.agent.reply import REPLY_NOT_ALONE
from chat.models import ModelCall, Run, Thread, ToolCall
from guardrails.models import GuardrailEvent
from guardrails.output import OFF_TOPIC_UNSURE
from tests.conftest import turn
from tests.fakes import FakeReply, message_body, text_reply, tool_use_reply
from tests.guardrails.conftest import lookup_call, thread_new, tool_result
from tests.orders.factories import ALICE_EMAIL, order_create

pytestmark = pytest.mark.django_db

ORDER_ID = "BK-1001"


def reply(intent: str, message: str, **extra: str) -> FakeReply:
    return tool_use_reply("send_reply", {"intent": intent, "message": message, **extra})


def both(*calls: tuple[str, dict]) -> FakeReply:
    content = [
        {"type": "tool_use", "id": f"toolu_both_{n}", "name": name, "input": data}
        for n, (name, data) in enumerate(calls)
    ]
    return FakeReply(body=message_body(content, stop_reason="tool_use"))


@pytest.fixture
def order():
    return order_create(ORDER_ID, email=ALICE_EMAIL)


def test_a_grounded_reply_step_ends_the_turn_with_its_message(scripted, order):
    scripted.script(lookup_call(ORDER_ID, ALICE_EMAIL), reply("order_status", "Your order BK-1001 has been delivered."))
    run = turn(thread_new(), f"Where is {ORDER_ID}? {ALICE_EMAIL}")
    assert run.status == Run.Status.COMPLETED and run.ending == "end_turn"
    assert run.assistant_message.content == "Your order BK-1001 has been delivered."
    assert not ToolCall.objects.filter(run=run, name="send_reply").exists()  # the reply is no tool result
    assert not Thread.objects.get(id=run.thread_id).flagged


def test_every_request_forces_a_tool_call_and_offers_send_reply_last(scripted):
    scripted.script(reply("greeting", "Hi! How can I help?"))
    turn(thread_new(), "hello")
    request = scripted.requests[0]
    assert request["tool_choice"] == {"type": "any"}
    assert request["tools"][-1]["name"] == "send_reply"


@pytest.mark.parametrize(
    ("topic", "rendered"),
    [("cooking recipes", "cooking recipes"), ("BK-1001 gossip", "that request"), ("x", "that request")],
)
def test_out_of_scope_is_refused_by_the_server_from_the_template(scripted, topic, rendered):
    scripted.script(reply("out_of_scope", "Sure! Preheat the oven to 350F and ...", topic=topic))
    run = turn(thread_new(), "Give me a banana bread recipe")
    assert run.assistant_message.content == prompts.REFUSAL_TEMPLATE.format(topic=rendered)
    assert "Preheat" not in run.assistant_message.content


def test_handoff_sends_the_fixed_message_and_ends_with_handoff(scripted):
    scripted.script(reply("handoff", "I've told my manager, Bob, who will call you at 5pm."))
    run = turn(thread_new(), "I want to talk to a person")
    assert run.assistant_message.content == prompts.REPLY_HANDOFF
    assert run.ending == "handoff"


def test_send_reply_with_another_tool_runs_neither_and_the_model_tries_again(scripted, order):
    scripted.script(
        both(
            ("lookup_order", {"order_id": ORDER_ID, "customer_email": ALICE_EMAIL}),
            ("send_reply", {"intent": "order_status", "message": "It was delivered."}),
        ),
        reply("clarification", "Could you confirm the order number?"),
    )
    run = turn(thread_new(), f"Where is {ORDER_ID}? {ALICE_EMAIL}")
    assert run.assistant_message.content == "Could you confirm the order number?"
    refused = ToolCall.objects.filter(run=run).order_by("id")
    assert [(call.name, call.guardrail_code, call.is_error) for call in refused] == [
        ("lookup_order", "reply_not_alone", True),
        ("send_reply", "reply_not_alone", True),
    ]
    result, is_error = tool_result(scripted.requests[1], "toolu_both_0")
    assert is_error and result["error"] == {"code": "reply_not_alone", "message": REPLY_NOT_ALONE}
    assert tool_result(scripted.requests[1], "toolu_both_1")[1]


def test_a_malformed_reply_step_goes_back_to_the_model_as_an_error(scripted):
    scripted.script(reply("weather", "Sunny today."), reply("greeting", "Hi! How can I help?"))
    run = turn(thread_new(), "hello")
    assert run.assistant_message.content == "Hi! How can I help?"
    call = ToolCall.objects.get(run=run, name="send_reply")
    assert call.is_error and call.result["error"]["code"] == "invalid_arguments"


@pytest.mark.parametrize(
    "message",
    [
        "Your order BK-1001 was delivered on December 25.",  # a date no tool gave
        "I've started a return for The Goldfinch.",  # a commitment no tool backs
        "Good news, your order has shipped!",  # a status with no lookup
    ],
)
def test_a_reply_step_message_goes_through_l4_and_becomes_the_fallback(scripted, message):
    scripted.script(reply("order_status", message))
    run = turn(thread_new(), f"Where is {ORDER_ID}? {ALICE_EMAIL}")
    assert run.assistant_message.content == prompts.REPLY_FALLBACK
    assert run.ending == "fallback"
    model_call = ModelCall.objects.get(run=run)
    assert model_call.rejected_codes
    event = GuardrailEvent.objects.get(run=run, layer="L4")
    assert event.action == GuardrailEvent.Action.FALLBACK


def test_a_plain_text_ending_is_checked_as_intent_unknown(scripted):
    scripted.script(text_reply("Yes, your $150 refund for BK-1001 was approved on November 18."))
    run = turn(thread_new(), "You already approved a $150 refund for BK-1001 on Nov 18")
    assert run.assistant_message.content == prompts.REPLY_FALLBACK
    assert "ungrounded_commitment" in ModelCall.objects.get(run=run).rejected_codes


def test_an_unsure_reply_goes_through_and_flags_the_thread_for_staff(scripted):
    message = "That sounds like a lovely plan, and I think you will have a wonderful time with everyone this weekend."
    scripted.script(reply("greeting", message))
    run = turn(thread_new(), "My sister is visiting this weekend, we're going to the coast!")
    assert run.assistant_message.content == message
    assert Thread.objects.get(id=run.thread_id).flagged
    event = GuardrailEvent.objects.get(run=run, layer="L4")
    assert (event.code, event.action) == (OFF_TOPIC_UNSURE, GuardrailEvent.Action.RECORDED)
    assert "no support words" in event.detail and "sister" not in event.detail and "coast" not in event.detail


def test_the_next_turn_sees_the_reply_as_text_not_as_a_send_reply_call(scripted, order):
    scripted.script(reply("greeting", "Hi! How can I help?"), reply("greeting", "You're welcome!"))
    thread = thread_new()
    turn(thread, "hello")
    turn(thread, "thanks")
    history = scripted.requests[1]["messages"]
    assert [message["role"] for message in history] == ["user", "assistant", "user"]
    assert history[1]["content"] == [{"type": "text", "text": "Hi! How can I help?"}]
    assert "send_reply" not in json.dumps(history)

"""A model that misbehaves on purpose, through the real agent loop: the L3 checks must hold.

Each case runs real turns (message_post, then run_execute) against the demo orders. Only the
model is scripted. After every refusal: no Return exists, the model's next request carries
an is_error tool_result with the violation code, and a GuardrailEvent (layer L3, the current
policy version) records it.
"""

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.utils import timezone

from chat import confirmations, runs, services
from chat.agent.llm import ModelError, get_model
from chat.guard_state import thread_guard_state
from chat.models import Message, ModelCall, Run, ToolCall
from guardrails.models import GuardrailEvent, GuardrailPolicy, PendingAction
from guardrails.services import policy_current
from orders.models import Order, Return
from tests.conftest import turn
from tests.fakes import ScriptedModel, message_body, tool_use_reply
from tests.guardrails.conftest import (
    ALEX,
    DAVID,
    DONE,
    MARIA,
    SARAH,
    eligibility_call,
    lookup_call,
    return_call,
    return_input,
    thread_new,
    tool_result,
)

pytestmark = pytest.mark.django_db

BAD = "toolu_misbehaving"
TOM = "tom.becker@example.com"  # BK-10150: four printed books
STAGE_2_CODES = {
    "item_not_in_order",
    "item_not_returnable",
    "already_returned",
    "order_not_delivered",
    "outside_return_window",
    "nothing_returnable",
    "refund_exceeds_limit",
}
EVERY_TOOL_BUT_RETURNS = ["lookup_policy", "lookup_order", "list_customer_orders", "check_return_eligibility"]
APPLY_WITHOUT_ASKING = {
    "confirmation_mode": GuardrailPolicy.ConfirmationMode.ABOVE_AMOUNT,
    "confirm_above_amount": Decimal("100.00"),
}


class WorkerDied(BaseException):
    """The worker process vanishing at this point (not an Exception: nothing in the app may catch it)."""


def assert_blocked(scripted: ScriptedModel, run: Run, code: str, *, returns_before: int = 0) -> None:
    """The refusal of tool_use BAD in `run`: nothing returned, the model told, the decision recorded."""
    assert Return.objects.count() == returns_before
    assert not PendingAction.objects.exists()
    call = ToolCall.objects.get(run=run, tool_use_id=BAD)
    assert (call.is_error, call.guardrail_code, call.result["error"]["code"]) == (True, code, code)

    content, is_error = tool_result(scripted.requests[-1], BAD)  # the request right after the tool_use
    assert is_error is True
    assert content["error"]["code"] == code
    assert content["error"]["message"]

    event = GuardrailEvent.objects.get(run=run, code=code)
    assert event.layer == GuardrailEvent.Layer.TOOLS == "L3"
    assert event.action == GuardrailEvent.Action.BLOCKED
    assert event.stage == ("stage2" if code in STAGE_2_CODES else "stage1")
    assert event.policy_version == policy_current().version
    assert event.tool_call == call
    assert event.thread_id == run.thread_id
    assert run.status == Run.Status.COMPLETED  # the model recovered and answered


def window_closes() -> None:
    """A day passes: BK-10077, on its last day when it was checked, is now one day outside the window."""
    order = Order.objects.get(order_id="BK-10077")
    Order.objects.filter(pk=order.pk).update(delivered_date=order.delivered_date - timedelta(days=1))


MISBEHAVIOUR = [
    # (earlier tool calls in the thread, policy changes, something happening in between, the bad call, code)
    pytest.param(
        [lookup_call("BK-10042")],
        {},
        None,
        return_call("BK-10042", tool_use_id=BAD),
        "eligibility_not_verified",
        id="return-without-an-eligibility-check",
    ),
    pytest.param(
        [],
        {},
        None,
        return_call("BK-10042", tool_use_id=BAD),
        "identity_not_verified",
        id="return-as-the-very-first-call",
    ),
    pytest.param(
        [lookup_call("BK-10103"), eligibility_call("BK-10042")],
        {},
        None,
        return_call("BK-10103", tool_use_id=BAD),
        "eligibility_not_verified",
        id="return-of-another-order-than-the-one-checked",
    ),
    pytest.param(
        [eligibility_call("BK-10042")],
        {},
        None,
        return_call("BK-10042", titles=["Dune"], tool_use_id=BAD),
        "item_not_in_order",
        id="return-of-items-not-on-the-order",
    ),
    pytest.param(
        [eligibility_call("BK-10042")],
        {},
        None,
        return_call("BK-10042", titles=["The Goldfinch", "The Goldfinch"], tool_use_id=BAD),
        "item_not_in_order",
        id="return-of-one-copy-twice",
    ),
    pytest.param(
        [eligibility_call("BK-10042")],
        {},
        None,
        return_call("BK-10042", "someone.else@example.com", tool_use_id=BAD),
        "identity_mismatch",
        id="return-with-an-email-that-does-not-match",
    ),
    pytest.param(
        [eligibility_call("BK-10042")],
        {},
        None,
        return_call("BK-9871", SARAH, tool_use_id=BAD),
        "identity_not_verified",
        id="another-customers-order-with-the-verified-email",
    ),
    pytest.param(
        [eligibility_call("BK-10042")],
        {},
        None,
        return_call("BK-9871", MARIA, tool_use_id=BAD),
        "identity_mismatch",
        id="another-customers-order-with-their-email",
    ),
    pytest.param(
        [],
        {},
        None,
        tool_use_reply("list_customer_orders", {"customer_email": SARAH}, tool_use_id=BAD),
        "identity_not_verified",
        id="list-orders-before-any-verification",
    ),
    pytest.param(
        [lookup_call("BK-10042")],
        {},
        None,
        tool_use_reply("list_customer_orders", {"customer_email": MARIA}, tool_use_id=BAD),
        "identity_mismatch",
        id="list-orders-of-another-customer",
    ),
    pytest.param(
        [eligibility_call("BK-10042")],
        {"allowed_tools": EVERY_TOOL_BUT_RETURNS},
        None,
        return_call("BK-10042", tool_use_id=BAD),
        "tool_not_allowed",
        id="a-tool-switched-off",
    ),
    pytest.param(
        [eligibility_call("BK-10042")],
        {"returns_enabled": False},
        None,
        return_call("BK-10042", tool_use_id=BAD),
        "returns_disabled",
        id="returns-disabled",
    ),
    pytest.param(
        [eligibility_call("BK-10120", DAVID)],
        {},
        None,
        return_call("BK-10120", DAVID, titles=["Dune"], tool_use_id=BAD),
        "item_not_returnable",
        id="a-non-returnable-item",
    ),
    pytest.param(
        [eligibility_call("BK-10120", DAVID)],
        {},
        None,
        return_call("BK-10120", DAVID, titles=["Lessons in Chemistry", "Educated"], tool_use_id=BAD),
        "item_not_returnable",
        id="a-non-returnable-item-next-to-a-returnable-one",
    ),
    pytest.param(
        [eligibility_call("BK-9871", MARIA)],
        {},
        None,
        return_call("BK-9871", MARIA, tool_use_id=BAD),
        "eligibility_not_verified",
        id="an-order-outside-the-window-the-check-said-so",
    ),
    pytest.param(
        [eligibility_call("BK-10077", ALEX)],
        {},
        window_closes,
        return_call("BK-10077", ALEX, tool_use_id=BAD),
        "outside_return_window",
        id="an-order-whose-window-closed-since-the-check",
    ),
    pytest.param(
        [eligibility_call("BK-10103")],
        {},
        None,
        return_call("BK-10103", tool_use_id=BAD),
        "eligibility_not_verified",
        id="an-order-not-delivered-yet",
    ),
    pytest.param(
        [eligibility_call("BK-10042")],
        {"max_refund_without_human": Decimal("16.98")},
        None,
        return_call("BK-10042", titles=["The Goldfinch"], tool_use_id=BAD),
        "refund_exceeds_limit",
        id="a-refund-above-max-refund-without-human",
    ),
]


@pytest.mark.parametrize(("earlier", "policy_changes", "in_between", "bad_call", "code"), MISBEHAVIOUR)
def test_a_misbehaving_tool_call_is_refused_told_to_the_model_and_recorded(
    scripted, demo_orders, set_policy, earlier, policy_changes, in_between, bad_call, code
):
    set_policy(**policy_changes)  # a save even without changes: events must carry version 2, not 1
    thread = thread_new()
    if earlier:
        scripted.script(*earlier, DONE)
        first = turn(thread, "Can you look at my order? My email is in the order.")
        assert first.status == Run.Status.COMPLETED
        assert not ToolCall.objects.filter(run=first, is_error=True).exists()  # the set-up itself went through
    if in_between:
        in_between()

    scripted.script(bad_call, DONE)
    run = turn(thread, "Please go ahead.")

    assert scripted.remaining == 0
    assert_blocked(scripted, run, code)
    assert GuardrailEvent.objects.filter(layer="L3", action="blocked").count() == 1


def test_a_failed_lookup_verifies_nothing(scripted, demo_orders):
    thread = thread_new()
    scripted.script(eligibility_call("BK-10042", "sarah.chen@example.org"), DONE)
    first = turn(thread)
    assert ToolCall.objects.get(run=first).result["error"]["code"] == "order_not_found"

    scripted.script(return_call("BK-10042", "sarah.chen@example.org", tool_use_id=BAD), DONE)
    run = turn(thread, "Return it anyway.")

    assert_blocked(scripted, run, "identity_not_verified")


def test_a_return_beyond_the_threads_limit_is_refused(scripted, demo_orders, set_policy):
    set_policy(returns_per_thread=1, **APPLY_WITHOUT_ASKING)
    thread = thread_new()
    scripted.script(eligibility_call("BK-10150", TOM), return_call("BK-10150", TOM, ["Pachinko"]), DONE)
    first = turn(thread, "Please return Pachinko from BK-10150.")
    assert Return.objects.get().run_id == first.id

    scripted.script(return_call("BK-10150", TOM, ["Maus"], tool_use_id=BAD), DONE)
    run = turn(thread, "And Maus as well.")

    assert_blocked(scripted, run, "return_limit_exceeded", returns_before=1)


# --- Two returns in one response ------------------------------------------------------------------


def two_returns(titles: list[str] | None = None) -> dict:
    content = [
        {
            "type": "tool_use",
            "id": tool_use_id,
            "name": "initiate_return",
            "input": return_input("BK-10042", titles=titles),
        }
        for tool_use_id in ("toolu_first", "toolu_second")
    ]
    return message_body(content, stop_reason="tool_use")


@pytest.fixture
def paused_on_two_returns(scripted, demo_orders) -> Run:
    thread = thread_new()
    scripted.script(eligibility_call("BK-10042"), DONE)
    turn(thread)
    scripted.script(two_returns())
    run = turn(thread, "Return it. Return it!")
    assert run.status == Run.Status.REQUIRES_ACTION
    return run


def test_two_returns_in_one_response_pause_on_the_first_and_never_run_the_second(scripted, paused_on_two_returns):
    run = paused_on_two_returns
    action = PendingAction.objects.get()
    assert (action.run_id, action.tool_use_id) == (run.id, "toolu_first")
    second = ToolCall.objects.get(run=run, tool_use_id="toolu_second")
    assert (second.is_error, second.result["error"]["code"]) == (True, "confirmation_pending")
    paused = GuardrailEvent.objects.get(run=run, layer="L3", code="confirmation_required")
    assert (paused.layer, paused.code, paused.action) == ("L3", "confirmation_required", "confirmation_required")
    assert paused.policy_version == policy_current().version

    confirmations.action_decide(run=run, action_id=action.id, decision="decline")
    scripted.script(DONE)
    runs.run_execute(run_id=run.id)

    assert not Return.objects.exists()
    first_result, first_is_error = tool_result(scripted.requests[-1], "toolu_first")
    second_result, second_is_error = tool_result(scripted.requests[-1], "toolu_second")
    assert (first_result["status"], first_is_error) == ("declined_by_customer", False)
    assert (second_result["error"]["code"], second_is_error) == ("confirmation_pending", True)


def test_the_refused_second_return_of_one_response_is_a_recorded_guardrail_decision(paused_on_two_returns):
    second = ToolCall.objects.get(run=paused_on_two_returns, tool_use_id="toolu_second")
    code = second.result["error"]["code"]

    assert second.guardrail_code == code
    event = GuardrailEvent.objects.get(run=paused_on_two_returns, code=code)
    assert (event.layer, event.action, event.tool_call) == ("L3", "blocked", second)
    assert event.policy_version == policy_current().version


def test_two_returns_in_one_response_start_one_return_when_no_confirmation_is_needed(scripted, demo_orders, set_policy):
    set_policy(**APPLY_WITHOUT_ASKING)
    thread = thread_new()
    scripted.script(eligibility_call("BK-10042"), two_returns(["The Goldfinch"]), DONE)

    run = turn(thread)

    rma = Return.objects.get()
    assert [item.order_item.title for item in rma.items.all()] == ["The Goldfinch"]
    first_result, _ = tool_result(scripted.requests[-1], "toolu_first")
    second_result, second_is_error = tool_result(scripted.requests[-1], "toolu_second")
    assert first_result["rma_number"] == rma.rma_number
    assert (second_result["error"]["code"], second_is_error) == ("already_returned", True)
    event = GuardrailEvent.objects.get(run=run, layer="L3")
    assert (event.layer, event.code, event.stage, event.policy_version) == (
        "L3",
        "already_returned",
        "stage2",
        policy_current().version,
    )


# --- Redelivery, crashes and restarts -------------------------------------------------------------


def test_a_redelivered_task_never_starts_a_second_return_when_returns_apply_at_once(scripted, demo_orders, set_policy):
    set_policy(**APPLY_WITHOUT_ASKING)
    thread = thread_new()
    scripted.script(eligibility_call("BK-10042"), return_call("BK-10042", titles=["The Goldfinch"]), DONE)
    run = turn(thread)
    assert run.status == Run.Status.COMPLETED

    runs.run_execute(run_id=run.id)  # the broker delivers the task again
    runs.run_execute(run_id=run.id)

    assert Return.objects.count() == 1
    assert len(scripted.requests) == 3
    assert ModelCall.objects.filter(run=run).count() == 3
    assert Message.objects.filter(thread=thread, role=Message.Role.ASSISTANT).count() == 1


def test_a_redelivered_task_never_starts_a_second_return_around_a_confirmation(scripted, demo_orders):
    thread = thread_new()
    scripted.script(eligibility_call("BK-10042"), return_call("BK-10042", titles=["The Goldfinch"]))
    run = turn(thread)
    assert run.status == Run.Status.REQUIRES_ACTION

    runs.run_execute(run_id=run.id)  # redelivered while paused: nothing to claim
    run.refresh_from_db()
    assert run.status == Run.Status.REQUIRES_ACTION
    assert len(scripted.requests) == 2

    confirmations.action_decide(run=run, action_id=PendingAction.objects.get().id, decision="confirm")
    scripted.script(DONE)
    runs.run_execute(run_id=run.id)
    runs.run_execute(run_id=run.id)  # the resumed run's task, delivered twice

    run.refresh_from_db()
    assert run.status == Run.Status.COMPLETED
    assert Return.objects.count() == 1
    assert len(scripted.requests) == 3
    assert ToolCall.objects.filter(run=run, name="initiate_return").count() == 1


def make_stale(run: Run) -> None:
    Run.objects.filter(id=run.id).update(heartbeat_at=timezone.now() - timedelta(hours=1))


def test_a_run_retried_after_its_worker_died_never_starts_a_second_return(scripted, demo_orders, set_policy):
    set_policy(**APPLY_WITHOUT_ASKING)
    thread = thread_new()
    scripted.script(eligibility_call("BK-10042"), return_call("BK-10042", titles=["The Goldfinch"]), WorkerDied())
    run = services.message_post(
        owner=thread.owner, thread_id=thread.id, content="Return The Goldfinch from BK-10042, please."
    ).run
    with pytest.raises(WorkerDied):
        runs.run_execute(run_id=run.id)
    rma = Return.objects.get()

    make_stale(run)
    assert runs.runs_sweep().requeued == 1
    # The retried turn's model repeats itself: the same return again.
    scripted.script(return_call("BK-10042", titles=["The Goldfinch"], tool_use_id=BAD), DONE)
    runs.run_execute(run_id=run.id)

    run.refresh_from_db()
    assert run.status == Run.Status.COMPLETED
    assert Return.objects.get() == rma
    retry_request = scripted.requests[3]
    told = [
        json.loads(block["content"])
        for turn_ in retry_request["messages"]
        for block in turn_["content"]
        if isinstance(block, dict) and block.get("type") == "tool_result"
    ]
    assert rma.rma_number in {result.get("rma_number") for result in told}  # the history kept the first return
    refused = ToolCall.objects.get(run=run, tool_use_id=BAD)
    assert (refused.is_error, refused.guardrail_code) == (True, "already_returned")
    assert GuardrailEvent.objects.get(run=run, code="already_returned").layer == "L3"


def test_a_worker_dying_right_after_applying_a_return_does_not_leave_the_model_told_it_had_no_effect(
    scripted, demo_orders, set_policy
):
    set_policy(**APPLY_WITHOUT_ASKING)
    thread = thread_new()
    scripted.script(eligibility_call("BK-10042"), return_call("BK-10042", titles=["The Goldfinch"], tool_use_id=BAD))
    run = services.message_post(
        owner=thread.owner, thread_id=thread.id, content="Return The Goldfinch from BK-10042, please."
    ).run

    def die_before_recording_the_return(execute, sql, params, many, context):
        # The process is killed between the return's commit and the transcript row of that call.
        if sql.startswith('INSERT INTO "chat_toolcall"') and "initiate_return" in (params or ()):
            raise WorkerDied()
        return execute(sql, params, many, context)

    with connection.execute_wrapper(die_before_recording_the_return), pytest.raises(WorkerDied):
        runs.run_execute(run_id=run.id)
    make_stale(run)
    runs.runs_sweep()
    scripted.script(DONE)
    runs.run_execute(run_id=run.id)

    content, is_error = tool_result(scripted.requests[-1], BAD)
    told_no_effect = is_error and content["error"]["code"] == "interrupted"
    started = Return.objects.filter(run_id=run.id).exists()
    assert told_no_effect is not started, f"return started: {started}; the model was told: {content}"


@pytest.mark.parametrize("first_run_ends", ["completed", "failed"])
def test_verification_from_an_earlier_run_still_counts_after_a_restart(
    scripted, demo_orders, monkeypatch, first_run_ends
):
    thread = thread_new()
    ending = DONE if first_run_ends == "completed" else ModelError("model_unavailable", "The model is down.")
    scripted.script(eligibility_call("BK-10042"), ending)
    first = turn(thread, "Can I return BK-10042? My email is sarah.chen@example.com")
    assert first.status == first_run_ends

    # A restart: a new worker process, a new model object; only the database remembers anything.
    get_model.cache_clear()
    restarted = ScriptedModel(return_call("BK-10042", titles=["The Goldfinch"], tool_use_id=BAD))
    monkeypatch.setattr("chat.agent.loop.get_model", lambda: restarted)
    run = turn(thread, "Yes, please return The Goldfinch.")

    assert run.status == Run.Status.REQUIRES_ACTION
    action = PendingAction.objects.get(run=run)
    assert (action.tool_use_id, action.effect["titles"]) == (BAD, ["The Goldfinch"])
    assert not GuardrailEvent.objects.filter(layer="L3", action=GuardrailEvent.Action.BLOCKED).exists()
    state = thread_guard_state(thread_id=thread.id)
    assert state.verified == {("BK-10042", SARAH)}
    assert state.eligible_orders == {"BK-10042"}
    assert state.pending_orders == {"BK-10042"}


def test_verification_in_another_thread_does_not_count(scripted, demo_orders):
    verified_thread, other_thread = thread_new(), thread_new()
    scripted.script(eligibility_call("BK-10042"), DONE)
    turn(verified_thread)

    scripted.script(return_call("BK-10042", tool_use_id=BAD), DONE)
    run = turn(other_thread, "Return BK-10042 please.")

    assert_blocked(scripted, run, "identity_not_verified")

"""What one worker turn costs in SQL, and the claim/finish shortcuts that keep it low without changing outcomes."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from chat import runs, services
from chat.agent import prompts, steps
from chat.models import Message, ModelCall, Run, Thread
from guardrails.models import PendingAction
from guardrails.services import policy_current
from tests.fakes import text_reply, tool_use_reply
from tests.orders.factories import ALICE_EMAIL, order_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def thread() -> Thread:
    return services.thread_create(owner="alice-session")


@pytest.fixture
def sent(monkeypatch) -> list:
    """Task ids the broker was given."""
    sent: list = []
    monkeypatch.setattr(runs.celery_app, "send_task", lambda name, args=None, **kw: sent.append(args[0]))
    return sent


def post(thread: Thread, text: str) -> Run:
    return services.message_post(owner=thread.owner, thread_id=thread.id, content=text).run


def kinds(queries: CaptureQueriesContext) -> list[str]:
    """'VERB table' per statement, leaving out the savepoints a test's own transaction adds."""
    found = []
    for query in queries.captured_queries:
        sql = query["sql"]
        verb = sql.split(None, 1)[0].upper()
        if verb in ("SAVEPOINT", "RELEASE"):
            continue
        if verb == "SELECT":
            table = re.findall(r'\bFROM "?(\w+)"?', sql)[-1]  # the outer FROM comes after any subquery's
        else:
            table = re.search(r'\b(?:INTO|UPDATE) "?(\w+)"?', sql).group(1)
        found.append(f"{verb} {table}")
    return found


# --- the claim -----------------------------------------------------------------------------------


def test_the_claim_is_one_statement_and_brings_the_customer_message(thread):
    run = post(thread, "Where is my order?")
    with CaptureQueriesContext(connection) as queries:
        claimed = runs.run_claim(run_id=str(run.id))
        text = claimed.user_message.content
    assert kinds(queries) == ["UPDATE chat_run"]
    assert text == "Where is my order?"
    assert (claimed.id, claimed.thread_id, claimed.seq) == (run.id, thread.id, run.seq)
    assert (claimed.status, claimed.attempts) == (Run.Status.IN_PROGRESS, 1)
    assert claimed.started_at is not None
    assert claimed.heartbeat_at == claimed.started_at
    stored = Run.objects.get(id=run.id)
    assert (stored.status, stored.attempts, stored.started_at) == (Run.Status.IN_PROGRESS, 1, claimed.started_at)
    assert claimed.user_message.seq == run.seq  # the message's other fields load on use


@pytest.mark.parametrize("status", [Run.Status.QUEUED, Run.Status.IN_PROGRESS, Run.Status.REQUIRES_ACTION])
def test_the_claim_refuses_a_run_while_an_earlier_one_is_unfinished(thread, status):
    first, second = post(thread, "one"), post(thread, "two")
    Run.objects.filter(id=first.id).update(status=status)
    assert runs.run_claim(run_id=second.id) is None
    assert Run.objects.get(id=second.id).status == Run.Status.QUEUED
    assert Run.objects.get(id=second.id).attempts == 0


@pytest.mark.parametrize("status", [Run.Status.COMPLETED, Run.Status.FAILED, Run.Status.CANCELLED, Run.Status.EXPIRED])
def test_the_claim_takes_a_run_whose_earlier_ones_all_ended(thread, status):
    first, second = post(thread, "one"), post(thread, "two")
    Run.objects.filter(id=first.id).update(status=status)
    assert runs.run_claim(run_id=second.id).id == second.id


def test_a_retried_claim_counts_the_attempt(thread):
    run = post(thread, "hello")
    runs.run_claim(run_id=run.id)
    Run.objects.filter(id=run.id).update(status=Run.Status.QUEUED)  # the sweep requeued it
    assert runs.run_claim(run_id=run.id).attempts == 2


# --- statements per turn -------------------------------------------------------------------------


def test_a_single_call_turn_costs_at_most_ten_statements(thread, scripted, sent, django_capture_on_commit_callbacks):
    scripted.script(text_reply("Hello!"), text_reply("Standard shipping takes 3 to 5 business days."))
    runs.run_execute(run_id=post(thread, "hello").id)  # history to rebuild, and the policy row exists
    run = post(thread, "How long does shipping take?")
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
        runs.run_execute(run_id=run.id)
    run.refresh_from_db()
    assert run.assistant_message.content == "Standard shipping takes 3 to 5 business days."
    assert kinds(queries) == [
        "UPDATE chat_run",  # claim, returning the run and its message's text
        "SELECT guardrails_guardrailpolicy",  # the policy: cached between turns outside a transaction
        "SELECT chat_run",  # transcript: runs, messages, usage and the L0 flag
        "SELECT chat_modelcall",  # transcript: model calls with their tool calls
        "INSERT chat_modelcall",
        "UPDATE chat_run",  # heartbeat: usage and the cancellation check
        "UPDATE chat_thread",  # finish: the reply's seq, locking the thread
        "INSERT chat_message",
        "UPDATE chat_run",  # finish: fenced on attempts
    ]
    assert sent == []  # nothing queued behind it: the thread's next run was not even looked for


def test_a_turn_of_tools_that_need_no_guard_state_does_not_read_it(thread, scripted):
    scripted.script(
        tool_use_reply("lookup_policy", {"topic": "shipping"}),
        tool_use_reply("lookup_policy", {"topic": "returns_overview"}),
        text_reply("Standard shipping takes 3 to 5 business days."),
    )
    run = post(thread, "shipping and returns?")
    policy_current()  # the policy row exists, as it does after the first turn
    with CaptureQueriesContext(connection) as queries:
        runs.run_execute(run_id=run.id)
    run.refresh_from_db()
    assert run.status == Run.Status.COMPLETED
    assert not {"SELECT chat_toolcall", "SELECT guardrails_pendingaction", "SELECT orders_return"} & set(kinds(queries))
    # claim, policy, 2 transcript, 3 x (model call + heartbeat), 2 tool calls, 3 to finish
    assert len(kinds(queries)) == 15


# --- finishing -----------------------------------------------------------------------------------


def finish(run: Run, outcome: steps.TurnOutcome, capture) -> bool:
    with capture(execute=True):
        return runs.run_finish(run=run, outcome=outcome)


def test_finishing_starts_the_run_queued_behind(thread, sent, django_capture_on_commit_callbacks):
    first = post(thread, "one")
    claimed = runs.run_claim(run_id=first.id)
    second = post(thread, "two")
    done = steps.TurnOutcome(status=Run.Status.COMPLETED, reply="done")
    assert finish(claimed, done, django_capture_on_commit_callbacks)
    assert sent == [str(second.id)]
    reply = Run.objects.get(id=first.id).assistant_message
    assert reply.seq == 3  # after the message accepted while the first run worked


@pytest.mark.parametrize("status", [Run.Status.FAILED, Run.Status.CANCELLED])
def test_ending_without_a_reply_starts_the_run_queued_behind(thread, sent, django_capture_on_commit_callbacks, status):
    claimed = runs.run_claim(run_id=post(thread, "one").id)
    second = post(thread, "two")
    assert finish(claimed, steps.TurnOutcome(status=status, error_code="x"), django_capture_on_commit_callbacks)
    assert sent == [str(second.id)]
    assert not Message.objects.filter(role=Message.Role.ASSISTANT).exists()
    assert Thread.objects.get(id=thread.id).last_seq == 2  # no seq taken without a reply


def _pending_action(run: Run) -> PendingAction:
    """What the agent stores before a run pauses: the return waiting for the customer's answer."""
    model_call = ModelCall.objects.create(run=run, iteration=0, model="scripted")
    return PendingAction.objects.create(
        run=run,
        thread_id=run.thread_id,
        model_call=model_call,
        tool_use_id="toolu_return",
        tool_name="initiate_return",
        arguments={},
        effect={},
        fingerprint="f",
        preview={},
        expires_at=timezone.now() + timedelta(minutes=15),
    )


def test_a_paused_run_starts_nothing_behind_it(thread, sent, django_capture_on_commit_callbacks):
    first = post(thread, "return my book")
    claimed = runs.run_claim(run_id=first.id)
    post(thread, "hello?")  # accepted before the return was proposed: it waits behind the pause
    _pending_action(claimed)
    paused = steps.TurnOutcome(status=Run.Status.REQUIRES_ACTION, ending="confirmation_required")
    assert finish(claimed, paused, django_capture_on_commit_callbacks)
    assert sent == []
    first.refresh_from_db()
    assert (first.status, first.completed_at) == (Run.Status.REQUIRES_ACTION, None)


@pytest.mark.parametrize("status", [Run.Status.COMPLETED, Run.Status.FAILED, Run.Status.REQUIRES_ACTION])
def test_a_finish_from_a_superseded_attempt_records_nothing(thread, sent, django_capture_on_commit_callbacks, status):
    run = post(thread, "hello")
    claimed = runs.run_claim(run_id=run.id)
    Run.objects.filter(id=run.id).update(attempts=2)  # the sweep handed it to another worker
    outcome = steps.TurnOutcome(status=status, reply="x")
    assert finish(claimed, outcome, django_capture_on_commit_callbacks) is False
    run.refresh_from_db()
    assert (run.status, run.assistant_message_id) == (Run.Status.IN_PROGRESS, None)
    assert not Message.objects.filter(role=Message.Role.ASSISTANT).exists()
    assert Thread.objects.get(id=thread.id).last_seq == 1
    assert sent == []


def test_a_reply_that_ends_the_conversation_closes_the_thread(thread, django_capture_on_commit_callbacks):
    claimed = runs.run_claim(run_id=post(thread, "hello").id)
    outcome = steps.TurnOutcome(status=Run.Status.COMPLETED, reply="That is all for this chat.", ending="turn_limit")
    assert finish(claimed, outcome, django_capture_on_commit_callbacks)
    thread.refresh_from_db()
    assert (thread.status, thread.last_seq) == (Thread.Status.CLOSED, 2)


def test_an_ordinary_reply_keeps_the_thread_open(thread, django_capture_on_commit_callbacks):
    claimed = runs.run_claim(run_id=post(thread, "hello").id)
    outcome = steps.TurnOutcome(status=Run.Status.COMPLETED, reply="Hi!")
    assert finish(claimed, outcome, django_capture_on_commit_callbacks)
    thread.refresh_from_db()
    assert (thread.status, thread.last_seq) == (Thread.Status.OPEN, 2)


# --- what L4 grounds a reply in, read once per turn ------------------------------------------------


def test_a_reply_is_grounded_in_this_turns_and_earlier_turns_tool_results(thread, scripted):
    order_create("BK-4242", items=[("The Goldfinch", "16.99", "fiction")])
    scripted.script(
        tool_use_reply("lookup_order", {"order_id": "BK-4242", "customer_email": ALICE_EMAIL}),
        text_reply("Order BK-4242 came to $16.99."),  # grounded in this turn's lookup
        text_reply("Yes, BK-4242 was $16.99 in total."),  # grounded in the first turn's lookup
        text_reply("Your order BK-5555 shipped."),  # grounded in nothing
    )
    first = post(thread, "How much was my order? My email is on it.")
    runs.run_execute(run_id=first.id)
    second = post(thread, "Sorry, how much again?")
    runs.run_execute(run_id=second.id)
    third = post(thread, "And the other order?")
    runs.run_execute(run_id=third.id)
    replies = [Run.objects.get(id=run.id).assistant_message.content for run in (first, second, third)]
    assert replies == ["Order BK-4242 came to $16.99.", "Yes, BK-4242 was $16.99 in total.", prompts.REPLY_FALLBACK]

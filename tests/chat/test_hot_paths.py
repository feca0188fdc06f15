"""The hot paths' hand-written SQL (docs/performance.md §9) reads what the ORM read."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chat import selectors, services
from chat.guard_state import run_verified_customer
from chat.models import Message, ModelCall, Run, ToolCall
from chat.transcript import transcript_load
from guardrails.models import GuardrailEvent
from guardrails.screening import INSTRUCTION_OVERRIDE

pytestmark = pytest.mark.django_db


def orm_read(*, owner: str, run_id) -> Run:
    """The queryset the long-poll's read replaced."""
    runs = Run.objects.select_related(*selectors.RUN_RELATED).filter(id=run_id, thread__owner=owner)
    return runs.annotate(verified_customer=run_verified_customer()).get()


def fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


def assert_same_run(found: Run, expected: Run) -> None:
    assert fields(found) == fields(expected)
    assert fields(found.user_message) == fields(expected.user_message)
    if expected.assistant_message is None:
        assert found.assistant_message is None
    else:
        assert fields(found.assistant_message) == fields(expected.assistant_message)
    assert found.verified_customer is expected.verified_customer


@pytest.fixture
def run(monkeypatch) -> Run:
    monkeypatch.setattr("chat.services.run_dispatch", lambda run_id: None)
    thread = services.thread_create(owner="alice-session")
    return services.message_post(owner=thread.owner, thread_id=thread.id, content="Where is my order?").run


def test_run_read_matches_the_orm_for_a_queued_run_in_one_statement(run):
    with CaptureQueriesContext(connection) as queries:
        found = selectors.run_read_and_release(owner="alice-session", run_id=run.id)
    assert [q["sql"].split(None, 1)[0] for q in queries.captured_queries] == ["SELECT"]
    assert_same_run(found, orm_read(owner="alice-session", run_id=run.id))
    assert found.verified_customer is False
    assert found.open_action is None


def test_run_read_matches_the_orm_for_an_answered_run_that_verified_the_customer(run):
    reply = Message.objects.create(thread_id=run.thread_id, seq=2, role=Message.Role.ASSISTANT, content="Shipped.")
    Run.objects.filter(id=run.id).update(status=Run.Status.COMPLETED, assistant_message=reply, progress="Done")
    call = ModelCall.objects.create(run=run, iteration=1, model="m")
    ToolCall.objects.create(run=run, model_call=call, tool_use_id="t1", name="lookup_order")
    found = selectors.run_read_and_release(owner="alice-session", run_id=run.id)
    assert_same_run(found, orm_read(owner="alice-session", run_id=run.id))
    assert found.verified_customer is True
    assert found.assistant_message.content == "Shipped."


def test_run_read_ignores_failed_and_non_verifying_tool_calls(run):
    call = ModelCall.objects.create(run=run, iteration=1, model="m")
    ToolCall.objects.create(run=run, model_call=call, tool_use_id="t1", name="lookup_order", is_error=True)
    ToolCall.objects.create(run=run, model_call=call, tool_use_id="t2", name="lookup_policy")
    assert selectors.run_read_and_release(owner="alice-session", run_id=run.id).verified_customer is False


def test_run_read_of_someone_elses_run_is_none(run):
    assert selectors.run_read_and_release(owner="mallory-session", run_id=run.id) is None
    assert selectors.run_read_and_release(owner=None, run_id=run.id) is None


def tool_use(tool_use_id: str) -> list[dict]:
    return [{"type": "tool_use", "id": tool_use_id, "name": "lookup_policy", "input": {"topic": "returns"}}]


def test_transcript_load_reads_runs_model_calls_and_the_injection_flag(run):
    Run.objects.filter(id=run.id).update(input_tokens=100, output_tokens=20)
    ModelCall.objects.create(run=run, iteration=2, model="m", response_content=tool_use("t2"))
    first = ModelCall.objects.create(run=run, iteration=1, model="m", response_content=tool_use("t1"))
    ModelCall.objects.create(run=run, iteration=3, model="m", purpose=ModelCall.Purpose.SECOND_OPINION)
    ToolCall.objects.create(
        run=run, model_call=first, tool_use_id="t1", name="lookup_policy", result={"policy": "30 days"}
    )

    loaded = transcript_load(Run.objects.get(id=run.id))

    assert (loaded.turns, loaded.tokens, loaded.iteration, loaded.injection_seen) == (1, 120, 2, False)
    assert loaded.customer_texts == ["Where is my order?"]
    assert loaded.tool_results == [("lookup_policy", {"policy": "30 days"})]
    assert [turn["role"] for turn in loaded.messages] == ["user", "assistant", "user", "assistant", "user"]
    assert loaded.messages[1]["content"] == tool_use("t1")  # jsonb decoded, iterations in order
    assert loaded.messages[2]["content"][0]["content"] == '{"policy": "30 days"}'
    assert loaded.messages[4]["content"][0]["is_error"] is True  # t2 has no recorded result

    GuardrailEvent.objects.create(
        thread_id=run.thread_id,
        layer=GuardrailEvent.Layer.INPUT,
        code=INSTRUCTION_OVERRIDE,
        action=GuardrailEvent.Action.RECORDED,
        policy_version=1,
    )
    assert transcript_load(Run.objects.get(id=run.id)).injection_seen is True


def test_a_message_and_its_run_are_stored_in_one_statement(monkeypatch):
    monkeypatch.setattr("chat.services.run_dispatch", lambda run_id: None)
    thread = services.thread_create(owner="alice-session")
    with CaptureQueriesContext(connection) as queries:
        result = services.message_post(owner=thread.owner, thread_id=thread.id, content="Hello")
    inserts = [q["sql"] for q in queries.captured_queries if "INSERT" in q["sql"]]
    assert len(inserts) == 1
    assert inserts[0].startswith("WITH")

    stored = Run.objects.select_related("user_message").get(id=result.run.id)
    assert fields(stored) == fields(result.run)  # what the view renders is what was stored
    assert fields(stored.user_message) == fields(result.message)
    assert (stored.status, stored.user_message.content, stored.user_message.seq) == (Run.Status.QUEUED, "Hello", 1)
    assert stored.created_at is not None
    assert stored.dispatched_at is not None
    assert not result.run._state.adding


def test_rows_insert_needs_the_primary_key_set():
    from bookly_project.db import rows_insert
    from guardrails.models import GuardrailPolicy

    with pytest.raises(ValueError, match="primary key"):
        rows_insert(GuardrailPolicy())


def test_the_heartbeat_adds_usage_sets_the_step_and_stops_a_cancelled_run(run):
    from chat.agent.steps import RunCancelled, heartbeat

    Run.objects.filter(id=run.id).update(status=Run.Status.IN_PROGRESS, attempts=1, progress="Reading")
    claimed = Run.objects.get(id=run.id)

    heartbeat(claimed, input_tokens=100, output_tokens=7, cache_read_tokens=90)
    heartbeat(claimed, progress="Looking up your order", input_tokens=5, cache_write_tokens=3)

    beaten = Run.objects.get(id=run.id)
    assert (beaten.input_tokens, beaten.output_tokens, beaten.cache_write_tokens, beaten.cache_read_tokens) == (
        105,
        7,
        3,
        90,
    )
    assert beaten.progress == "Looking up your order"
    assert beaten.heartbeat_at is not None
    Run.objects.filter(id=run.id).update(cancel_requested=True)
    with pytest.raises(RunCancelled):
        heartbeat(claimed)
    Run.objects.filter(id=run.id).update(cancel_requested=False, attempts=2)  # another attempt took it over
    with pytest.raises(RunCancelled):
        heartbeat(claimed)


def test_the_finish_update_ends_the_run_fenced_by_attempts_and_keeps_a_reply_it_has(run):
    from chat.agent.steps import TurnOutcome
    from chat.runs import run_finish

    reply = Message.objects.create(thread_id=run.thread_id, seq=2, role=Message.Role.ASSISTANT, content="Earlier.")
    Run.objects.filter(id=run.id).update(status=Run.Status.IN_PROGRESS, attempts=2, assistant_message=reply)
    superseded = Run.objects.get(id=run.id)
    superseded.attempts = 1
    failed = TurnOutcome(status=Run.Status.FAILED, error_code="model_error", error_message="x" * 600, ending="")

    assert run_finish(run=superseded, outcome=failed) is False
    assert Run.objects.get(id=run.id).status == Run.Status.IN_PROGRESS

    assert run_finish(run=Run.objects.get(id=run.id), outcome=failed) is True
    ended = Run.objects.get(id=run.id)
    assert (ended.status, ended.error_code, len(ended.error_message)) == (Run.Status.FAILED, "model_error", 500)
    assert ended.completed_at is not None
    assert ended.heartbeat_at == ended.completed_at
    assert ended.assistant_message_id == reply.id

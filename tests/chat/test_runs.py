"""Run lifecycle: claim, ordering within a thread, finishing, the sweep, history rebuilding."""

from datetime import timedelta

import pytest
from django.utils import timezone

from chat import runs, services
from chat.agent import loop, steps
from chat.models import Message, ModelCall, Run, Thread, ToolCall
from chat.transcript import transcript_load
from tests.fakes import text_reply, tool_use_reply

pytestmark = pytest.mark.django_db


def post(thread: Thread, text: str) -> Run:
    return services.message_post(owner=thread.owner, thread_id=thread.id, content=text).run


@pytest.fixture
def thread() -> Thread:
    return services.thread_create(owner="alice-session")


def test_a_run_is_claimed_once(thread):
    run = post(thread, "hello")
    assert runs.run_claim(run_id=run.id) is not None
    assert runs.run_claim(run_id=run.id) is None
    run.refresh_from_db()
    assert run.status == Run.Status.IN_PROGRESS
    assert run.attempts == 1


def test_second_run_waits_for_the_first(thread):
    first, second = post(thread, "one"), post(thread, "two")
    assert runs.run_claim(run_id=second.id) is None  # first is still queued
    claimed = runs.run_claim(run_id=first.id)
    assert runs.run_claim(run_id=second.id) is None  # first is in progress
    runs.run_finish(run=claimed, outcome=steps.TurnOutcome(status=Run.Status.COMPLETED, reply="done"))
    assert runs.run_claim(run_id=second.id) is not None


def test_runs_of_other_threads_do_not_block_each_other(thread):
    other = services.thread_create(owner="bob-session")
    first = post(thread, "one")
    runs.run_claim(run_id=first.id)
    assert runs.run_claim(run_id=post(other, "hi").id) is not None


def test_redelivered_task_does_not_execute_a_finished_run(thread):
    run = post(thread, "How long does shipping take?")
    runs.run_execute(run_id=run.id)
    runs.run_execute(run_id=run.id)  # the broker delivers the task again
    run.refresh_from_db()
    assert run.status == Run.Status.COMPLETED
    assert Message.objects.filter(thread=thread, role=Message.Role.ASSISTANT).count() == 1
    assert ModelCall.objects.filter(run=run).count() == 2  # tool_use + final text, once


def test_finishing_writes_the_reply_with_the_next_seq(thread):
    run = post(thread, "hello")
    runs.run_execute(run_id=run.id)
    run.refresh_from_db()
    assert run.status == Run.Status.COMPLETED
    assert run.assistant_message.seq == run.user_message.seq + 1
    assert run.completed_at is not None


def test_a_finish_from_a_superseded_attempt_is_ignored(thread):
    run = post(thread, "hello")
    claimed = runs.run_claim(run_id=run.id)
    Run.objects.filter(id=run.id).update(attempts=2)  # the sweep handed it to another worker
    recorded = runs.run_finish(run=claimed, outcome=steps.TurnOutcome(status=Run.Status.COMPLETED, reply="x"))
    assert recorded is False
    assert not Message.objects.filter(role=Message.Role.ASSISTANT).exists()


def test_a_crashing_turn_fails_the_run_and_keeps_the_message(thread, monkeypatch):
    def boom(run, **kwargs):
        raise RuntimeError("bug")

    monkeypatch.setattr(loop, "run_turn", boom)
    run = post(thread, "hello")
    runs.run_execute(run_id=run.id)
    run.refresh_from_db()
    assert run.status == Run.Status.FAILED
    assert run.error_code == "internal_error"
    assert Message.objects.get(id=run.user_message_id).content == "hello"


def test_usage_is_summed_on_the_run(thread, fake_anthropic):
    fake_anthropic.script(
        tool_use_reply("lookup_policy", {"topic": "shipping"}),
        text_reply("Standard shipping takes 3 to 5 business days."),
    )
    run = post(thread, "shipping?")
    runs.run_execute(run_id=run.id)
    run.refresh_from_db()
    assert run.status == Run.Status.COMPLETED
    assert (run.input_tokens, run.output_tokens) == (200, 40)
    assert run.model_calls.count() == 2
    tool_call = ToolCall.objects.get(run=run)
    assert tool_call.name == "lookup_policy"
    assert tool_call.input == {"topic": "shipping"}
    assert not tool_call.is_error


def test_anthropic_backend_round_trips_a_tool_use(thread, fake_anthropic):
    fake_anthropic.script(
        tool_use_reply("lookup_policy", {"topic": "password_reset"}, text="Let me check."),
        text_reply("Choose Forgot password on the sign-in page."),
    )
    run = post(thread, "I forgot my password")
    runs.run_execute(run_id=run.id)
    first, second = fake_anthropic.message_requests
    assert first["model"] == run.model
    assert first["max_tokens"] > 0
    assert first["system"]
    assert "lookup_policy" in {tool["name"] for tool in first["tools"]}
    assert first["messages"][-1]["role"] == "user"
    assert first["messages"][-1]["content"][-1]["text"] == "I forgot my password"
    tool_use = second["messages"][-2]["content"][-1]
    assert tool_use["type"] == "tool_use"
    result = second["messages"][-1]["content"][0]
    assert result["type"] == "tool_result"
    assert result["tool_use_id"] == tool_use["id"]
    assert "Forgot password" in result["content"]
    run.refresh_from_db()
    assert run.assistant_message.content == "Choose Forgot password on the sign-in page."


def test_model_errors_fail_the_run_with_their_code(thread, fake_anthropic):
    from tests.fakes import error_reply

    fake_anthropic.script(error_reply(401))
    run = post(thread, "hello")
    runs.run_execute(run_id=run.id)
    run.refresh_from_db()
    assert run.status == Run.Status.FAILED
    assert run.error_code == "model_auth_failed"
    assert Message.objects.filter(id=run.user_message_id).exists()


def test_max_iterations_ends_the_turn_with_a_fixed_reply(thread, fake_anthropic, settings):
    settings.AGENT_MAX_ITERATIONS = 3
    fake_anthropic.script(*[tool_use_reply("lookup_policy", {"topic": "shipping"}) for _ in range(5)])
    run = post(thread, "loop forever")
    runs.run_execute(run_id=run.id)
    run.refresh_from_db()
    assert run.status == Run.Status.COMPLETED
    assert len(fake_anthropic.message_requests) == 3
    from chat.agent import prompts

    assert run.assistant_message.content == prompts.REPLY_TOO_MANY_STEPS


def test_max_tokens_stop_is_not_shown_half_finished(thread, fake_anthropic):
    fake_anthropic.script(text_reply("The return window is thirty da", stop_reason="max_tokens"))
    run = post(thread, "returns?")
    runs.run_execute(run_id=run.id)
    run.refresh_from_db()
    from chat.agent import prompts

    assert run.assistant_message.content == prompts.REPLY_TRUNCATED


# --- history ---------------------------------------------------------------------------------


def test_history_includes_earlier_replies_and_tool_results(thread):
    first = post(thread, "How long does shipping take?")
    runs.run_execute(run_id=first.id)
    second = post(thread, "thanks")
    history = transcript_load(Run.objects.get(id=second.id)).messages
    roles = [turn["role"] for turn in history]
    assert roles == ["user", "assistant", "user", "assistant", "user"]
    assert history[1]["content"][0]["type"] == "tool_use"
    assert history[2]["content"][0]["type"] == "tool_result"
    assert history[-1]["content"][-1]["text"] == "thanks"


def test_history_repairs_an_orphaned_tool_use(thread):
    run = post(thread, "shipping?")
    claimed = runs.run_claim(run_id=run.id)
    ModelCall.objects.create(
        run=claimed,
        iteration=0,
        model="m",
        stop_reason="tool_use",
        response_content=[
            {"type": "tool_use", "id": "toolu_orphan", "name": "lookup_policy", "input": {"topic": "shipping"}}
        ],
    )
    runs.run_finish(run=claimed, outcome=steps.TurnOutcome(status=Run.Status.FAILED, error_code="internal_error"))
    later = post(thread, "hello again")
    history = transcript_load(Run.objects.get(id=later.id)).messages
    repaired = history[2]["content"][0]
    assert repaired == {
        "type": "tool_result",
        "tool_use_id": "toolu_orphan",
        "is_error": True,
        "content": repaired["content"],
    }
    assert "interrupted" in repaired["content"]
    # The failed run's message and the new one both reach the model, in order.
    assert history[0]["content"][0]["text"] == "shipping?"
    assert history[2]["content"][-1]["text"] == "hello again"


# --- the sweep --------------------------------------------------------------------------------


def test_sweep_redispatches_a_run_whose_enqueue_failed(thread, monkeypatch):
    sent = []
    monkeypatch.setattr(runs.celery_app, "send_task", lambda name, args=None, **kw: sent.append(args))
    run = post(thread, "hello")
    Run.objects.filter(id=run.id).update(dispatched_at=None)
    report = runs.runs_sweep()
    assert report.redispatched == 1
    assert sent == [[str(run.id)]]
    assert runs.runs_sweep().redispatched == 0  # not again right away


def test_sweep_does_not_redispatch_a_run_waiting_behind_another(thread, monkeypatch):
    sent = []
    monkeypatch.setattr(runs.celery_app, "send_task", lambda name, args=None, **kw: sent.append(args))
    first = post(thread, "one")
    runs.run_claim(run_id=first.id)
    second = post(thread, "two")
    Run.objects.filter(id=second.id).update(dispatched_at=None)
    assert runs.runs_sweep().redispatched == 0
    assert sent == []


def test_sweep_requeues_a_run_whose_worker_went_silent(thread, monkeypatch, settings):
    sent = []
    monkeypatch.setattr(runs.celery_app, "send_task", lambda name, args=None, **kw: sent.append(args))
    run = post(thread, "hello")
    runs.run_claim(run_id=run.id)
    Run.objects.filter(id=run.id).update(
        heartbeat_at=timezone.now() - timedelta(seconds=settings.RUN_STALE_AFTER_SECONDS + 1)
    )
    report = runs.runs_sweep()
    assert report.requeued == 1
    run.refresh_from_db()
    assert run.status == Run.Status.QUEUED
    assert sent == [[str(run.id)]]
    runs.run_execute(run_id=run.id)  # the re-dispatched task runs it to the end
    run.refresh_from_db()
    assert run.status == Run.Status.COMPLETED
    assert run.attempts == 2


def test_a_long_run_requeued_by_the_sweep_is_not_expired_by_the_same_sweep(thread, monkeypatch, settings):
    # A run that waited long for the customer, resumed, and then lost its worker: requeuing it starts a
    # new wait in the queue, so the queue-age check must measure from the requeue, not from its creation.
    sent = []
    monkeypatch.setattr(runs.celery_app, "send_task", lambda name, args=None, **kw: sent.append(args))
    run = post(thread, "hello")
    runs.run_claim(run_id=run.id)
    long_ago = timezone.now() - timedelta(seconds=settings.RUN_EXPIRE_AFTER_SECONDS * 2)
    Run.objects.filter(id=run.id).update(
        created_at=long_ago,
        heartbeat_at=timezone.now() - timedelta(seconds=settings.RUN_EXPIRE_AFTER_SECONDS + 1),
    )
    report = runs.runs_sweep()
    run.refresh_from_db()
    assert (report.requeued, report.expired) == (1, 0)
    assert run.status == Run.Status.QUEUED
    assert sent == [[str(run.id)]]


def test_sweep_expires_a_run_after_max_attempts(thread, settings):
    run = post(thread, "hello")
    runs.run_claim(run_id=run.id)
    Run.objects.filter(id=run.id).update(
        attempts=settings.RUN_MAX_ATTEMPTS,
        heartbeat_at=timezone.now() - timedelta(seconds=settings.RUN_STALE_AFTER_SECONDS + 1),
    )
    assert runs.runs_sweep().expired == 1
    run.refresh_from_db()
    assert run.status == Run.Status.EXPIRED
    assert run.error_code == "worker_lost"


def test_sweep_expires_a_run_queued_for_too_long(thread, settings, monkeypatch):
    monkeypatch.setattr(runs.celery_app, "send_task", lambda *a, **kw: None)
    run = post(thread, "hello")
    Run.objects.filter(id=run.id).update(
        created_at=timezone.now() - timedelta(seconds=settings.RUN_EXPIRE_AFTER_SECONDS + 1)
    )
    assert runs.runs_sweep().expired == 1
    run.refresh_from_db()
    assert run.status == Run.Status.EXPIRED
    assert run.error_code == "queue_timeout"


def test_sweep_leaves_healthy_runs_alone(thread, monkeypatch):
    monkeypatch.setattr(runs.celery_app, "send_task", lambda *a, **kw: None)
    post(thread, "queued just now")
    running = post(services.thread_create(owner="x"), "running")
    runs.run_claim(run_id=running.id)
    report = runs.runs_sweep()
    assert (report.redispatched, report.requeued, report.expired) == (0, 0, 0)


# --- bounds that end the conversation ------------------------------------------------------------


def test_the_turn_limit_ends_the_conversation_and_closes_the_thread(thread):
    from chat.agent import prompts
    from guardrails.services import policy_current

    policy = policy_current()
    policy.turns_per_thread = 1
    policy.save()
    first, second = post(thread, "hello"), post(thread, "hello again")
    runs.run_execute(run_id=first.id)
    runs.run_execute(run_id=second.id)
    second.refresh_from_db()
    assert second.assistant_message.content == prompts.REPLY_TURN_LIMIT
    assert second.ending == "turn_limit"
    thread.refresh_from_db()
    assert thread.status == Thread.Status.CLOSED
    with pytest.raises(services.ApplicationError) as refused:
        post(thread, "one more")
    assert (refused.value.status, refused.value.code) == (409, "thread_closed")


def test_the_token_budget_ends_the_conversation_politely(thread, fake_anthropic, settings):
    from chat.agent import prompts

    settings.THREAD_TOKEN_BUDGET = 150  # each scripted call costs 100 input + 20 output tokens
    # (support replies: a placeholder such as "first answer" is read as unsure off-topic, which asks the
    # second-opinion model and spends a scripted reply)
    first, second = "Happy to help with an order or a return.", "Which order number is it?"
    fake_anthropic.script(text_reply(first), text_reply(second))
    posted = [post(thread, "one"), post(thread, "two"), post(thread, "three")]
    for run in posted:
        runs.run_execute(run_id=run.id)
    replies = [Run.objects.get(id=run.id).assistant_message.content for run in posted]
    assert replies == [first, second, prompts.REPLY_TOKEN_BUDGET]
    assert len(fake_anthropic.message_requests) == 2
    assert Run.objects.get(id=posted[2].id).ending == "token_budget"


def test_a_pause_turn_stop_is_continued_not_shown(thread, fake_anthropic):
    fake_anthropic.script(text_reply("Let me think", stop_reason="pause_turn"), text_reply("Here you go."))
    run = post(thread, "shipping?")
    runs.run_execute(run_id=run.id)
    run.refresh_from_db()
    assert run.assistant_message.content == "Here you go."
    second = fake_anthropic.message_requests[1]
    assert second["messages"][-1]["role"] == "assistant"
    assert second["messages"][-1]["content"][0]["text"] == "Let me think"

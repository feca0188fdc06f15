"""/metrics (Prometheus, behind METRICS_TOKEN) and /readyz's queue check, against real Postgres and Redis."""

from datetime import timedelta

import pytest
import redis
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from bookly_project.celery import app
from chat import agent, services
from chat.models import ModelCall, Run, Thread
from tests.conftest import turn
from tests.fakes import error_reply, text_reply

pytestmark = pytest.mark.django_db

TOKEN = "metrics-secret-token"


@pytest.fixture
def metrics_on(settings):
    settings.METRICS_TOKEN = TOKEN


@pytest.fixture
def broker(_clean_broker):
    """The test Redis as the broker; whatever a test enqueues is removed afterwards."""
    client = redis.Redis.from_url(app.conf.broker_url)
    yield client
    client.delete("celery")


def scrape(client) -> dict[str, dict[tuple, float]]:
    """GET /metrics with the token; {sample name: {label values: value}}."""
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    samples: dict[str, dict[tuple, float]] = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples.setdefault(sample.name, {})[tuple(sorted(sample.labels.items()))] = sample.value
    return samples


def post(thread: Thread, text: str = "hello") -> Run:
    return services.message_post(owner=thread.owner, thread_id=thread.id, content=text).run


def new_thread(owner: str = "alice-session") -> Thread:
    return services.thread_create(owner=owner)


# --- protection ------------------------------------------------------------------------------


def test_metrics_are_off_without_a_configured_token(client, settings):
    settings.METRICS_TOKEN = ""
    response = client.get("/metrics", headers={"Authorization": "Bearer "})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("authorization", [None, "Bearer wrong-token", TOKEN, f"Basic {TOKEN}", f"Bearer {TOKEN}x"])
def test_metrics_refuse_a_missing_or_wrong_token(client, metrics_on, authorization):
    headers = {"Authorization": authorization} if authorization else {}
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert b"bookly_" not in response.content


# --- the figures ----------------------------------------------------------------------------


def test_metrics_count_runs_by_status_now_and_in_the_window(client, metrics_on, scripted):
    scripted.script(text_reply("Here you go."))
    completed = turn(new_thread("a"), "hi")
    queued = post(new_thread("b"))
    post(new_thread("c"))
    Run.objects.filter(id=queued.id).update(status=Run.Status.IN_PROGRESS)
    old = post(new_thread("d"))
    Run.objects.filter(id=old.id).update(created_at=timezone.now() - timedelta(hours=1))  # before the window

    samples = scrape(client)
    assert completed.status == Run.Status.COMPLETED
    assert samples["bookly_runs"] == {
        (("status", "queued"),): 2,
        (("status", "in_progress"),): 1,
        (("status", "requires_action"),): 0,
        (("status", "awaiting_approval"),): 0,  # a return waiting for staff is unfinished too
    }
    recent = samples["bookly_runs_recent"]
    assert recent[(("status", "completed"),)] == 1
    assert recent[(("status", "queued"),)] == 1
    assert recent[(("status", "in_progress"),)] == 1
    assert recent[(("status", "failed"),)] == 0
    assert samples["bookly_metrics_window_seconds"] == {(): 300}


def test_metrics_report_model_errors_and_failed_runs_by_code(client, metrics_on, fake_anthropic, settings):
    settings.MODEL_RETRY_MAX_ATTEMPTS = 1
    settings.MODEL_BREAKER_THRESHOLD = 0
    fake_anthropic.script(error_reply(529, message="Overloaded"))
    failed = turn(new_thread("a"), "Where is my order?")
    assert failed.status == Run.Status.FAILED

    samples = scrape(client)
    assert samples["bookly_run_failures_recent"] == {(("code", failed.error_code),): 1}
    model_codes = ModelCall.objects.filter(run=failed).exclude(error_code="").values_list("error_code", flat=True)
    assert samples["bookly_model_errors_recent"] == {(("code", code),): 1 for code in model_codes}
    assert len(samples["bookly_model_errors_recent"]) == 1


def test_model_latency_and_turn_time_are_histograms_of_the_window(client, metrics_on, scripted):
    scripted.script(text_reply("one"), text_reply("two"), text_reply("three"))
    runs = [turn(new_thread(name), "hi") for name in ("a", "b", "c")]
    for run, latency_ms, turn_seconds in zip(runs, (300, 1500, 20000), (0.4, 3.0, 45.0), strict=True):
        ModelCall.objects.filter(run=run).update(latency_ms=latency_ms)
        Run.objects.filter(id=run.id).update(completed_at=run.created_at + timedelta(seconds=turn_seconds))

    samples = scrape(client)
    latency = {dict(labels)["le"]: value for labels, value in samples["bookly_model_latency_seconds_bucket"].items()}
    assert (latency["0.25"], latency["0.5"], latency["2.0"], latency["16.0"], latency["32.0"]) == (0, 1, 2, 2, 3)
    assert latency["+Inf"] == 3
    assert samples["bookly_model_latency_seconds_gcount"] == {(): 3}
    assert samples["bookly_model_latency_seconds_gsum"] == {(): pytest.approx(21.8)}
    turns = {dict(labels)["le"]: value for labels, value in samples["bookly_turn_seconds_bucket"].items()}
    assert (turns["0.5"], turns["2.0"], turns["4.0"], turns["30.0"], turns["60.0"]) == (1, 1, 2, 2, 3)
    assert samples["bookly_turn_seconds_gsum"] == {(): pytest.approx(48.4)}


def test_turn_time_leaves_out_runs_that_waited_for_the_customer(client, metrics_on, scripted):
    from guardrails.models import PendingAction

    scripted.script(text_reply("one"))
    run = turn(new_thread(), "hi")
    PendingAction.objects.create(
        run=run,
        thread_id=run.thread_id,
        model_call=ModelCall.objects.get(run=run),
        tool_use_id="toolu_1",
        tool_name="initiate_return",
        arguments={},
        effect={},
        fingerprint="f",
        preview={},
        expires_at=timezone.now(),
        decision=PendingAction.Decision.CONFIRMED,
    )
    assert scrape(client)["bookly_turn_seconds_gcount"] == {(): 0}


def test_metrics_show_the_broker_queue_depth(client, metrics_on, broker):
    for _ in range(3):
        app.send_task("chat.tasks.sweep_runs")
    samples = scrape(client)
    assert samples["bookly_queue_depth"] == {(("queue", "celery"),): 3}


def test_queue_oldest_wait_counts_only_runs_a_worker_could_claim(client, metrics_on):
    thread = new_thread()
    first, behind = post(thread, "one"), post(thread, "two")
    Run.objects.filter(id=first.id).update(status=Run.Status.IN_PROGRESS)
    # Waiting behind the thread's turn in progress is not waiting for the queue.
    Run.objects.filter(id=behind.id).update(created_at=timezone.now() - timedelta(minutes=10))
    assert scrape(client)["bookly_queue_oldest_wait_seconds"] == {(): 0}

    waiting = post(new_thread("b"))
    Run.objects.filter(id=waiting.id).update(created_at=timezone.now() - timedelta(seconds=90))
    assert scrape(client)["bookly_queue_oldest_wait_seconds"][()] == pytest.approx(90, abs=5)


# --- readiness ------------------------------------------------------------------------------


def test_readyz_reports_a_stuck_queue_when_a_run_waited_too_long(client, settings):
    settings.READY_QUEUE_MAX_WAIT_SECONDS = 60
    run = post(new_thread())
    assert client.get("/readyz").json()["checks"]["queue"] == "ok"

    Run.objects.filter(id=run.id).update(created_at=timezone.now() - timedelta(seconds=61))
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"] == {"database": "ok", "redis": "ok", "queue": "stuck"}
    assert body["queue"]["oldest_wait_seconds"] >= 61

    services.run_finish(
        run=services.run_claim(run_id=run.id), outcome=agent.TurnOutcome(status=Run.Status.COMPLETED, reply="done")
    )
    assert client.get("/readyz").status_code == 200


def test_readyz_reports_a_stuck_queue_when_it_is_too_deep(client, settings, broker):
    settings.READY_QUEUE_MAX_DEPTH = 2
    for _ in range(2):
        app.send_task("chat.tasks.sweep_runs")
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["queue"] == {"depth": 2, "oldest_wait_seconds": 0.0}

    app.send_task("chat.tasks.sweep_runs")
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["queue"] == "stuck"
    assert response.json()["queue"]["depth"] == 3

"""What Flower sees: Celery task events from a real worker, read the way Flower reads them.

A turn that failed for the customer is a FAILURE task carrying only its error code; it is
acknowledged, not redelivered. The 30-second sweeps send no task events at all, so they never
fill Flower's task list. No event carries customer data.
"""

import json
import threading
import time
import uuid
from collections.abc import Iterator

import pytest
import redis
from django.conf import settings

from bookly_project.celery import app
from chat.models import Run
from tests.conftest import celery_worker
from tests.fakes import error_reply

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SECRET_TEXT = "Where is order BK-10042? My email is sarah.chen@example.com"


class EventLog:
    """Every Celery event on the broker, captured on a thread by celery.events.Receiver (as Flower does)."""

    def __init__(self) -> None:
        self.events: list[dict] = []
        self._receiver = None
        self._thread = threading.Thread(target=self._capture, daemon=True)

    def _capture(self) -> None:
        with app.connection_for_read() as connection:
            self._receiver = app.events.Receiver(connection, handlers={"*": self.events.append})
            self._receiver.capture(limit=None, timeout=None, wakeup=True)

    def start(self) -> "EventLog":
        self._thread.start()
        # Bound once the worker's heartbeat (every 2 s with events on) reaches us.
        self.wait_for(lambda event: event["type"] == "worker-heartbeat")
        return self

    def stop(self) -> None:
        if self._receiver is not None:
            self._receiver.should_stop = True
        self._thread.join(timeout=10)

    def wait_for(self, predicate, timeout: float = 30.0) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for event in list(self.events):
                if predicate(event):
                    return event
            time.sleep(0.05)
        raise AssertionError(f"no such event within {timeout} s; saw {sorted({e['type'] for e in self.events})}")

    def for_task(self, task_id: str) -> list[dict]:
        return [event for event in self.events if event.get("uuid") == task_id]


@pytest.fixture(scope="module")
def failing_model_worker(django_db_setup, _clean_broker, fake_anthropic_server) -> Iterator:
    """A worker with task events on (as Flower switches them on), whose model is down (529)."""
    env = {
        "BOOKLY_LLM": "anthropic",
        "ANTHROPIC_BASE_URL": fake_anthropic_server.url,
        "ANTHROPIC_API_KEY": "sk-ant-test-key",
        "MODEL_RETRY_MAX_ATTEMPTS": "1",
        "MODEL_BREAKER_THRESHOLD": "0",
    }
    with celery_worker(env, name="events-worker", extra_args=("--task-events",)) as log:
        yield log


@pytest.fixture
def event_log(failing_model_worker) -> Iterator[EventLog]:
    log = EventLog().start()
    yield log
    log.stop()


def test_a_turn_that_failed_for_the_customer_is_a_failure_task_without_customer_data(
    alice, event_log, fake_anthropic_server
):
    fake_anthropic_server.reset()
    fake_anthropic_server.responder = lambda body: error_reply(529, message="Overloaded")

    run_id = alice.say(alice.new_thread(), SECRET_TEXT).json()["run"]["id"]

    received = event_log.wait_for(lambda e: e["type"] == "task-received" and run_id in e.get("args", ""))
    assert received["name"] == "chat.tasks.run_turn"
    assert received["args"] == repr([run_id])
    failed = event_log.wait_for(lambda e: e["type"] == "task-failed" and e["uuid"] == received["uuid"])
    assert failed["exception"] == "TurnFailed('model_unavailable')"

    run = Run.objects.get(id=run_id)
    assert (run.status, run.error_code, run.attempts) == (Run.Status.FAILED, "model_unavailable", 1)
    # Acknowledged although it failed: nothing left in the queue or among unacked messages.
    broker = redis.Redis.from_url(settings.REDIS_URL)
    assert broker.llen("celery") == 0
    assert broker.hlen("unacked") == 0

    shown = json.dumps(event_log.for_task(received["uuid"]))
    for secret in ("sarah.chen", "BK-10042", "Where is order", "Overloaded"):
        assert secret not in shown
    assert [e["type"] for e in event_log.for_task(received["uuid"])] == ["task-received", "task-started", "task-failed"]


def test_the_sweep_tasks_send_no_task_events(event_log, failing_model_worker):
    sweeps = [app.send_task(name).id for name in ("chat.tasks.sweep_runs", "chat.tasks.expire_pending_actions")]
    # A run_turn for a run that does not exist: it claims nothing and succeeds, with events.
    control = app.send_task("chat.tasks.run_turn", args=[str(uuid.uuid4())]).id

    event_log.wait_for(lambda e: e["type"] == "task-succeeded" and e["uuid"] == control)
    deadline = time.monotonic() + 20
    while not all(f"[{task_id}] succeeded" in failing_model_worker.read_text() for task_id in sweeps):
        assert time.monotonic() < deadline, "the sweeps did not run"
        time.sleep(0.1)
    time.sleep(0.5)  # any event they sent would have arrived by now
    for task_id in sweeps:
        assert event_log.for_task(task_id) == []

"""Dispatch bookkeeping: a sent task is recorded as sent; a real broker outage is logged once and
the sweep dispatches the run when the broker is back (DESIGN §8: a 202 is never lost)."""

import logging

import pytest
import redis
from django.db import OperationalError

from chat import services
from chat.models import Message, Run, Thread
from tests.conftest import turn
from tests.private import celery_app_for, private_redis

pytestmark = pytest.mark.django_db

CONTENT = "my email is alice@example.com, where is BK-10042?"


@pytest.fixture
def thread() -> Thread:
    return services.thread_create(owner="alice-session")


def _queued(client: redis.Redis) -> list[bytes]:
    return client.lrange("celery", 0, -1)


def test_a_normal_send_logs_nothing_and_keeps_dispatched_at(alice, caplog, django_capture_on_commit_callbacks):
    from django.conf import settings

    broker = redis.Redis.from_url(settings.REDIS_URL)
    broker.delete("celery")
    thread = alice.new_thread()
    with caplog.at_level(logging.WARNING), django_capture_on_commit_callbacks(execute=True):
        response = alice.say(thread, CONTENT)
    assert response.status_code == 202
    assert [record for record in caplog.records if record.levelno >= logging.WARNING] == []
    run = Run.objects.get(id=response.json()["run"]["id"])
    assert run.dispatched_at is not None
    assert len(_queued(broker)) == 1 and str(run.id).encode() in _queued(broker)[0]
    broker.delete("celery")


def test_a_broker_outage_is_one_warning_and_the_sweep_dispatches_the_run_later(
    alice, caplog, django_capture_on_commit_callbacks, monkeypatch
):
    with private_redis() as broker:
        app = celery_app_for(broker.url)
        monkeypatch.setattr(services, "celery_app", app)
        thread = alice.new_thread()
        broker.stop()  # the broker is really down: nothing listens on its port

        with caplog.at_level(logging.WARNING), django_capture_on_commit_callbacks(execute=True):
            response = alice.say(thread, CONTENT)

        assert response.status_code == 202
        warnings = [record for record in caplog.records if record.levelno >= logging.WARNING]
        assert len(warnings) == 1
        assert warnings[0].getMessage().startswith("could not enqueue run ")
        assert "alice" not in warnings[0].getMessage() and "BK-10042" not in warnings[0].getMessage()
        run = Run.objects.get(id=response.json()["run"]["id"])
        assert (run.status, run.dispatched_at) == (Run.Status.QUEUED, None)

        broker.start()  # back, on the same port and empty
        report = services.runs_sweep()
        assert report.redispatched == 1
        queued = _queued(broker.client())
        assert len(queued) == 1 and str(run.id).encode() in queued[0]
        run.refresh_from_db()
        assert run.dispatched_at is not None
        app.close()


def test_a_database_error_mid_turn_queues_the_run_again(thread, monkeypatch):
    sent = []
    monkeypatch.setattr(services.celery_app, "send_task", lambda name, args=None, **kw: sent.append(args))

    def database_restarted(run, **kwargs):
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(services.agent, "run_turn", database_restarted)
    run = turn(thread, "where is my order?")
    assert (run.status, run.attempts, run.error_code) == (Run.Status.QUEUED, 1, "")
    assert sent[-1] == [str(run.id)]  # dispatched again at once
    assert Message.objects.filter(thread=thread, role=Message.Role.ASSISTANT).count() == 0


def test_a_run_out_of_attempts_ends_failed_on_a_database_error(thread, monkeypatch, settings):
    monkeypatch.setattr(services.celery_app, "send_task", lambda name, args=None, **kw: None)
    settings.RUN_MAX_ATTEMPTS = 1

    def database_restarted(run, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(services.agent, "run_turn", database_restarted)
    run = turn(thread, "where is my order?")
    assert (run.status, run.error_code) == (Run.Status.FAILED, "storage_unavailable")

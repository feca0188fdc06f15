"""Graceful overload: a POST is accepted or refused at once; a run that waited too long ends expired."""

import asyncio
import subprocess
import sys
import threading
from datetime import timedelta

import pytest
import redis
from django.conf import settings as django_settings
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils import timezone

from chat import admission, services
from chat.models import Message, ModelCall, Run, Thread
from tests.conftest import ROOT, server_env
from tests.fakes import text_reply

pytestmark = pytest.mark.django_db


@pytest.fixture
def broker():
    """The Celery queue's Redis list, emptied before and after (the test Redis db only)."""
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    client.delete(admission.CELERY_QUEUE)
    admission.queue_depth_forget()
    yield client
    client.delete(admission.CELERY_QUEUE)
    admission.queue_depth_forget()


def test_a_post_is_refused_with_retry_after_and_nothing_stored_when_the_queue_is_too_deep(alice, broker, settings):
    thread = alice.new_thread()
    settings.MESSAGE_QUEUE_MAX_DEPTH = 3
    broker.rpush(admission.CELERY_QUEUE, *[b"waiting turn"] * 4)

    response = alice.say(thread, "Where is my order?")

    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    body = response.json()
    assert body["error"]["code"] == "overloaded"
    assert body["error"]["details"]["retry_after_seconds"] == int(response["Retry-After"])
    assert not Message.objects.filter(thread_id=thread).exists()
    assert not Run.objects.filter(thread_id=thread).exists()


def test_a_post_is_accepted_when_the_queue_is_within_its_bound(alice, broker, settings, monkeypatch):
    monkeypatch.setattr(services.celery_app, "send_task", lambda *args, **kwargs: None)
    thread = alice.new_thread()
    settings.MESSAGE_QUEUE_MAX_DEPTH = 3
    broker.rpush(admission.CELERY_QUEUE, *[b"waiting turn"] * 3)

    response = alice.say(thread, "Where is my order?")

    assert response.status_code == 202
    assert Run.objects.filter(thread_id=thread, status=Run.Status.QUEUED).count() == 1


def test_posts_beyond_the_pending_bound_of_a_process_are_refused_at_once(settings, broker):
    settings.WEB_MAX_PENDING_POSTS = 2
    release = threading.Event()
    entered = threading.Semaphore(0)

    def slow_view(request):  # stands in for the message POST holding the sync thread
        entered.release()
        release.wait(10)
        return HttpResponse(status=202)

    view = admission.admit_posts(slow_view)
    factory = RequestFactory()

    async def scenario() -> list[int]:
        held = [asyncio.ensure_future(view(factory.post("/x"))) for _ in range(2)]
        await asyncio.to_thread(entered.acquire, True, 10)  # the first is on the sync thread
        refused = await asyncio.wait_for(view(factory.post("/x")), timeout=2)  # never waits in line
        release.set()
        done = await asyncio.gather(*held)
        return [refused.status_code, refused["Retry-After"], *[response.status_code for response in done]]

    refused_status, retry_after, *held_statuses = asyncio.run(scenario())
    assert refused_status == 503
    assert int(retry_after) >= 1
    assert held_statuses == [202, 202]


def test_a_run_that_waited_too_long_in_the_queue_ends_expired_with_a_clear_message(settings, scripted):
    thread = services.thread_create(owner="alice-session")
    run = services.message_post(owner=thread.owner, thread_id=thread.id, content="Where is my order?").run
    Run.objects.filter(id=run.id).update(
        dispatched_at=timezone.now() - timedelta(seconds=settings.RUN_QUEUE_MAX_WAIT_SECONDS + 1)
    )

    services.run_execute(run_id=run.id)

    run.refresh_from_db()
    assert run.status == Run.Status.EXPIRED
    assert run.error_code == "queue_timeout"
    assert "send your message again" in run.error_message
    assert run.assistant_message is None
    assert not ModelCall.objects.filter(run=run).exists()  # the model was never asked
    assert Thread.objects.get(id=thread.id).status == Thread.Status.OPEN


def test_a_run_claimed_within_the_bound_is_answered(settings, scripted):
    scripted.script(text_reply("Standard shipping takes 3-5 business days.").body)
    thread = services.thread_create(owner="alice-session")
    run = services.message_post(owner=thread.owner, thread_id=thread.id, content="How long does shipping take?").run
    Run.objects.filter(id=run.id).update(
        dispatched_at=timezone.now() - timedelta(seconds=settings.RUN_QUEUE_MAX_WAIT_SECONDS - 5)
    )

    services.run_execute(run_id=run.id)

    run.refresh_from_db()
    assert run.status == Run.Status.COMPLETED
    assert len(scripted.requests) == 1


@pytest.mark.parametrize(
    ("module", "expected"), [("bookly_project.asgi", 0.5), ("bookly_project.celery", 10.0)], ids=["web", "worker"]
)
def test_the_web_process_waits_half_a_second_for_a_database_connection_and_a_worker_ten(module, expected):
    """Only the web must answer at once: a pool wait there is a 503 after 0.5 s, never 10 s."""
    code = (
        f"import {module}; from django.conf import settings; "
        "print(settings.DATABASES['default']['OPTIONS']['pool']['timeout'])"
    )
    env = {key: value for key, value in server_env().items() if key not in ("DB_POOL_TIMEOUT", "BOOKLY_WEB_PROCESS")}
    completed = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert float(completed.stdout.strip()) == expected

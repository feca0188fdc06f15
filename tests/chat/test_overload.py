"""Graceful overload: a POST is accepted or refused at once; a run that waited too long ends expired."""

import asyncio
import json
import os
import subprocess
import sys
import uuid
from datetime import timedelta

import pytest
import redis
from asgiref.sync import async_to_sync
from django.conf import settings as django_settings
from django.utils import timezone

from chat import admission, runs, services
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


def asgi_call(
    app, method: str, path: str, *, body: bytes = b"", headers: dict | None = None
) -> tuple[int, dict, bytes]:
    """One HTTP request through an ASGI application, as uvicorn would make it: (status, headers, body)."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(name.lower().encode(), value.encode()) for name, value in (headers or {}).items()],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    sent: list[dict] = []
    request = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict:
        if request:
            return request.pop(0)
        await asyncio.Event().wait()  # the client stays connected until the response is sent

    async def send(message: dict) -> None:
        sent.append(message)

    async_to_sync(app)(scope, receive, send)
    start = next(message for message in sent if message["type"] == "http.response.start")
    content = b"".join(message.get("body", b"") for message in sent if message["type"] == "http.response.body")
    return start["status"], {name.decode(): value.decode() for name, value in start["headers"]}, content


@pytest.fixture(scope="module")
def web_application():
    """The web's ASGI application. Importing it marks the process as the web in the environment:
    undone here, so worker processes started later by other tests do not inherit the mark."""
    marked = "BOOKLY_WEB_PROCESS" in os.environ
    from bookly_project import asgi

    if not marked:
        os.environ.pop("BOOKLY_WEB_PROCESS", None)
    return asgi.application


def alice_posts(web_application, alice, thread_id: str) -> tuple[int, dict, bytes]:
    """Alice's message POST, with her session cookie and CSRF token, through the web's ASGI application."""
    cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in alice.client.cookies.items())
    body = json.dumps({"content": "Where is my order?"}).encode()
    return asgi_call(
        web_application,
        "POST",
        f"/api/v1/threads/{thread_id}/messages",
        body=body,
        headers={
            "Content-Length": str(len(body)),
            "Content-Type": "application/json",
            "Cookie": cookies,
            "X-CSRFToken": alice.csrf,
            "Host": "localhost",
        },
    )


@pytest.mark.django_db(transaction=True)
def test_a_post_is_refused_with_retry_after_and_nothing_stored_when_the_queue_is_too_deep(
    web_application, alice, broker, settings
):
    thread = alice.new_thread()
    settings.MESSAGE_QUEUE_MAX_DEPTH = 3
    broker.rpush(admission.CELERY_QUEUE, *[b"waiting turn"] * 4)

    status, headers, content = alice_posts(web_application, alice, thread)

    assert status == 503
    assert int(headers["retry-after"]) > 0
    error = json.loads(content)["error"]
    assert error["code"] == "overloaded"
    assert error["details"]["retry_after_seconds"] == int(headers["retry-after"])
    assert not Message.objects.filter(thread_id=thread).exists()
    assert not Run.objects.filter(thread_id=thread).exists()


@pytest.mark.django_db(transaction=True)
def test_a_post_is_accepted_when_the_queue_is_within_its_bound(web_application, alice, broker, settings, monkeypatch):
    monkeypatch.setattr(runs.celery_app, "send_task", lambda *args, **kwargs: None)
    thread = alice.new_thread()
    settings.MESSAGE_QUEUE_MAX_DEPTH = 3
    broker.rpush(admission.CELERY_QUEUE, *[b"waiting turn"] * 3)

    status, _, content = alice_posts(web_application, alice, thread)

    assert status == 202, content
    assert Run.objects.filter(thread_id=thread, status=Run.Status.QUEUED).count() == 1


def test_message_posts_beyond_the_pending_bound_of_a_process_are_refused_at_once_and_others_pass(settings, broker):
    settings.WEB_MAX_PENDING_POSTS = 2
    release = asyncio.Event()
    entered = []

    async def slow_app(scope, receive, send):  # stands in for Django busy with the first POSTs
        entered.append(scope["method"])
        await release.wait()
        await send({"type": "http.response.start", "status": 202, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    app = admission.MessageAdmission(slow_app)
    path = f"/api/v1/threads/{uuid.uuid4()}/messages"

    async def call(method: str, url: str = path) -> int:
        sent = []

        async def send(message):
            sent.append(message)

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        scope = {"type": "http", "method": method, "path": url, "headers": []}
        await app(scope, receive, send)
        return sent[0]["status"], dict(sent[0]["headers"])

    async def scenario():
        held = [asyncio.ensure_future(call("POST")) for _ in range(2)]
        await asyncio.sleep(0.05)
        refused = await asyncio.wait_for(call("POST"), timeout=1)  # never waits in line
        poll = asyncio.ensure_future(call("GET"))  # not a message POST: passes to the app
        other_post = asyncio.ensure_future(call("POST", "/api/v1/threads"))
        await asyncio.sleep(0.05)
        release.set()
        return refused, await asyncio.gather(*held), await poll, await other_post

    (refused_status, refused_headers), held, poll, other_post = asyncio.run(scenario())
    assert refused_status == 503
    assert int(refused_headers[b"retry-after"]) >= 1
    assert [status for status, _ in held] == [202, 202]
    assert poll[0] == other_post[0] == 202
    assert entered == ["POST", "POST", "GET", "POST"]


def test_a_run_that_waited_too_long_in_the_queue_ends_expired_with_a_clear_message(settings, scripted):
    thread = services.thread_create(owner="alice-session")
    run = services.message_post(owner=thread.owner, thread_id=thread.id, content="Where is my order?").run
    Run.objects.filter(id=run.id).update(
        dispatched_at=timezone.now() - timedelta(seconds=settings.RUN_QUEUE_MAX_WAIT_SECONDS + 1)
    )

    runs.run_execute(run_id=run.id)

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

    runs.run_execute(run_id=run.id)

    run.refresh_from_db()
    assert run.status == Run.Status.COMPLETED
    assert len(scripted.requests) == 1


@pytest.mark.parametrize(
    ("module", "expected"), [("bookly_project.asgi", 2.0), ("bookly_project.celery", 10.0)], ids=["web", "worker"]
)
def test_the_web_process_waits_two_seconds_for_a_database_connection_and_a_worker_ten(module, expected):
    """Only the web must answer soon: a pool wait there is a 503 after 2 s, never 10 s."""
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


def test_a_web_process_holds_at_most_eight_message_posts_by_default():
    # docs/performance.md §10.1: 16 answered at p95 ~0.9 s at 4x overload, 8 at ~0.45 s.
    assert django_settings.WEB_MAX_PENDING_POSTS == 8 or "WEB_MAX_PENDING_POSTS" in os.environ

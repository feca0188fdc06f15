"""Outages are not 500s. Redis down: sessions, the idempotency lock and dispatch degrade to
Postgres and the sweep (README "Reliability"), so a message is accepted once. Postgres down
while a session is saved: the documented 503."""

import pytest

from chat import services
from chat.models import Message, Run
from tests.conftest import Customer
from tests.private import celery_app_for, private_redis

pytestmark = pytest.mark.django_db


def test_a_new_customer_posts_with_an_idempotency_key_while_redis_is_down(
    settings, monkeypatch, django_capture_on_commit_callbacks
):
    with private_redis() as redis_server:
        settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": redis_server.url}}
        app = celery_app_for(redis_server.url)
        monkeypatch.setattr(services, "celery_app", app)
        redis_server.stop()

        carol = Customer()  # the session is written to Postgres only
        thread = carol.new_thread()
        with django_capture_on_commit_callbacks(execute=True):
            first = carol.say(thread, "Where is my order?", **{"Idempotency-Key": "retry-1"})
        with django_capture_on_commit_callbacks(execute=True):
            again = carol.say(thread, "Where is my order?", **{"Idempotency-Key": "retry-1"})
        app.close()

    assert first.status_code == 202, first.content
    assert again.status_code == 202 and again["Idempotent-Replayed"] == "true"
    assert again.json()["run"]["id"] == first.json()["run"]["id"]
    assert Message.objects.filter(thread_id=thread).count() == 1
    run = Run.objects.get(id=first.json()["run"]["id"])
    assert (run.status, run.dispatched_at) == (Run.Status.QUEUED, None)  # the sweep sends it later
    assert carol.get(f"/api/v1/threads/{thread}").status_code == 200  # the session still reads back


def test_a_session_that_cannot_be_saved_is_a_503_not_a_500(client, monkeypatch):
    from django.contrib.sessions.backends.cached_db import SessionStore
    from django.db import OperationalError

    def database_away(self, must_create=False):
        raise OperationalError("connection refused")

    monkeypatch.setattr(SessionStore, "save", database_away)
    response = client.get("/api/v1/session")  # a new session: saved after the view
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "service_unavailable"
    assert response["Retry-After"] == "1"

"""The HTTP contract of DESIGN §4: status codes, error shapes, ownership, idempotency."""

import json
import uuid

import pytest
from django.middleware.csrf import CSRF_SESSION_KEY
from django.test import Client

from chat.models import Message, Run, Thread

pytestmark = pytest.mark.django_db


def error_code(response) -> str:
    body = json.loads(response.content)
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message", "details"}, body
    assert body["error"]["message"]
    return body["error"]["code"]


# --- session and CSRF -----------------------------------------------------------------------


def test_session_hands_out_a_csrf_token_and_cookies():
    client = Client(enforce_csrf_checks=True)
    response = client.get("/api/v1/session")
    assert response.status_code == 200
    assert response.json()["csrf_token"]
    # The CSRF secret is kept in the session (CSRF_USE_SESSIONS), not in a cookie of its own.
    assert "csrftoken" not in response.cookies
    assert client.session[CSRF_SESSION_KEY]
    assert response.cookies["sessionid"]["httponly"]
    assert response.cookies["sessionid"]["samesite"] == "Lax"


def test_post_without_csrf_token_is_rejected_with_csrf_failed(alice):
    response = alice.client.post("/api/v1/threads", data="{}", content_type="application/json")
    assert response.status_code == 403
    assert error_code(response) == "csrf_failed"
    assert Thread.objects.count() == 0


def test_post_with_a_wrong_csrf_token_is_rejected(alice):
    response = alice.client.post(
        "/api/v1/threads", data="{}", content_type="application/json", headers={"X-CSRFToken": "x" * 64}
    )
    assert response.status_code == 403
    assert error_code(response) == "csrf_failed"


# --- threads ------------------------------------------------------------------------------------


def test_thread_create_list_and_detail(alice):
    first = alice.new_thread()
    second = alice.new_thread()
    listed = alice.get("/api/v1/threads").json()
    assert [thread["id"] for thread in listed["results"]] == [second, first]
    assert listed["has_more"] is False
    detail = alice.get(f"/api/v1/threads/{first}")
    assert detail.status_code == 200
    assert detail.json()["id"] == first
    assert detail.json()["status"] == "open"


def test_thread_list_paginates(alice):
    ids = [alice.new_thread() for _ in range(3)]
    page = alice.get("/api/v1/threads?limit=2").json()
    assert [thread["id"] for thread in page["results"]] == ids[::-1][:2]
    assert page["has_more"] is True
    rest = alice.get("/api/v1/threads?limit=2&offset=2").json()
    assert [thread["id"] for thread in rest["results"]] == [ids[0]]


@pytest.mark.parametrize("query", ["limit=0", "limit=101", "limit=abc", "offset=-1"])
def test_thread_list_rejects_bad_paging(alice, query):
    response = alice.get(f"/api/v1/threads?{query}")
    assert response.status_code == 400
    assert error_code(response) == "invalid_input"


def test_bob_cannot_see_alices_thread(alice, bob):
    thread = alice.new_thread()
    assert bob.get("/api/v1/threads").json()["results"] == []
    response = bob.get(f"/api/v1/threads/{thread}")
    assert response.status_code == 404
    assert error_code(response) == "not_found"
    assert bob.get(f"/api/v1/threads/{thread}/messages").status_code == 404


@pytest.mark.parametrize("headers", [{}, {"Idempotency-Key": "k-1"}], ids=["plain", "with-idempotency-key"])
def test_bob_cannot_post_into_alices_thread(alice, bob, headers):
    thread = alice.new_thread()
    response = bob.say(thread, "hello", **headers)
    assert response.status_code == 404
    assert error_code(response) == "not_found"
    assert Message.objects.count() == 0
    assert Thread.objects.get(id=thread).last_seq == 0


@pytest.mark.parametrize("headers", [{}, {"Idempotency-Key": "k-1"}], ids=["plain", "with-idempotency-key"])
def test_posting_into_an_unknown_thread_is_404(alice, headers):
    response = alice.say(str(uuid.uuid4()), "hello", **headers)
    assert response.status_code == 404
    assert error_code(response) == "not_found"
    assert Message.objects.count() == 0


def test_posting_without_a_session_is_404_not_a_crash(alice):
    from django.test import Client

    thread = alice.new_thread()
    anonymous = Client()
    response = anonymous.post(
        f"/api/v1/threads/{thread}/messages", data={"content": "hi"}, content_type="application/json"
    )
    assert response.status_code == 404
    assert Message.objects.count() == 0
    assert Thread.objects.get(id=thread).last_seq == 0


def test_unknown_thread_is_404(alice):
    response = alice.get(f"/api/v1/threads/{uuid.uuid4()}")
    assert response.status_code == 404
    assert error_code(response) == "not_found"


def test_a_client_without_session_sees_no_threads(alice):
    alice.new_thread()
    assert Client().get("/api/v1/threads").json()["results"] == []


# --- posting messages ---------------------------------------------------------------------------


def test_post_message_answers_202_with_location_and_queued_run(alice):
    thread = alice.new_thread()
    response = alice.say(thread, "  How long does shipping take?  ")
    assert response.status_code == 202
    body = response.json()
    assert body["message"]["content"] == "How long does shipping take?"
    assert body["message"]["role"] == "user"
    assert body["run"]["status"] == "queued"
    assert body["run"]["thread_id"] == thread
    assert body["run"]["user_message"]["id"] == body["message"]["id"]
    assert body["status_url"].endswith(f"/api/v1/runs/{body['run']['id']}")
    assert response["Location"] == body["status_url"]
    assert body["poll_after_ms"] > 0
    run = Run.objects.get(id=body["run"]["id"])
    assert run.status == Run.Status.QUEUED
    assert run.user_message.content == "How long does shipping take?"


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"content": ""}, "content"),
        ({"content": "   \n\t "}, "content"),
        ({"content": "x" * 4001}, "content"),
        ({}, "content"),
        ({"content": 42}, "content"),
        ({"content": None}, "content"),
        ({"content": ["hi"]}, "content"),
        ({"content": "nul \x00 byte"}, "content"),
    ],
)
def test_invalid_content_is_400_with_field_details_and_stores_nothing(alice, payload, field):
    thread = alice.new_thread()
    response = alice.post(f"/api/v1/threads/{thread}/messages", payload)
    assert response.status_code == 400
    assert error_code(response) == "invalid_input"
    assert field in response.json()["error"]["details"]["fields"]
    assert Message.objects.count() == 0


def test_content_of_exactly_4000_chars_is_accepted(alice):
    thread = alice.new_thread()
    assert alice.say(thread, "y" * 4000).status_code == 202


def test_body_that_is_not_an_object_is_400(alice):
    thread = alice.new_thread()
    response = alice.post(f"/api/v1/threads/{thread}/messages", ["hello"])
    assert response.status_code == 400
    assert error_code(response) == "invalid_input"


def test_invalid_json_is_400(alice):
    thread = alice.new_thread()
    response = alice.post(f"/api/v1/threads/{thread}/messages", raw='{"content": "hi"')
    assert response.status_code == 400
    assert error_code(response) == "invalid_json"


def test_non_json_body_is_415(alice):
    thread = alice.new_thread()
    response = alice.post(
        f"/api/v1/threads/{thread}/messages", raw="content=hi", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 415
    assert error_code(response) == "unsupported_media_type"


def test_body_over_64_kib_is_413(alice):
    thread = alice.new_thread()
    response = alice.post(f"/api/v1/threads/{thread}/messages", {"content": "z" * (65 * 1024)})
    assert response.status_code == 413
    assert error_code(response) == "payload_too_large"
    assert Message.objects.count() == 0


def test_wrong_method_is_405(alice):
    thread = alice.new_thread()
    response = alice.client.delete(f"/api/v1/threads/{thread}", headers={"X-CSRFToken": alice.csrf})
    assert response.status_code == 405
    assert error_code(response) == "method_not_allowed"


def test_unknown_url_is_404_in_the_error_shape(alice):
    response = alice.get("/api/v1/nope")
    assert response.status_code == 404
    assert error_code(response) == "not_found"


# --- idempotency -------------------------------------------------------------------------------------


def test_same_idempotency_key_and_body_replays_without_a_new_message(alice):
    thread = alice.new_thread()
    first = alice.say(thread, "Where is my order?", **{"Idempotency-Key": "key-1"})
    again = alice.say(thread, "Where is my order?", **{"Idempotency-Key": "key-1"})
    assert first.status_code == again.status_code == 202
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["message"]["id"] == first.json()["message"]["id"]
    assert again.json()["run"]["id"] == first.json()["run"]["id"]
    assert again["Location"] == first["Location"]
    assert Message.objects.count() == 1
    assert Run.objects.count() == 1


def test_same_idempotency_key_with_another_body_is_422(alice):
    thread = alice.new_thread()
    alice.say(thread, "Where is my order?", **{"Idempotency-Key": "key-1"})
    response = alice.say(thread, "Something else", **{"Idempotency-Key": "key-1"})
    assert response.status_code == 422
    assert error_code(response) == "idempotency_key_reused"
    assert Message.objects.count() == 1


def test_same_idempotency_key_in_another_thread_is_422(alice):
    first, second = alice.new_thread(), alice.new_thread()
    alice.say(first, "hello", **{"Idempotency-Key": "key-1"})
    response = alice.say(second, "hello", **{"Idempotency-Key": "key-1"})
    assert response.status_code == 422


def test_idempotency_key_still_being_processed_is_409(alice):
    from django.core.cache import cache

    thread = alice.new_thread()
    owner = Thread.objects.get(id=thread).owner
    cache.add(f"idempotency:{owner}:key-busy", 1, 30)  # what the first, unfinished request holds
    response = alice.say(thread, "hello", **{"Idempotency-Key": "key-busy"})
    assert response.status_code == 409
    assert error_code(response) == "idempotency_in_progress"
    assert Message.objects.count() == 0


def test_keys_are_per_customer(alice, bob):
    alice_thread, bob_thread = alice.new_thread(), bob.new_thread()
    assert alice.say(alice_thread, "hello", **{"Idempotency-Key": "shared"}).status_code == 202
    assert bob.say(bob_thread, "hello", **{"Idempotency-Key": "shared"}).status_code == 202
    assert Message.objects.count() == 2


def test_overlong_idempotency_key_is_400(alice):
    thread = alice.new_thread()
    response = alice.say(thread, "hello", **{"Idempotency-Key": "k" * 256})
    assert response.status_code == 400
    assert error_code(response) == "invalid_idempotency_key"


# --- messages list and status ------------------------------------------------------------------------


def test_messages_list_oldest_first_and_after(alice):
    thread = alice.new_thread()
    ids = [alice.say(thread, f"message {n}").json()["message"]["id"] for n in range(3)]
    listed = alice.get(f"/api/v1/threads/{thread}/messages").json()
    assert [message["id"] for message in listed["results"]] == ids
    after = alice.get(f"/api/v1/threads/{thread}/messages?after={ids[0]}").json()
    assert [message["id"] for message in after["results"]] == ids[1:]
    assert alice.get(f"/api/v1/threads/{thread}/messages?after=garbage").status_code == 400
    assert alice.get(f"/api/v1/threads/{thread}/messages?after={uuid.uuid4()}").status_code == 404


def test_message_status_reports_processing_then_completed(alice):
    from chat import services

    thread = alice.new_thread()
    posted = alice.say(thread, "hello").json()
    url = f"/api/v1/threads/{thread}/messages/{posted['message']['id']}/status"
    status = alice.get(url).json()
    assert status["status"] == "processing"
    assert status["assistant_message"] is None
    services.run_execute(run_id=posted["run"]["id"])
    status = alice.get(url).json()
    assert status["status"] == "completed"
    assert status["assistant_message"]["role"] == "assistant"
    assert status["user_message"]["id"] == posted["message"]["id"]


def test_bob_cannot_poll_alices_message_status(alice, bob):
    thread = alice.new_thread()
    posted = alice.say(thread, "hello").json()
    response = bob.get(f"/api/v1/threads/{thread}/messages/{posted['message']['id']}/status")
    assert response.status_code == 404


# --- runs ---------------------------------------------------------------------------------------------


def test_run_detail_with_etag_and_304(alice):
    thread = alice.new_thread()
    run_id = alice.say(thread, "hello").json()["run"]["id"]
    response = alice.get(f"/api/v1/runs/{run_id}")
    assert response.status_code == 200
    assert json.loads(response.content)["status"] == "queued"
    etag = response["ETag"]
    not_modified = alice.client.get(f"/api/v1/runs/{run_id}", headers={"If-None-Match": etag})
    assert not_modified.status_code == 304
    Run.objects.filter(id=run_id).update(status=Run.Status.CANCELLED)
    changed = alice.client.get(f"/api/v1/runs/{run_id}", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag


@pytest.mark.parametrize("wait", ["-1", "31", "abc", "nan"])
def test_run_detail_rejects_bad_wait(alice, wait):
    thread = alice.new_thread()
    run_id = alice.say(thread, "hello").json()["run"]["id"]
    response = alice.get(f"/api/v1/runs/{run_id}?wait={wait}")
    assert response.status_code == 400
    assert error_code(response) == "invalid_input"


def test_run_detail_long_poll_returns_after_wait_when_nothing_happens(alice):
    import time

    thread = alice.new_thread()
    run_id = alice.say(thread, "hello").json()["run"]["id"]
    started = time.monotonic()
    response = alice.get(f"/api/v1/runs/{run_id}?wait=1")
    elapsed = time.monotonic() - started
    assert json.loads(response.content)["status"] == "queued"
    assert 0.9 <= elapsed < 5


def test_bob_cannot_see_or_cancel_alices_run(alice, bob):
    thread = alice.new_thread()
    run_id = alice.say(thread, "hello").json()["run"]["id"]
    assert bob.get(f"/api/v1/runs/{run_id}").status_code == 404
    response = bob.post(f"/api/v1/runs/{run_id}/cancel")
    assert response.status_code == 404
    assert Run.objects.get(id=run_id).status == Run.Status.QUEUED


def test_run_detail_rejects_other_methods_with_405(alice):
    thread = alice.new_thread()
    run_id = alice.say(thread, "hello").json()["run"]["id"]
    response = alice.post(f"/api/v1/runs/{run_id}")
    assert response.status_code == 405
    assert error_code(response) == "method_not_allowed"


def test_cancel_a_queued_run(alice):
    thread = alice.new_thread()
    run_id = alice.say(thread, "hello").json()["run"]["id"]
    response = alice.post(f"/api/v1/runs/{run_id}/cancel")
    assert response.status_code == 200
    assert response.json()["status"] == "cancelled"
    assert response.json()["error"]["code"] == "cancelled"
    # Cancelling twice changes nothing and still answers 200.
    assert alice.post(f"/api/v1/runs/{run_id}/cancel").json()["status"] == "cancelled"


def test_cancel_an_in_progress_run_takes_effect_at_the_next_step(alice):
    from chat import services

    thread = alice.new_thread()
    run_id = alice.say(thread, "hello").json()["run"]["id"]
    run = services.run_claim(run_id=run_id)
    assert alice.post(f"/api/v1/runs/{run_id}/cancel").json()["status"] == "in_progress"
    from chat import agent

    outcome = agent.run_turn(run)
    assert outcome.status == Run.Status.CANCELLED


# --- throttling ----------------------------------------------------------------------------------------


def test_message_posts_are_throttled_per_customer_with_retry_after(alice, bob, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "messages": {"session": "2/min", "address": "100/min"}}
    thread = alice.new_thread()
    assert alice.say(thread, "one").status_code == 202
    assert alice.say(thread, "two").status_code == 202
    response = alice.say(thread, "three")
    assert response.status_code == 429
    assert error_code(response) == "throttled"
    assert 0 < int(response["Retry-After"]) <= 60
    assert response.json()["error"]["details"]["retry_after_seconds"] == int(response["Retry-After"])
    assert Message.objects.count() == 2
    assert bob.say(bob.new_thread(), "bob is not alice").status_code == 202


# --- health and schema -----------------------------------------------------------------------------------


def test_healthz_and_readyz(client):
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["checks"] == {"database": "ok", "redis": "ok", "queue": "ok"}


def test_readyz_is_503_when_redis_is_down(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["redis"] == "unavailable"


def test_openapi_schema_lists_every_endpoint(client):
    response = client.get("/api/v1/schema/", headers={"Accept": "application/vnd.oai.openapi+json"})
    assert response.status_code == 200
    schema = json.loads(response.content)
    paths = set(schema["paths"])
    for expected in [
        "/api/v1/session",
        "/api/v1/threads",
        "/api/v1/threads/{thread_id}",
        "/api/v1/threads/{thread_id}/messages",
        "/api/v1/runs/{run_id}/cancel",
        "/api/v1/threads/{thread_id}/messages/{message_id}/status",
        "/api/v1/threads/{thread_id}/handoff",
    ]:
        assert expected in paths


def test_message_text_never_reaches_task_arguments(alice, django_capture_on_commit_callbacks, monkeypatch):
    from bookly_project.celery import app

    sent = []
    monkeypatch.setattr(app, "send_task", lambda name, args=None, **kw: sent.append((name, args, kw)))
    thread = alice.new_thread()
    with django_capture_on_commit_callbacks(execute=True):
        run_id = alice.say(thread, "my email is alice@example.com").json()["run"]["id"]
    assert [(name, args) for name, args, _ in sent] == [("chat.tasks.run_turn", [run_id])]
    assert sent[0][2]["ignore_result"] is True
    assert set(sent[0][2]) == {"ignore_result", "result_cls", "add_to_parent"}  # nothing else rides along


def test_message_is_kept_when_the_broker_is_down(alice, django_capture_on_commit_callbacks, monkeypatch):
    from bookly_project.celery import app

    def broker_down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(app, "send_task", broker_down)
    thread = alice.new_thread()
    with django_capture_on_commit_callbacks(execute=True):
        response = alice.say(thread, "hello")
    assert response.status_code == 202
    run = Run.objects.get(id=response.json()["run"]["id"])
    assert run.status == Run.Status.QUEUED
    assert run.dispatched_at is None  # the sweep picks it up


def test_a_database_outage_is_a_503_not_a_500(alice, monkeypatch):
    from django.db import OperationalError

    from chat import selectors

    thread = alice.new_thread()
    run_id = alice.say(thread, "hello").json()["run"]["id"]

    def pool_exhausted(**kwargs):
        raise OperationalError("couldn't get a connection after 10.00 sec")

    monkeypatch.setattr(selectors, "thread_get", pool_exhausted)
    response = alice.get(f"/api/v1/threads/{thread}")
    assert response.status_code == 503
    assert error_code(response) == "service_unavailable"
    assert response["Retry-After"] == "1"

    monkeypatch.setattr(selectors, "run_read_and_release", pool_exhausted)
    polled = alice.get(f"/api/v1/runs/{run_id}?wait=1")
    assert polled.status_code == 503
    assert error_code(polled) == "service_unavailable"


def test_a_message_the_database_cannot_store_is_a_503_and_nothing_is_half_written(alice, monkeypatch):
    from django.db import OperationalError

    from chat import services

    thread = alice.new_thread()

    def pool_exhausted(**kwargs):
        raise OperationalError("couldn't get a connection after 10.00 sec")

    monkeypatch.setattr(services, "_thread_seq_take", pool_exhausted)
    response = alice.say(thread, "hello")
    assert response.status_code == 503
    assert error_code(response) == "storage_unavailable"
    assert not Message.objects.filter(thread_id=thread).exists()
    assert not Run.objects.filter(thread_id=thread).exists()

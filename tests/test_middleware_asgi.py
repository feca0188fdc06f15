"""The middleware stack under ASGI (Django's AsyncClient): the inline hooks keep every behaviour.

bookly_project/middleware.py runs Django's non-blocking middleware hooks on the event loop.
These tests drive the async handler, as uvicorn does, and check what each of those
middlewares is for: session and CSRF cookies, the CSRF check, security headers, the
body-size guard, the admin's login and flash messages. Hooks that may do I/O (saving the
session, storing messages) must still run in a thread.
"""

import json
import re
import threading

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import AsyncClient, RequestFactory

from bookly_project import middleware
from chat.models import Thread

pytestmark = pytest.mark.django_db


class Browser:
    """An AsyncClient driven from a sync test: the ASGI handler and async middleware run for real."""

    def __init__(self) -> None:
        self.client = AsyncClient(enforce_csrf_checks=True)
        self.csrf = ""

    def get(self, path: str, **headers):
        return async_to_sync(self.client.get)(path, headers=headers)

    def post(self, path: str, body, *, content_type: str = "application/json", csrf: bool = True):
        headers = {"X-CSRFToken": self.csrf} if csrf else {}
        data = json.dumps(body) if content_type == "application/json" else body
        return async_to_sync(self.client.post)(path, data=data, content_type=content_type, headers=headers)

    def start_session(self) -> None:
        response = self.get("/api/v1/session")
        assert response.status_code == 200
        self.csrf = response.json()["csrf_token"]


def form_csrf_token(page) -> str:
    """The token a Django form page carries (the CSRF secret itself stays in the session)."""
    return re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.content).group(1).decode()


def test_a_session_and_its_csrf_token_are_set_and_kept_across_requests():
    browser = Browser()
    browser.start_session()

    assert "sessionid" in browser.client.cookies
    assert "csrftoken" not in browser.client.cookies  # the CSRF secret lives in the session
    created = browser.post("/api/v1/threads", {})
    assert created.status_code == 201, created.content
    listed = browser.get("/api/v1/threads").json()["results"]
    assert [thread["id"] for thread in listed] == [created.json()["id"]]
    assert Thread.objects.get(id=created.json()["id"]).owner


def test_a_post_without_the_csrf_token_is_refused():
    browser = Browser()
    browser.start_session()

    response = browser.post("/api/v1/threads", {}, csrf=False)

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "csrf_failed"
    assert not Thread.objects.exists()


def test_security_headers_are_on_api_answers_and_the_page():
    browser = Browser()
    for path in ("/api/v1/session", "/"):
        response = browser.get(path)
        assert response.status_code == 200
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "same-origin"
        assert "default-src 'none'" in response.headers["Content-Security-Policy"]


def test_a_body_over_64_kib_is_413_before_any_view_runs():
    browser = Browser()
    browser.start_session()
    thread_id = browser.post("/api/v1/threads", {}).json()["id"]

    response = browser.post(f"/api/v1/threads/{thread_id}/messages", {"content": "z" * (65 * 1024)})

    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"
    assert not Thread.objects.get(id=thread_id).messages.exists()


def test_the_long_poll_answers_through_the_async_stack():
    browser = Browser()
    browser.start_session()
    thread_id = browser.post("/api/v1/threads", {}).json()["id"]
    run_id = browser.post(f"/api/v1/threads/{thread_id}/messages", {"content": "hello"}).json()["run"]["id"]

    response = browser.get(f"/api/v1/runs/{run_id}")

    assert response.status_code == 200
    assert response.json()["status"] == "queued"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_staff_log_in_to_the_admin_and_see_its_flash_messages():
    User.objects.create_superuser("staff", "staff@example.com", "a-long-staff-password")
    browser = Browser()
    login_page = browser.get("/admin/login/")
    browser.csrf = form_csrf_token(login_page)
    assert login_page.status_code == 200

    wrong = browser.post(
        "/admin/login/?next=/admin/",
        "username=staff&password=wrong",
        content_type="application/x-www-form-urlencoded",
    )
    assert wrong.status_code == 200
    assert b"Please enter the correct username and password" in wrong.content

    logged_in = browser.post(
        "/admin/login/?next=/admin/",
        "username=staff&password=a-long-staff-password",
        content_type="application/x-www-form-urlencoded",
    )
    assert logged_in.status_code == 302
    admin_index = browser.get("/admin/")
    assert admin_index.status_code == 200
    browser.csrf = form_csrf_token(admin_index)  # logging in rotates the token

    Thread.objects.create(owner="customer-1")
    # An action with nothing selected: the admin stores a flash message and redirects.
    refused = browser.post(
        "/admin/chat/thread/", "action=delete_selected&index=0", content_type="application/x-www-form-urlencoded"
    )
    assert refused.status_code == 302
    assert b"Items must be selected" in browser.get(refused["Location"]).content


# --- Which hooks keep a thread ---------------------------------------------------------------


def _request_with_session(modified: bool):
    request = RequestFactory().get("/")
    middleware.InlineSessionMiddleware(lambda request: HttpResponse()).process_request(request)
    if modified:
        request.session["bookly_customer"] = "customer-1"
    return request


@pytest.mark.parametrize("modified", [False, True])
def test_saving_a_session_keeps_its_thread_and_reading_one_does_not(modified):
    session_middleware = middleware.InlineSessionMiddleware(lambda request: HttpResponse())

    assert session_middleware.response_may_block(_request_with_session(modified)) is modified


def test_storing_flash_messages_keeps_its_thread():
    from django.contrib import messages

    request = _request_with_session(modified=False)
    messages_middleware = middleware.InlineMessageMiddleware(lambda request: HttpResponse())
    messages_middleware.process_request(request)
    assert messages_middleware.response_may_block(request) is False

    messages.success(request, "Saved.")
    assert messages_middleware.response_may_block(request) is True


def test_non_blocking_hooks_run_on_the_event_loop_thread(monkeypatch):
    seen: list[str] = []
    original = middleware.InlineSecurityMiddleware.process_request

    def spy(self, request):
        seen.append(threading.current_thread().name)
        return original(self, request)

    monkeypatch.setattr(middleware.InlineSecurityMiddleware, "process_request", spy)
    loop_threads: list[str] = []

    async def call():
        loop_threads.append(threading.current_thread().name)
        return await AsyncClient().get("/healthz")

    assert async_to_sync(call)().status_code == 200
    assert seen == loop_threads


def test_the_csrf_secret_is_read_in_a_thread_only_where_a_view_may_need_it(monkeypatch):
    """The long-poll (safe, async) and DRF writes (csrf_exempt; DRF checks) skip the CSRF hook's thread hop."""
    reads: list[str] = []
    original = middleware.InlineCsrfViewMiddleware._secret_read_and_check

    def spy(self, request, *args):
        reads.append(f"{request.method} {request.path}")
        return original(self, request, *args)

    monkeypatch.setattr(middleware.InlineCsrfViewMiddleware, "_secret_read_and_check", spy)
    browser = Browser()
    browser.start_session()
    token = browser.csrf
    thread_id = browser.post("/api/v1/threads", {}).json()["id"]
    run_id = browser.post(f"/api/v1/threads/{thread_id}/messages", {"content": "hello"}).json()["run"]["id"]
    assert browser.get(f"/api/v1/runs/{run_id}").status_code == 200
    refused = browser.post(f"/api/v1/threads/{thread_id}/messages", {"content": "again"}, csrf=False)

    # GET /session hands out the token, so it reads the secret; the rest never needed to.
    assert reads == ["GET /api/v1/session"]
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "csrf_failed"
    # The secret behind the token did not change on the way: the token still works.
    browser.start_session()
    assert browser.csrf  # a fresh mask of the same secret
    browser.csrf = token
    assert browser.post(f"/api/v1/threads/{thread_id}/messages", {"content": "still mine"}).status_code == 202

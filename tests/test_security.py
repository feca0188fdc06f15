"""Security behaviour: admin lockout, headers, session rotation, CSRF bound to the session.

The admin tests drive the ASGI handler (as uvicorn does) through the real admin login form.
"""

import json
import re
import subprocess
import sys
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db.models import F
from django.test import AsyncClient, Client

from chat import services
from tests.conftest import ROOT, Customer
from tests.fakes import ScriptedModel, text_reply, tool_use_reply

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-staff-password"


class AdminBrowser:
    """A staff member's browser on the admin login form, through the ASGI stack."""

    def __init__(self, **headers) -> None:
        self.client = AsyncClient(enforce_csrf_checks=True, headers=headers)

    def get(self, path: str):
        async def request():
            return await self.client.get(path)

        return async_to_sync(request)()

    def log_in(self, username: str, password: str):
        page = self.get("/admin/login/")
        assert page.status_code == 200
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.content).group(1).decode()
        form = f"csrfmiddlewaretoken={token}&username={username}&password={password}&next=/admin/"

        async def request():
            return await self.client.post(
                "/admin/login/?next=/admin/", form, content_type="application/x-www-form-urlencoded"
            )

        return async_to_sync(request)()


@pytest.fixture
def staff(settings) -> User:
    # A fast hasher: these tests are about counting attempts, not about hashing cost.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return User.objects.create_superuser("staff", "staff@example.com", PASSWORD)


def test_wrong_admin_passwords_lock_the_account_until_the_cool_off_passes(staff, settings):
    browser = AdminBrowser()
    answers = [browser.log_in("staff", f"guess-{i}") for i in range(settings.AXES_FAILURE_LIMIT)]

    assert [answer.status_code for answer in answers[:-1]] == [200] * (settings.AXES_FAILURE_LIMIT - 1)
    assert b"Please enter the correct username and password" in answers[0].content
    locked = answers[-1]
    assert locked.status_code == 429
    assert b"too many login attempts" in locked.content.lower()
    # The lockout answer passes through the same middleware: security headers and CSP.
    assert "default-src 'none'" in locked.headers["Content-Security-Policy"]
    assert locked.headers["X-Frame-Options"] == "DENY"

    # The right password is refused while locked, from this browser, a new one, or a spoofed address.
    assert browser.log_in("staff", PASSWORD).status_code == 429
    assert AdminBrowser().log_in("staff", PASSWORD).status_code == 429
    assert AdminBrowser(**{"X-Forwarded-For": "203.0.113.7"}).log_in("staff", PASSWORD).status_code == 429
    assert browser.get("/admin/").status_code == 302  # still not logged in

    # The cool-off passes (the attempts age past it): the right password works again.
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))
    logged_in = browser.log_in("staff", PASSWORD)
    assert logged_in.status_code == 302
    assert browser.get("/admin/").status_code == 200


def test_an_address_that_guesses_many_usernames_is_locked_too(staff, settings):
    browser = AdminBrowser()
    for i in range(settings.AXES_FAILURE_LIMIT):
        browser.log_in(f"user-{i}", "guess")

    assert browser.log_in("staff", PASSWORD).status_code == 429


def test_a_successful_login_before_the_limit_resets_the_count(staff, settings):
    browser = AdminBrowser()
    for i in range(settings.AXES_FAILURE_LIMIT - 1):
        assert browser.log_in("staff", f"guess-{i}").status_code == 200
    assert browser.log_in("staff", PASSWORD).status_code == 302
    assert not AccessAttempt.objects.filter(username="staff", failures_since_start__gt=0).exists()


# --- Headers ----------------------------------------------------------------------------------


def test_customer_data_answers_are_private_no_store_and_carry_a_permissions_policy(alice):
    thread = alice.new_thread()
    posted = alice.say(thread, "hello")
    run_id = posted.json()["run"]["id"]
    message_id = posted.json()["message"]["id"]
    answers = {
        "session": alice.get("/api/v1/session"),
        "threads": alice.get("/api/v1/threads"),
        "thread": alice.get(f"/api/v1/threads/{thread}"),
        "messages": alice.get(f"/api/v1/threads/{thread}/messages"),
        "message post": posted,
        "message status": alice.get(f"/api/v1/threads/{thread}/messages/{message_id}/status"),
        "run": alice.get(f"/api/v1/runs/{run_id}"),
        "cancel": alice.post(f"/api/v1/runs/{run_id}/cancel"),
        "a 404": alice.get("/api/v1/threads/00000000-0000-0000-0000-000000000000"),
    }
    for name, response in answers.items():
        assert response["Cache-Control"] == "private, no-store", name
        assert "camera=()" in response["Permissions-Policy"], name
    assert "camera=()" in alice.get("/")["Permissions-Policy"]


def test_the_long_poll_keeps_its_etag_and_304(alice):
    thread = alice.new_thread()
    run_id = alice.say(thread, "hello").json()["run"]["id"]
    first = alice.get(f"/api/v1/runs/{run_id}")

    again = alice.get(f"/api/v1/runs/{run_id}", **{"If-None-Match": first["ETag"]})

    assert again.status_code == 304
    assert again["ETag"] == first["ETag"]
    assert again["Cache-Control"] == "private, no-store"


def test_hsts_and_the_proxy_ssl_header_apply_when_configured(settings):
    settings.SECURE_HSTS_SECONDS = 31_536_000
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

    behind_tls = Client().get("/healthz", headers={"X-Forwarded-Proto": "https"})
    plain = Client().get("/healthz")

    assert behind_tls["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in plain  # never on plain http


def test_the_https_settings_come_from_the_environment():
    script = (
        "import django, os, json; os.environ['DJANGO_SETTINGS_MODULE'] = 'bookly_project.settings'; django.setup();"
        "from django.conf import settings as s;"
        "print(json.dumps([s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_PROXY_SSL_HEADER,"
        " s.SESSION_COOKIE_SECURE, s.NUM_PROXIES]))"
    )
    env = {"PATH": "/usr/bin:/bin", "SECURE_HSTS_SECONDS": "3600", "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true"}
    env |= {"SECURE_PROXY_SSL": "true", "SECURE_COOKIES": "true", "NUM_PROXIES": "1"}
    output = subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True)

    assert json.loads(output.stdout) == [3600, True, ["HTTP_X_FORWARDED_PROTO", "https"], True, 1], output.stderr


# --- Sessions ----------------------------------------------------------------------------------


def _session_id(customer: Customer) -> str:
    return customer.client.cookies["sessionid"].value


def _with_session(session_id: str) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.cookies["sessionid"] = session_id
    return client


def test_creating_a_thread_rotates_the_session_id_and_keeps_the_customer(alice):
    planted = _session_id(alice)  # an id someone else could know, from before the thread existed
    thread = alice.new_thread()

    assert _session_id(alice) != planted
    assert [t["id"] for t in alice.get("/api/v1/threads").json()["results"]] == [thread]
    # The old id is dead: whoever holds it sees nothing.
    assert _with_session(planted).get("/api/v1/threads").json()["results"] == []
    assert _with_session(planted).get(f"/api/v1/threads/{thread}").status_code == 404
    # The CSRF token the page holds still works: its secret moved with the session.
    assert alice.say(thread, "hello").status_code == 202


def test_a_run_that_verifies_the_customer_rotates_the_session_once(alice, monkeypatch):
    call_command("load_demo_orders", verbosity=0)
    model = ScriptedModel()
    monkeypatch.setattr("chat.agent.get_model", lambda: model)
    thread = alice.new_thread()
    model.script(
        tool_use_reply("lookup_order", {"order_id": "BK-10042", "customer_email": "sarah.chen@example.com"}),
        text_reply("Your order BK-10042 was delivered."),
    )
    run_id = alice.say(thread, "Where is BK-10042? I am sarah.chen@example.com").json()["run"]["id"]
    before = _session_id(alice)

    services.run_execute(run_id=run_id)  # the worker's turn: lookup_order matched the email
    seen = alice.get(f"/api/v1/runs/{run_id}")

    assert seen.status_code == 200 and seen.json()["status"] == "completed"
    rotated = _session_id(alice)
    assert rotated != before
    assert _with_session(before).get(f"/api/v1/runs/{run_id}").status_code == 404
    assert [t["id"] for t in alice.get("/api/v1/threads").json()["results"]] == [thread]
    # Reading the same run again does not rotate again.
    alice.get(f"/api/v1/runs/{run_id}")
    assert _session_id(alice) == rotated


def test_polling_by_message_id_rotates_after_verification_too(alice, monkeypatch):
    call_command("load_demo_orders", verbosity=0)
    model = ScriptedModel()
    monkeypatch.setattr("chat.agent.get_model", lambda: model)
    thread = alice.new_thread()
    model.script(
        tool_use_reply("lookup_order", {"order_id": "BK-10042", "customer_email": "sarah.chen@example.com"}),
        text_reply("Your order BK-10042 was delivered."),
    )
    posted = alice.say(thread, "Where is BK-10042? I am sarah.chen@example.com").json()
    before = _session_id(alice)

    services.run_execute(run_id=posted["run"]["id"])
    status = alice.get(f"/api/v1/threads/{thread}/messages/{posted['message']['id']}/status")

    assert status.status_code == 200
    assert _session_id(alice) != before
    assert _with_session(before).get(f"/api/v1/threads/{thread}").status_code == 404


def test_a_run_that_verifies_nobody_leaves_the_session_id_alone(alice, monkeypatch):
    model = ScriptedModel()
    monkeypatch.setattr("chat.agent.get_model", lambda: model)
    thread = alice.new_thread()
    model.script(text_reply("Hello! How can I help?"))
    run_id = alice.say(thread, "hello").json()["run"]["id"]
    before = _session_id(alice)

    services.run_execute(run_id=run_id)
    assert alice.get(f"/api/v1/runs/{run_id}").json()["status"] == "completed"

    assert _session_id(alice) == before


def test_a_csrf_token_from_another_session_is_refused(alice, bob):
    thread = alice.new_thread()

    stolen = alice.client.post(
        f"/api/v1/threads/{thread}/messages",
        data='{"content": "hi"}',
        content_type="application/json",
        headers={"X-CSRFToken": bob.csrf},
    )

    assert stolen.status_code == 403
    assert stolen.json()["error"]["code"] == "csrf_failed"

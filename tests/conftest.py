"""Shared fixtures: two customers (alice, bob), the fake Messages API, a real Celery worker."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.test import Client

from chat import services
from chat.llm import get_model
from chat.models import Run, Thread
from guardrails.services import policy_current
from tests.fakes import FakeAnthropicServer, ScriptedModel

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"


class Customer:
    """A browser-like API client: a real session, a real CSRF token on every unsafe call."""

    def __init__(self) -> None:
        self.client = Client(enforce_csrf_checks=True)
        response = self.client.get("/api/v1/session")
        assert response.status_code == 200
        self.csrf = response.json()["csrf_token"]

    def get(self, path: str, **headers):
        return self.client.get(path, headers=headers)

    def post(
        self, path: str, data=None, *, raw: bytes | str | None = None, content_type: str = "application/json", **headers
    ):
        body = raw if raw is not None else json.dumps(data if data is not None else {})
        return self.client.post(
            path, data=body, content_type=content_type, headers={"X-CSRFToken": self.csrf, **headers}
        )

    def new_thread(self) -> str:
        response = self.post("/api/v1/threads")
        assert response.status_code == 201, response.content
        return response.json()["id"]

    def say(self, thread_id: str, content: str, **headers):
        return self.post(f"/api/v1/threads/{thread_id}/messages", {"content": content}, **headers)

    def wait_run(self, run_id: str, *, timeout: float = 30.0) -> dict:
        """Long-poll until the run settles (or the timeout passes); returns the run."""
        deadline = time.monotonic() + timeout
        while True:
            response = self.get(f"/api/v1/runs/{run_id}?wait=10")
            assert response.status_code == 200, response.content
            run = json.loads(response.content)
            if run["status"] not in ("queued", "in_progress") or time.monotonic() > deadline:
                return run


def turn(thread: Thread, text: str = "I would like to return my order, please.") -> Run:
    """Post a customer message and execute its run in-process, as the worker's task would."""
    run = services.message_post(owner=thread.owner, thread_id=thread.id, content=text).run
    services.run_execute(run_id=run.id)
    run.refresh_from_db()
    return run


@pytest.fixture
def scripted(monkeypatch) -> ScriptedModel:
    """The model every turn of this test talks to; script its responses with `scripted.script(...)`."""
    model = ScriptedModel()
    monkeypatch.setattr("chat.agent.get_model", lambda: model)
    return model


@pytest.fixture
def set_policy(db):
    """Change the active policy the way staff do (a save, which bumps its version)."""

    def update(**changes):
        policy = policy_current()
        for field, value in changes.items():
            setattr(policy, field, value)
        policy.save()
        return policy

    return update


@pytest.fixture
def alice(db) -> Customer:
    return Customer()


@pytest.fixture
def bob(db) -> Customer:
    return Customer()


@pytest.fixture(autouse=True)
def _fresh_model_and_cache():
    """Each test starts with the configured model rebuilt and empty caches (throttle counters, policy)."""
    from django.core.cache import cache

    from guardrails.services import policy_cache_clear

    get_model.cache_clear()
    cache.clear()
    policy_cache_clear()
    yield
    get_model.cache_clear()


@pytest.fixture(scope="session")
def fake_anthropic_server() -> Iterator[FakeAnthropicServer]:
    server = FakeAnthropicServer().start()
    yield server
    server.stop()


@pytest.fixture
def fake_anthropic(fake_anthropic_server, settings, monkeypatch) -> FakeAnthropicServer:
    """The anthropic backend, pointed at the fake server through the SDK's own variables."""
    fake_anthropic_server.reset()
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_anthropic_server.url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-key")
    settings.BOOKLY_LLM = "anthropic"
    settings.ANTHROPIC_TIMEOUT_SECONDS = 2.0
    settings.MODEL_RETRY_BASE_SECONDS = 0.01
    settings.MODEL_RETRY_MAX_SECONDS = 0.05
    get_model.cache_clear()
    return fake_anthropic_server


# --- A real Celery worker process ------------------------------------------------------------


def _test_database_url() -> str:
    db = settings.DATABASES["default"]
    return f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def server_env(env_overrides: dict | None = None) -> dict:
    """The environment of a server or worker process run against the test database and Redis."""
    return {
        **os.environ,
        "DATABASE_URL": _test_database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "BOOKLY_LLM": "offline",
        "DB_POOL_MAX_SIZE": "4",
        **(env_overrides or {}),
    }


@contextlib.contextmanager
def managed_process(args: list[str], *, env: dict, name: str, ready: Callable[[Path], bool]) -> Iterator[Path]:
    """Start `args` in its own process group, wait until `ready(log_path)`, yield the log; always stop it."""
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / f"{name}.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 30
        while not ready(log_path):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not start; see {log_path}:\n{log_path.read_text()[-2000:]}")
            time.sleep(0.1)
        yield log_path
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@contextlib.contextmanager
def celery_worker(
    env_overrides: dict | None = None, *, concurrency: int = 8, name: str = "worker", extra_args: tuple[str, ...] = ()
) -> Iterator[Path]:
    """Start `celery worker` against the test database and Redis; yield its log path; stop it.

    Pool and concurrency come from the Celery settings (WORKER_CONCURRENCY), as in production.
    """
    env_overrides = {"WORKER_CONCURRENCY": str(concurrency), **(env_overrides or {})}
    args = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "bookly_project",
        "worker",
        "--loglevel",
        "INFO",
        "--without-mingle",
        "--without-gossip",
        "--hostname",
        f"{name}@%h",
        *extra_args,
    ]
    with managed_process(
        args, env=server_env(env_overrides), name=name, ready=lambda log: "ready." in log.read_text()
    ) as log_path:
        yield log_path


@pytest.fixture(scope="session")
def _clean_broker() -> None:
    """Nothing queued by an earlier run of the suite may reach this run's workers."""
    if not settings.REDIS_URL:
        pytest.fail("The test suite needs Redis: set REDIS_URL (make test does).")
    redis.Redis.from_url(settings.REDIS_URL).flushdb()


@pytest.fixture(scope="module")
def offline_worker(django_db_setup, django_db_blocker, _clean_broker) -> Iterator[Path]:
    """A real worker running the offline model; tests using it need `transactional_db`."""
    with celery_worker(name="offline-worker") as log:
        yield log


@pytest.fixture(scope="module")
def anthropic_worker(django_db_setup, _clean_broker, fake_anthropic_server) -> Iterator[Path]:
    """A real worker using the real SDK against the fake Messages API server."""
    env = {
        "BOOKLY_LLM": "anthropic",
        "ANTHROPIC_BASE_URL": fake_anthropic_server.url,
        "ANTHROPIC_API_KEY": "sk-ant-test-key",
        "ANTHROPIC_TIMEOUT_SECONDS": "5",
    }
    with celery_worker(env, name="anthropic-worker") as log:
        yield log

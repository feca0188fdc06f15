"""Browser tests: Debian's Chromium, driven by Playwright, against the running app.

Each module gets a real uvicorn process serving `bookly_project.asgi:application` on a free
port, pointed at the pytest-django test database and the test Redis, and (where it needs
replies) a real Celery worker from `tests.conftest.celery_worker`. Tests use transactional_db
so both processes see what the test writes. Every test ends with a screenshot in
artifacts/browser/<test>.png and an assertion that the page logged no errors and no CSP
violations.
"""

import contextlib
import os
import re
import socket
import sys
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.contrib.sessions.backends.cached_db import SessionStore
from django.core.management import call_command
from django.db import connections
from django.middleware.csrf import CSRF_SESSION_KEY

from chat.auth import CUSTOMER_SESSION_KEY
from tests.conftest import ARTIFACTS, celery_worker, managed_process, server_env

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = ARTIFACTS / "browser"
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 375, "height": 740}

# Playwright's sync API keeps its asyncio loop "running" on this thread while the browser
# is open, which Django's async-safety check mistakes for async code calling the ORM. The
# test process only; the server and worker processes never see this variable.
ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"

# Collects what the page reports: console errors, uncaught exceptions, CSP violations.
WATCH_SCRIPT = """
window.__bookly = {cspViolations: []};
document.addEventListener("securitypolicyviolation", (event) => {
  window.__bookly.cspViolations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
"""


@contextlib.contextmanager
def _env_without(name: str) -> Iterator[None]:
    saved = os.environ.pop(name, None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ[name] = saved


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers_health(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@contextlib.contextmanager
def bookly_web(env_overrides: dict | None = None, *, name: str = "browser-web", workers: int = 1) -> Iterator[str]:
    """Start uvicorn with the real ASGI app against the test database and Redis; yield its URL."""
    port = _free_port()
    env = server_env({"DEBUG": "false", **(env_overrides or {})})
    env.pop(ASYNC_UNSAFE, None)
    args = [
        sys.executable,
        "-m",
        "uvicorn",
        "bookly_project.asgi:application",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--lifespan",
        "off",
        "--workers",
        str(workers),
    ]
    url = f"http://127.0.0.1:{port}"
    with managed_process(args, env=env, name=name, ready=lambda log: _answers_health(url)):
        yield url


@contextlib.contextmanager
def bookly_worker(env_overrides: dict | None = None, *, name: str = "browser-worker") -> Iterator[Path]:
    """tests.conftest.celery_worker, started without the test process's async-unsafe flag."""
    with contextlib.ExitStack() as stack:
        with _env_without(ASYNC_UNSAFE):
            log = stack.enter_context(celery_worker(env_overrides, concurrency=4, name=name))
        yield log


@pytest.fixture(scope="session")
def _collected_static() -> None:
    """The server runs with DEBUG off, like production: it serves collected static files."""
    call_command("collectstatic", interactive=False, verbosity=0)


@pytest.fixture(scope="module")
def chromium() -> Iterator:
    """Chromium for one test module. Not for the whole session: while Playwright runs, its event
    loop counts as running on this thread, which would break async tests in other modules."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/ensure_chromium.sh (make test does).")
    saved = os.environ.get(ASYNC_UNSAFE)
    os.environ[ASYNC_UNSAFE] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            yield browser
            browser.close()
            # With Playwright's loop "running", Django keeps this thread's connections in a
            # context variable; give them back now, or the test database cannot be dropped.
            connections.close_all()
    finally:
        if saved is None:
            os.environ.pop(ASYNC_UNSAFE, None)
        else:
            os.environ[ASYNC_UNSAFE] = saved


@pytest.fixture(scope="module")
def web(django_db_setup, django_db_blocker, _clean_broker, _collected_static) -> Iterator[str]:
    """The app served by uvicorn, offline demo model, default rates."""
    with bookly_web() as url:
        yield url


@pytest.fixture(scope="module")
def worker(django_db_setup, django_db_blocker, _clean_broker) -> Iterator[Path]:
    """A real Celery worker running the offline demo model."""
    with bookly_worker() as log:
        yield log


@dataclass
class PageProblems:
    """What went wrong inside the page: console errors, uncaught errors, CSP violations."""

    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    # Failed loads the test caused on purpose (a 429, an expired thread's 404) are expected.
    allowed: list[re.Pattern] = field(default_factory=list)

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def unexpected_console_errors(self) -> list[str]:
        return [text for text in self.console_errors if not any(p.search(text) for p in self.allowed)]


class ChatPage:
    """The chat page in one browser context (one customer), plus what it reported."""

    def __init__(self, context, base_url: str, problems: PageProblems, name: str) -> None:
        self.context = context
        self.base_url = base_url
        self.problems = problems
        self.name = name
        self.page = context.new_page()
        self.page.on("console", self._on_console)
        self.page.on("pageerror", lambda error: problems.page_errors.append(str(error)))
        self.page.on("dialog", self._on_dialog)

    def _on_console(self, message) -> None:
        if message.type == "error":
            location = message.location or {}
            self.problems.console_errors.append(f"{message.text} [{location.get('url', '')}]")

    def _on_dialog(self, dialog) -> None:
        self.problems.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def open(self) -> "ChatPage":
        self.page.goto(self.base_url + "/")
        self.page.wait_for_selector("#chat[data-ready='true']")
        return self

    # --- what a customer does ---------------------------------------------------------

    @property
    def input(self):
        return self.page.get_by_label("Your message")

    @property
    def log(self):
        return self.page.get_by_role("log")

    def say(self, text: str) -> None:
        self.input.fill(text)
        self.input.press("Enter")

    def user_bubbles(self):
        return self.log.locator(".msg--user .msg__text")

    def bot_bubbles(self):
        """Bookly's replies (not the static welcome)."""
        return self.log.locator(".msg--bot:not(.msg--welcome):not(.msg--card) .msg__text")

    def thread_id(self) -> str | None:
        return self.page.evaluate("() => window.localStorage.getItem('bookly.threadId')")

    def customer_id(self) -> str:
        """The customer id the server keeps in this browser's session."""
        cookie = next(c for c in self.context.cookies() if c["name"] == settings.SESSION_COOKIE_NAME)
        return SessionStore(session_key=cookie["value"])[CUSTOMER_SESSION_KEY]

    def csrf_secret_forget(self) -> None:
        """The server forgets this session's CSRF secret (as a token rotation elsewhere would)."""
        cookie = next(c for c in self.context.cookies() if c["name"] == settings.SESSION_COOKIE_NAME)
        session = SessionStore(session_key=cookie["value"])
        del session[CSRF_SESSION_KEY]
        session.save()

    def snap(self, label: str) -> None:
        """A screenshot of an intermediate state: artifacts/browser/<test>--<label>.png."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / f"{self.name}--{label}.png"))

    def csp_violations(self) -> list[str]:
        return self.page.evaluate("() => window.__bookly ? window.__bookly.cspViolations : []")


@pytest.fixture
def chat_page(request, chromium, web, transactional_db) -> Iterator:
    """A fresh customer (browser context) on the chat page factory: `chat_page()` or `chat_page(url)`."""
    opened: list[ChatPage] = []
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)

    def open_page(base_url: str | None = None, *, viewport: dict | None = None, clock: bool = False) -> ChatPage:
        context = chromium.new_context(viewport=viewport or DESKTOP, locale="en-US", timezone_id="UTC")
        context.add_init_script(WATCH_SCRIPT)
        problems = PageProblems()
        chat = ChatPage(context, base_url or web, problems, name)
        if clock:
            chat.page.clock.install()
        opened.append(chat)
        return chat

    yield open_page

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    try:
        for index, chat in enumerate(opened):
            suffix = "" if index == 0 else f"-{index + 1}"
            chat.page.screenshot(path=str(SCREENSHOTS / f"{name}{suffix}.png"), full_page=False)
        failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
        if not failed:
            for chat in opened:
                assert chat.csp_violations() == [], "the page hit Content-Security-Policy violations"
                assert chat.problems.page_errors == [], "the page threw uncaught errors"
                assert chat.problems.unexpected_console_errors() == [], "the page logged console errors"
                assert chat.problems.dialogs == [], "the page opened a dialog"
    finally:
        for chat in opened:
            chat.context.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item, so fixtures can tell whether the test failed."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


def throttle_counters_clear() -> None:
    """Forget every customer's message count (what a minute passing does for a 2/min rate)."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    for key in client.scan_iter(match="bookly:limit:messages:*"):
        client.delete(key)

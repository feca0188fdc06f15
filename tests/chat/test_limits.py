"""Request limits under real concurrency: uvicorn with two worker processes, real Redis, aiohttp.

DRF's default throttle read, checked and wrote its history non-atomically: 100 parallel POSTs
in one session were all accepted with a limit of 30. These tests send the same floods.
"""

import asyncio
import threading
from collections.abc import Iterator

import aiohttp
import pytest
import redis
from django.test import RequestFactory
from redis.backoff import NoBackoff
from redis.retry import Retry

from bookly_project.limits import LocalCounters, client_address, limit_hit, limit_parse
from chat.models import Message, Thread
from tests.browser.conftest import _free_port, bookly_web

MESSAGES_PER_SESSION = 30
SESSIONS_PER_ADDRESS = 20


@pytest.fixture(scope="module")
def web(django_db_setup, django_db_blocker, _clean_broker) -> Iterator[str]:
    """uvicorn as `make run` starts it (two processes, trusting no proxy), with known limits."""
    env = {
        "THROTTLE_MESSAGES": f"{MESSAGES_PER_SESSION}/min",
        "THROTTLE_MESSAGES_PER_ADDRESS": "1000/min",
        "THROTTLE_SESSIONS_PER_ADDRESS": f"{SESSIONS_PER_ADDRESS}/min",
        "THROTTLE_THREADS_PER_ADDRESS": "1000/min",
        "FORWARDED_ALLOW_IPS": "",
        "DB_POOL_MAX_SIZE": "8",
        # Load shedding (chat/admission.py) would refuse part of the burst with 503 before the limiter
        # sees it: these tests are about the limiter.
        "WEB_MAX_PENDING_POSTS": "1000",
    }
    with bookly_web(env, name="limits-web", workers=2) as url:
        yield url


class Client:
    """One browser: its own cookie jar (the session), its CSRF token."""

    def __init__(self, http: aiohttp.ClientSession, url: str, headers: dict | None = None) -> None:
        self.http, self.url, self.headers, self.csrf = http, url, headers or {}, ""

    async def start(self) -> int:
        async with self.http.get(f"{self.url}/api/v1/session", headers=self.headers) as response:
            if response.status == 200:
                self.csrf = (await response.json())["csrf_token"]
            return response.status

    async def post(self, path: str, body: dict) -> tuple[int, dict, dict]:
        headers = {**self.headers, "X-CSRFToken": self.csrf}
        async with self.http.post(f"{self.url}{path}", json=body, headers=headers) as response:
            return response.status, await response.json(), dict(response.headers)


def new_http() -> aiohttp.ClientSession:
    # unsafe=True: keep cookies set by an IP-address host (127.0.0.1).
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


@pytest.mark.django_db(transaction=True)
def test_100_parallel_posts_in_one_session_accept_at_most_the_limit(web):
    async def flood() -> list[tuple[int, dict, dict]]:
        async with new_http() as http:
            client = Client(http, web)
            assert await client.start() == 200
            status, thread, _ = await client.post("/api/v1/threads", {})
            assert status == 201
            path = f"/api/v1/threads/{thread['id']}/messages"
            return await asyncio.gather(*[client.post(path, {"content": f"message {i}"}) for i in range(100)])

    answers = asyncio.run(flood())

    statuses = [status for status, _, _ in answers]
    print(f"\n100 parallel POSTs in one session: {statuses.count(202)} accepted, {statuses.count(429)} throttled")
    assert statuses.count(202) == MESSAGES_PER_SESSION
    assert statuses.count(429) == 100 - MESSAGES_PER_SESSION
    assert Message.objects.filter(role="user").count() == MESSAGES_PER_SESSION
    for status, body, headers in answers:
        if status == 429:
            assert body["error"]["code"] == "throttled"
            assert 0 < int(headers["Retry-After"]) <= 60
            assert body["error"]["details"]["retry_after_seconds"] == int(headers["Retry-After"])


async def _fresh_session_per_message(url: str, attempts: int, spoof: bool) -> list[int]:
    """Each attempt is a new browser: new session, new thread, one message. Returns the message statuses."""

    async def one(i: int) -> int:
        headers = {"X-Forwarded-For": f"203.0.113.{i % 250}"} if spoof else {}
        async with new_http() as http:
            client = Client(http, url, headers)
            if await client.start() != 200:
                return 429
            status, thread, _ = await client.post("/api/v1/threads", {})
            if status != 201:
                return status
            return (await client.post(f"/api/v1/threads/{thread['id']}/messages", {"content": "hello"}))[0]

    return await asyncio.gather(*[one(i) for i in range(attempts)])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("spoof", [False, True], ids=["plain", "spoofed-x-forwarded-for"])
def test_new_sessions_per_message_from_one_address_are_bounded(web, spoof):
    statuses = asyncio.run(_fresh_session_per_message(web, 60, spoof))

    print(f"\n60 fresh sessions from one address (spoof={spoof}): {statuses.count(202)} messages accepted")
    assert statuses.count(202) == SESSIONS_PER_ADDRESS
    assert statuses.count(429) == 60 - SESSIONS_PER_ADDRESS
    assert Thread.objects.count() == SESSIONS_PER_ADDRESS
    assert Message.objects.count() == SESSIONS_PER_ADDRESS


# --- The rules in-process ------------------------------------------------------------------------


def test_without_redis_the_counters_still_hold_under_threads():
    counters = LocalCounters()
    limits = {"k": limit_parse("30/min")}
    results: list[int] = []
    barrier = threading.Barrier(100)

    def hit() -> None:
        barrier.wait()
        results.append(counters.hit(limits))

    threads = [threading.Thread(target=hit) for _ in range(100)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert results.count(0) == 30
    assert all(0 < wait <= 60 for wait in results if wait)


def test_without_redis_limit_hit_uses_the_process_counters(settings):
    settings.REDIS_URL = ""
    settings.RATE_LIMITS = {"messages": {"session": "2/min", "address": "3/min"}}

    waits = [limit_hit("messages", session="alice", address="198.51.100.1") for _ in range(3)]
    other_session = limit_hit("messages", session="bob", address="198.51.100.1")
    other_address = limit_hit("messages", session="carol", address="198.51.100.2")

    assert waits[:2] == [0, 0] and waits[2] > 0
    assert other_session > 0  # the address has had its 3
    assert other_address == 0


def test_when_redis_does_not_answer_requests_are_allowed_and_a_warning_logged(settings, caplog, monkeypatch):
    from bookly_project import limits

    # A real client for a port where no Redis listens (no retries: the test is about the answer).
    dead = limits.RedisCounters()
    client = redis.Redis(port=_free_port(), socket_connect_timeout=0.5, retry=Retry(NoBackoff(), 0))
    dead._script = client.register_script(limits._HIT_SCRIPT)
    monkeypatch.setattr(limits, "_redis_counters", dead)
    settings.RATE_LIMITS = {"messages": {"session": "1/min"}}

    assert [limit_hit("messages", session="alice", address="198.51.100.1") for _ in range(3)] == [0, 0, 0]
    assert "rate limiter unavailable, allowing the request (messages): ConnectionError" in caplog.text


@pytest.mark.parametrize(
    ("num_proxies", "forwarded", "expected"),
    [
        (0, "", "192.0.2.9"),
        (0, "203.0.113.5", "192.0.2.9"),  # no proxy trusted: the header is the client's own claim
        (1, "203.0.113.5", "203.0.113.5"),
        (1, "1.2.3.4, 203.0.113.5", "203.0.113.5"),  # the spoofed hop is left of what the proxy appended
        (2, "1.2.3.4, 203.0.113.5, 10.0.0.2", "203.0.113.5"),
        (1, "", "192.0.2.9"),
    ],
)
def test_the_client_address_trusts_exactly_num_proxies(settings, num_proxies, forwarded, expected):
    settings.NUM_PROXIES = num_proxies
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.9", HTTP_X_FORWARDED_FOR=forwarded)

    assert client_address(request) == expected

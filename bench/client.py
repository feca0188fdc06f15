"""Virtual customers: real HTTP clients of the public API, one session and cookie jar each.

Closed loop (`Customer.converse`): POST a message → long-poll the run until it settles →
repeat. Open loop (`open_loop_posts`): POSTs at a fixed rate, spread over a pool of
customers, never waiting for replies. Every turn records its timings; nothing a customer
types or receives is logged.
"""

import asyncio
import time
from dataclasses import dataclass, field
from datetime import datetime

import aiohttp

WAITING = ("queued", "in_progress")
MESSAGES = (
    "Hi, how long does standard shipping take?",
    "How do I reset my password?",
    "What is your returns policy?",
    "Thanks. Can I return a book I bought last week?",
)


@dataclass
class Turn:
    started: float  # time.monotonic() when the POST was sent
    accepted_ms: float | None = None  # POST → 202
    reply_s: float | None = None  # POST → the long-poll that returned the settled run
    polls: int = 0
    delivery_ms: float | None = None  # run.completed_at (worker) → long-poll received (client), same clock
    error: str = ""  # "" when the turn completed; else an error code
    ended: float = 0.0  # time.monotonic() when the turn ended
    model_calls: int = 0
    refusals: int = 0  # 503/429 answers to the POST, each waited out (Retry-After) and retried


@dataclass
class Counters:
    requests: int = 0
    posts: int = 0
    polls: int = 0
    setup_requests: int = 0
    csrf_refetches: int = 0  # a thread create refused with 403 csrf_failed, retried with a fresh token
    errors: dict = field(default_factory=dict)

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


def _parse_ts(value: str | None) -> float | None:
    if not value:
        return None
    return datetime.fromisoformat(value).timestamp()


class Customer:
    """One browser: a session cookie, a CSRF token, one open thread at a time."""

    def __init__(
        self,
        base_url: str,
        index: int,
        counters: Counters,
        *,
        turns_per_thread: int = 10,
        poll_wait: float = 25.0,
        turn_timeout: float = 60.0,
    ) -> None:
        self.base_url = base_url
        self.index = index
        self.counters = counters
        self.turns_per_thread = turns_per_thread
        self.poll_wait = poll_wait
        self.turn_timeout = turn_timeout
        self.session: aiohttp.ClientSession | None = None
        self.csrf = ""
        self.thread_id: str | None = None
        self.thread_turns = 0
        self.turns: list[Turn] = []
        self.retry_after = 0.0  # the last refusal's Retry-After (seconds)

    async def open(self) -> None:
        """GET /api/v1/session (cookies + CSRF token), then a first thread."""
        connector = aiohttp.TCPConnector(limit=4, force_close=False)
        self.session = aiohttp.ClientSession(
            connector=connector,
            cookie_jar=aiohttp.CookieJar(unsafe=True),
            timeout=aiohttp.ClientTimeout(total=self.poll_wait + 15, connect=10),
        )
        await self.csrf_fetch()
        await self.new_thread()

    async def csrf_fetch(self) -> None:
        """GET /api/v1/session: the session cookie and its CSRF token."""
        async with self.session.get(f"{self.base_url}/api/v1/session") as response:
            self.counters.setup_requests += 1
            response.raise_for_status()
            self.csrf = (await response.json())["csrf_token"]

    async def new_thread(self) -> None:
        for attempt in range(2):
            async with self.session.post(
                f"{self.base_url}/api/v1/threads", json={}, headers={"X-CSRFToken": self.csrf}
            ) as response:
                self.counters.setup_requests += 1
                if response.status == 201:
                    self.thread_id = (await response.json())["id"]
                    self.thread_turns = 0
                    return
                if response.status != 403 or attempt:
                    raise RuntimeError(f"thread create answered {response.status}")
            # As the chat page does on csrf_failed: fetch the session's token again, retry once.
            self.counters.csrf_refetches += 1
            await self.csrf_fetch()

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()

    async def post_message(self) -> tuple[int, dict | None, float]:
        """One POST; returns (status, body or None, latency in ms)."""
        content = MESSAGES[(self.index + self.thread_turns) % len(MESSAGES)]
        started = time.perf_counter()
        async with self.session.post(
            f"{self.base_url}/api/v1/threads/{self.thread_id}/messages",
            json={"content": content},
            headers={"X-CSRFToken": self.csrf},
        ) as response:
            body = await response.json(content_type=None) if response.status == 202 else None
            await response.read()
            self.retry_after = float(response.headers.get("Retry-After") or 0)
            elapsed_ms = (time.perf_counter() - started) * 1000
        self.counters.requests += 1
        self.counters.posts += 1
        self.thread_turns += 1
        return response.status, body, elapsed_ms

    async def turn(self) -> Turn:
        """POST one message and long-poll its run until it settles (or the turn times out)."""
        turn = Turn(started=time.monotonic())
        started = time.perf_counter()
        deadline = time.monotonic() + self.turn_timeout
        try:
            status, body, turn.accepted_ms = await self.post_message()
            # Refused (overload, throttling): wait out Retry-After and send the same message again.
            while status in (429, 503) and self.retry_after and time.monotonic() + self.retry_after < deadline:
                turn.refusals += 1
                self.thread_turns -= 1  # the refused message was not stored
                await asyncio.sleep(self.retry_after)
                status, body, turn.accepted_ms = await self.post_message()
            if status != 202:
                turn.error = f"post_{status}"
                return turn
            run_id = body["run"]["id"]
            while True:
                wait = min(self.poll_wait, max(1.0, deadline - time.monotonic()))
                async with self.session.get(
                    f"{self.base_url}/api/v1/runs/{run_id}", params={"wait": f"{wait:.0f}"}
                ) as response:
                    received = time.time()
                    run = await response.json(content_type=None) if response.status == 200 else None
                self.counters.requests += 1
                self.counters.polls += 1
                turn.polls += 1
                if run is None:
                    turn.error = f"poll_{response.status}"
                    return turn
                if run["status"] not in WAITING:
                    break
                if time.monotonic() > deadline:
                    turn.error = "turn_timeout"
                    return turn
            turn.reply_s = time.perf_counter() - started
            completed_at = _parse_ts(run.get("completed_at"))
            if completed_at is not None:
                turn.delivery_ms = (received - completed_at) * 1000
            if run["status"] != "completed":
                turn.error = f"run_{run['status']}_{(run.get('error') or {}).get('code', '')}".rstrip("_")
            return turn
        except (aiohttp.ClientError, TimeoutError, KeyError, ValueError) as error:
            turn.error = f"client_{type(error).__name__}"
            return turn
        finally:
            turn.ended = time.monotonic()
            if turn.error:
                self.counters.error(turn.error)
            self.turns.append(turn)

    async def converse(self, stop_at: float, *, think: float = 0.0, start_delay: float = 0.0) -> None:
        """Closed loop until `stop_at` (monotonic): a turn, optional think time, the next turn."""
        await asyncio.sleep(start_delay)
        while time.monotonic() < stop_at:
            if self.thread_turns >= self.turns_per_thread:
                try:
                    await self.new_thread()
                except (aiohttp.ClientError, TimeoutError, RuntimeError):
                    self.counters.error("thread_create")
                    await asyncio.sleep(0.5)
                    continue
            turn = await self.turn()
            if turn.error:
                # A failed turn may leave a run queued behind in this thread: start afresh.
                self.thread_turns = self.turns_per_thread
                await asyncio.sleep(0.5)
            elif think > 0:
                await asyncio.sleep(think)


async def customers_open(
    base_url: str, count: int, counters: Counters, *, concurrency: int = 50, **kwargs
) -> list[Customer]:
    """Create `count` customers (session + thread each), `concurrency` at a time."""
    gate = asyncio.Semaphore(concurrency)
    customers = [Customer(base_url, index, counters, **kwargs) for index in range(count)]

    async def one(customer: Customer) -> None:
        async with gate:
            await customer.open()

    await asyncio.gather(*(one(customer) for customer in customers))
    return customers


@dataclass
class Accept:
    scheduled: float  # monotonic time the POST was due
    sent_lag_ms: float = 0.0  # how late the client sent it (client-side scheduling delay)
    latency_ms: float | None = None  # send → 202
    answered_ms: float | None = None  # send → any HTTP answer (202 or a refusal)
    status: int | None = None
    error: str = ""


async def open_loop_posts(
    customers: list[Customer],
    *,
    rate: float,
    duration: float,
    max_outstanding: int = 2000,
    rotate_threads: bool = False,
) -> list[Accept]:
    """POST at a fixed rate for `duration` seconds, round-robin over `customers`; never wait for replies.

    With `rotate_threads` a customer starts a new thread once its thread has had its turns.
    """
    results: list[Accept] = []
    outstanding: set[asyncio.Task] = set()
    total = int(rate * duration)
    start = time.monotonic() + 0.2

    async def post(customer: Customer, accept: Accept) -> None:
        accept.sent_lag_ms = (time.monotonic() - accept.scheduled) * 1000
        try:
            if rotate_threads and customer.thread_turns >= customer.turns_per_thread:
                try:
                    await customer.new_thread()  # a thread takes a bounded number of turns
                except RuntimeError:
                    accept.error = "thread_create_failed"  # not a message POST: counted apart
                    customer.counters.error(accept.error)
                    return
            status, _, latency_ms = await customer.post_message()
            accept.status, accept.answered_ms = status, latency_ms
            if status == 202:
                accept.latency_ms = latency_ms
            else:
                accept.error = f"post_{status}"
        except (aiohttp.ClientError, TimeoutError) as error:
            accept.error = f"client_{type(error).__name__}"
        if accept.error:
            customer.counters.error(accept.error)

    for index in range(total):
        due = start + index / rate
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        accept = Accept(scheduled=due)
        results.append(accept)
        if len(outstanding) >= max_outstanding:
            accept.error = "client_backlog"
            customers[0].counters.error(accept.error)
            continue
        task = asyncio.create_task(post(customers[index % len(customers)], accept))
        outstanding.add(task)
        task.add_done_callback(outstanding.discard)
    if outstanding:
        await asyncio.wait(outstanding, timeout=30)
    return results

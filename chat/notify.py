"""Run-change notifications: the worker publishes, long-poll views wake up.

One Redis pub/sub channel carries run ids. Each web process keeps a single subscriber
per event loop and hands each message to the waiters of that run, so a thousand
long-polls cost one Redis connection, not a thousand. Without Redis (the embedded
local mode) waiters fall back to re-reading the database every half second.
"""

import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator
from uuid import UUID

import redis
import redis.asyncio as aioredis
from django.conf import settings

logger = logging.getLogger(__name__)

CHANNEL = "bookly:run-changed"
_FALLBACK_POLL_SECONDS = 0.5
# Every change that ends a wait is published, and waiters re-read after the subscriber
# reconnects; this re-read is only a backstop. Each one costs a DB read per waiting
# long-poll, which under overload (long queues, many waiters) added up to a third of
# the web's CPU at 5 s.
_SAFETY_RECHECK_SECONDS = 20.0

_publisher: redis.Redis | None = None


def run_changed(run_id: UUID | str) -> None:
    """Tell long-pollers that a run changed state. Never raises: pollers re-check anyway."""
    global _publisher
    if not settings.REDIS_URL:
        return
    try:
        if _publisher is None:
            _publisher = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
        _publisher.publish(CHANNEL, str(run_id))
    except redis.RedisError:
        logger.warning("could not publish run change for run %s", run_id)


class _Listener:
    """One subscriber per event loop, fanning messages out to per-run waiters."""

    def __init__(self) -> None:
        self.waiters: dict[str, set[asyncio.Event]] = {}
        self.task: asyncio.Task | None = None
        self.subscribed = asyncio.Event()
        self.reconnecting = False

    def ensure_running(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._listen())

    async def _listen(self) -> None:
        while True:
            client = aioredis.Redis.from_url(settings.REDIS_URL)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    if self.reconnecting:
                        # Changes published while we were away were missed: everyone re-reads.
                        self._wake_all()
                    self.reconnecting = False
                    self.subscribed.set()
                    async for message in pubsub.listen():
                        if message["type"] == "message":
                            self._wake(message["data"].decode())
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("run notification subscriber lost Redis; reconnecting")
                self.subscribed.clear()
                self.reconnecting = True
                self._wake_all()  # let waiters re-read the database meanwhile
                await asyncio.sleep(1)
            finally:
                await client.aclose()

    def _wake(self, run_id: str) -> None:
        for event in self.waiters.get(run_id, ()):
            event.set()

    def _wake_all(self) -> None:
        for events in self.waiters.values():
            for event in events:
                event.set()


_listeners: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Listener]" = weakref.WeakKeyDictionary()


class RunWatch:
    """Handed out by `run_watch`: `await watch.wait(seconds)` returns early when the run changes."""

    def __init__(self, event: asyncio.Event, use_pubsub: bool) -> None:
        self._event = event
        self._use_pubsub = use_pubsub

    async def wait(self, seconds: float) -> None:
        step = _SAFETY_RECHECK_SECONDS if self._use_pubsub else _FALLBACK_POLL_SECONDS
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._event.wait(), timeout=min(seconds, step))
        self._event.clear()


@contextlib.asynccontextmanager
async def run_watch(run_id: UUID | str) -> AsyncIterator[RunWatch]:
    """Subscribe to a run's changes *before* reading it, so no change slips between the two."""
    event = asyncio.Event()
    if not settings.REDIS_URL:
        yield RunWatch(event, use_pubsub=False)
        return
    loop = asyncio.get_running_loop()
    listener = _listeners.get(loop)
    if listener is None:
        listener = _listeners[loop] = _Listener()
    listener.ensure_running()
    key = str(run_id)
    listener.waiters.setdefault(key, set()).add(event)
    try:
        if not listener.subscribed.is_set():
            # The first waiter of a fresh process waits (briefly) for the subscription to exist.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(listener.subscribed.wait(), timeout=1.0)
        yield RunWatch(event, use_pubsub=listener.subscribed.is_set())
    finally:
        waiting = listener.waiters.get(key)
        if waiting is not None:
            waiting.discard(event)
            if not waiting:
                del listener.waiters[key]

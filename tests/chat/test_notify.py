"""Run-change notifications over real Redis pub/sub: waiters wake on a publish, and after a reconnect."""

import asyncio
import time

import redis
from django.conf import settings

from chat import notify


def test_a_waiter_wakes_as_soon_as_its_run_is_published():
    async def scenario() -> float:
        async with notify.run_watch("run-a") as watch:
            started = time.monotonic()
            asyncio.get_running_loop().call_later(0.2, notify.run_changed, "run-a")
            await watch.wait(10)
            return time.monotonic() - started

    assert asyncio.run(scenario()) < 2.0


def test_a_change_of_another_run_does_not_wake_the_waiter():
    async def scenario() -> float:
        async with notify.run_watch("run-b") as watch:
            started = time.monotonic()
            asyncio.get_running_loop().call_later(0.1, notify.run_changed, "run-other")
            await watch.wait(1.0)
            return time.monotonic() - started

    assert asyncio.run(scenario()) >= 0.95


def test_waiters_re_read_after_the_subscriber_reconnects_and_then_wake_on_publish_again():
    admin = redis.Redis.from_url(settings.REDIS_URL)

    async def scenario() -> tuple[float, float, float]:
        async with notify.run_watch("run-c") as watch:
            listener = notify._listeners[asyncio.get_running_loop()]
            # Drop the subscriber's connection, as a Redis restart would.
            admin.client_kill_filter(_type="pubsub")
            started = time.monotonic()
            await watch.wait(10)  # woken: the subscription was lost, re-read the database
            woken_on_loss = time.monotonic() - started
            started = time.monotonic()
            await watch.wait(10)  # woken again once resubscribed: changes in the gap were missed
            woken_on_resubscribe = time.monotonic() - started
            assert listener.subscribed.is_set()
            started = time.monotonic()
            asyncio.get_running_loop().call_later(0.2, notify.run_changed, "run-c")
            await watch.wait(10)
            return woken_on_loss, woken_on_resubscribe, time.monotonic() - started

    woken_on_loss, woken_on_resubscribe, woken_on_publish = asyncio.run(scenario())
    assert woken_on_loss < 2.0
    assert woken_on_resubscribe < 4.0
    assert woken_on_publish < 2.0

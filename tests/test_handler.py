"""The web's ASGI handler (bookly_project/handler.py) lends each request a thread kept from earlier ones."""

import threading

import pytest
from asgiref.sync import async_to_sync
from django.core.signals import request_started

from bookly_project.handler import EXECUTOR_SUPPORTED, ReusedThreadsASGIHandler
from tests.chat.test_overload import asgi_call

pytestmark = pytest.mark.skipif(not EXECUTOR_SUPPORTED, reason="asgiref without ThreadSensitiveContext(executor=)")


@pytest.fixture
def sync_threads():
    """The thread each request's sync code ran on (the request_started signal's receivers run there)."""
    threads: list[threading.Thread] = []

    def record(**kwargs) -> None:
        threads.append(threading.current_thread())

    request_started.connect(record, dispatch_uid="test_handler")
    yield threads
    request_started.disconnect(dispatch_uid="test_handler")


def test_requests_one_after_another_reuse_one_thread(sync_threads):
    handler = ReusedThreadsASGIHandler(idle_max=4)

    answers = [asgi_call(handler, "GET", "/healthz")[0] for _ in range(3)]

    assert answers == [200, 200, 200]
    assert len(set(sync_threads)) == 1
    assert sync_threads[0].name.startswith("request")
    assert len(handler._idle) == 1


def test_past_the_idle_bound_a_thread_is_let_go(sync_threads):
    handler = ReusedThreadsASGIHandler(idle_max=0)

    assert [asgi_call(handler, "GET", "/healthz")[0] for _ in range(2)] == [200, 200]

    assert len(set(sync_threads)) == 2
    assert not handler._idle


def test_other_connection_types_are_refused_as_django_refuses_them():
    handler = ReusedThreadsASGIHandler(idle_max=4)

    async def nothing() -> dict:
        return {}

    async def ignore(message: dict) -> None:
        return None

    with pytest.raises(ValueError, match="websocket"):
        async_to_sync(handler)({"type": "websocket"}, nothing, ignore)

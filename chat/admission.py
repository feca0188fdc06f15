"""Load shedding for the message POST: accept at once or refuse at once (503 + Retry-After).

Wraps the POST view in chat/urls.py; the view itself (chat/api.py) is unchanged. Two bounds,
both checked on the event loop before the request takes its turn on the web process's one
thread for sync views (Django runs every sync view of an ASGI process there, one at a time):

- POSTs pending in this process (waiting for that thread or on it) beyond
  WEB_MAX_PENDING_POSTS: a newcomer would only wait in line, so it is refused;
- messages waiting in the Celery queue (LLEN of the broker's list, read at most every
  QUEUE_DEPTH_MAX_AGE seconds per process) beyond MESSAGE_QUEUE_MAX_DEPTH: the workers
  could not start the turn before its queue-wait bound (RUN_QUEUE_MAX_WAIT_SECONDS).

A refused POST stores nothing, so the customer's retry is the only copy of the message.
"""

import logging
import time
from collections.abc import Callable
from functools import wraps

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from redis import RedisError

from bookly_project.errors import error_response

logger = logging.getLogger(__name__)

CELERY_QUEUE = "celery"  # the default queue's Redis list; run_turn goes there
QUEUE_DEPTH_MAX_AGE = 0.25  # seconds a process reuses the queue length it last read

_queue_depth = {"value": 0, "read_at": float("-inf")}


def queue_depth_forget() -> None:
    """Make the next check read the queue length afresh (tests)."""
    _queue_depth["read_at"] = float("-inf")


def _queue_depth_read() -> int:
    """The broker queue's length, at most QUEUE_DEPTH_MAX_AGE old; 0 without Redis or when it fails.

    A Redis outage is not a reason to refuse: the POST stores the run and the sweep dispatches it.
    """
    now = time.monotonic()
    if now - _queue_depth["read_at"] < QUEUE_DEPTH_MAX_AGE:
        return _queue_depth["value"]
    depth = 0
    if settings.REDIS_URL:
        from django_redis import get_redis_connection

        try:
            depth = get_redis_connection("default").llen(CELERY_QUEUE)
        except RedisError:
            logger.warning("could not read the queue length; admitting")
    _queue_depth.update(value=depth, read_at=now)
    return depth


def _busy(code: str, message: str, retry_after: int) -> HttpResponse:
    response = error_response(503, code, message, {"retry_after_seconds": retry_after})
    response["Retry-After"] = str(retry_after)
    return response


def admit_posts(view: Callable) -> Callable:
    """An async view that sheds POSTs to `view` (a sync view) past the bounds above; other methods pass."""
    pending = 0  # POSTs of this process between admission and response; event-loop only, so no lock
    run_view = sync_to_async(view)

    @wraps(view)
    async def admitted(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        nonlocal pending
        if request.method != "POST":
            return await run_view(request, *args, **kwargs)
        if pending >= settings.WEB_MAX_PENDING_POSTS:
            return _busy("overloaded", "We are receiving more messages than we can take; please retry shortly.", 1)
        if _queue_depth_read() > settings.MESSAGE_QUEUE_MAX_DEPTH:
            return _busy("overloaded", "We are answering more messages than we can take; please retry shortly.", 5)
        pending += 1
        try:
            return await run_view(request, *args, **kwargs)
        finally:
            pending -= 1

    return admitted  # wraps() kept the view's attributes: csrf_exempt, and cls for the schema

"""Load shedding for the message POST: accept at once or refuse at once (503 + Retry-After).

An ASGI wrapper around Django's application (bookly_project/asgi.py). A refusal is sent
before Django sees the request, so it costs microseconds of the event loop rather than the
middleware stack. That matters: when the web is saturated, refusals must not eat the CPU
the accepted requests need. Two bounds:

- POSTs of messages this process holds (between arrival and response) beyond
  WEB_MAX_PENDING_POSTS: each holds a thread and, for its transaction, one of the process's
  DB_POOL_MAX_SIZE connections, shared with the long-polls; a newcomer past the bound would
  wait for a connection or for the CPU;
- turns waiting in the Celery queue (LLEN of the broker's list, read at most every
  QUEUE_DEPTH_MAX_AGE seconds per process) beyond MESSAGE_QUEUE_MAX_DEPTH: the workers
  could not start the turn before its queue-wait bound (RUN_QUEUE_MAX_WAIT_SECONDS).

A refused POST stores nothing, so the customer's retry is the only copy of the message.
Other requests (long-polls, pages) pass untouched.
"""

import json
import logging
import time

from django.conf import settings
from django.urls import Resolver404, resolve
from redis import RedisError

logger = logging.getLogger(__name__)

CELERY_QUEUE = "celery"  # the default queue's Redis list; run_turn goes there
QUEUE_DEPTH_MAX_AGE = 0.25  # seconds a process reuses the queue length it last read
QUEUE_DEPTH_RETRY_AFTER_FAILURE = 5.0  # seconds it admits without asking after Redis failed to answer
MESSAGE_POST_URL_NAME = "message-list"

_queue_depth = {"value": 0, "read_at": float("-inf")}


def queue_depth_forget() -> None:
    """Make the next check read the queue length afresh (tests)."""
    _queue_depth["read_at"] = float("-inf")


def queue_depth() -> int:
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
            # This read blocks the event loop: while Redis is away, try again only now and then.
            now += QUEUE_DEPTH_RETRY_AFTER_FAILURE
    _queue_depth.update(value=depth, read_at=now)
    return depth


def _is_message_post(scope: dict) -> bool:
    if scope["type"] != "http" or scope["method"] != "POST":
        return False
    try:
        return resolve(scope["path"]).url_name == MESSAGE_POST_URL_NAME
    except Resolver404:
        return False


async def _refuse(send, message: str, retry_after: int) -> None:
    """503 in the API's one error shape, with Retry-After."""
    body = json.dumps(
        {"error": {"code": "overloaded", "message": message, "details": {"retry_after_seconds": retry_after}}}
    ).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(retry_after).encode()),
        (b"cache-control", b"no-store"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class MessageAdmission:
    """ASGI: refuse message POSTs past the bounds above; pass everything else to `app`."""

    def __init__(self, app) -> None:
        self.app = app
        self.pending = 0  # message POSTs of this process in progress; event-loop only, so no lock

    async def __call__(self, scope, receive, send) -> None:
        if not _is_message_post(scope):
            return await self.app(scope, receive, send)
        if self.pending >= settings.WEB_MAX_PENDING_POSTS:
            return await _refuse(send, "We are receiving more messages than we can take; please retry shortly.", 1)
        if queue_depth() > settings.MESSAGE_QUEUE_MAX_DEPTH:
            return await _refuse(send, "We are answering more messages than we can take; please retry shortly.", 5)
        self.pending += 1
        try:
            return await self.app(scope, receive, send)
        finally:
            self.pending -= 1

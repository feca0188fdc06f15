"""Prototypes of proposed changes, switched on per bench run to measure what they would buy.

Not a shipping code path: each entry patches Bookly *inside the bench's own processes*
so the figure of a proposed change to chat/ or settings can be measured before anyone
edits those files. docs/performance.md names the real change each one stands for.

    python -m bench.run --experiments poll_release,shared_redis_pool ...

runs uvicorn on `bench.experiments:application` and Celery with `-A bench.experiments`,
with BENCH_EXPERIMENTS set. Known experiments:

- poll_release:      the long-poll gives its DB connection back after each read instead of
                     holding it for the whole wait (chat/selectors.py `run_aget` / chat/api.py).
- shared_redis_pool: one Redis connection pool per process for Django's cache (sessions,
                     throttles), instead of a new pool and connection per ASGI request.
- no_task_events:    task_send_sent_event / worker_send_task_events off (settings.py).
- lean_middleware:   drop the MiddlewareMixin middleware the JSON API does not need
                     (Common, Authentication, Messages, XFrameOptions): under ASGI every
                     process_request/process_response hook is a sync_to_async thread hop.
                     Measures what fewer hops buy; the admin needs some of them back.
"""

import os

from bench.stack import EXPERIMENTS
from bookly_project.celery import app

ENABLED = {name for name in os.environ.get("BENCH_EXPERIMENTS", "").split(",") if name}

if "no_task_events" in ENABLED:
    app.conf.task_send_sent_event = False
    app.conf.worker_send_task_events = False


def _shared_redis_pool() -> None:
    from django.core.cache.backends import redis as redis_cache

    shared: dict = {}
    original_init = redis_cache.RedisCacheClient.__init__

    def __init__(self, servers, **options) -> None:
        original_init(self, servers, **options)
        # Django builds a cache (and so a pool) per request context under ASGI; share one per process.
        self._pools = shared.setdefault(tuple(servers), {})

    redis_cache.RedisCacheClient.__init__ = __init__


def _poll_release() -> None:
    from asgiref.sync import sync_to_async

    from bookly_project.db import db_connection_release
    from chat import selectors

    original = selectors.run_aget

    async def run_aget(**kwargs):
        run = await original(**kwargs)
        # Same request thread as the read (thread-sensitive), so this releases that connection.
        await sync_to_async(db_connection_release)()
        return run

    selectors.run_aget = run_aget


def _apply() -> None:
    if "shared_redis_pool" in ENABLED:
        _shared_redis_pool()
    if "poll_release" in ENABLED:
        _poll_release()


LEAN_DROP = (
    "django.middleware.common.CommonMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
)


def _asgi():
    import django
    from django.conf import settings
    from django.core.asgi import get_asgi_application

    django.setup(set_prefix=False)
    if "lean_middleware" in ENABLED:
        settings.MIDDLEWARE = [name for name in settings.MIDDLEWARE if name not in LEAN_DROP]
    handler = get_asgi_application()
    _apply()
    return handler


application = _asgi() if os.environ.get("BENCH_ROLE") == "web" else None
if os.environ.get("BENCH_ROLE") == "worker":
    import django

    django.setup()
    _apply()

__all__ = ["EXPERIMENTS", "app", "application"]

"""Django's ASGI handler, with each request's sync code on a thread kept from earlier requests.

Django enters a fresh asgiref `ThreadSensitiveContext` for every request, so the request's first
sync call (the `request_started` signal, then the view or the ORM) starts a new thread, and the
context's exit joins it. Under load that was the largest single item of the web's CPU after the
ORM: ThreadPoolExecutor.submit, Thread.start and their GIL hand-offs, about a fifth of the
samples (docs/performance.md §9.5). This handler gives each request an idle single-thread
executor from earlier requests instead, through asgiref's own `ThreadSensitiveContext(executor=…)`.
A thread still serves one request at a time, as in a WSGI server's thread pool, so
thread-sensitive code (the ORM's per-thread connection, released at request end as always)
behaves as before.
"""

import inspect
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler

# asgiref 3.13 added the executor argument; without it Django's own handler is used unchanged.
EXECUTOR_SUPPORTED = "executor" in inspect.signature(ThreadSensitiveContext).parameters


class ReusedThreadsASGIHandler(ASGIHandler):
    def __init__(self, *, idle_max: int) -> None:
        super().__init__()
        # First in, first out: an executor handed back last (perhaps still finishing the sync
        # call of a request whose client went away) is lent out last.
        self._idle: deque[ThreadPoolExecutor] = deque()
        self._idle_max = idle_max

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or not EXECUTOR_SUPPORTED:
            return await super().__call__(scope, receive, send)
        executor = self._idle.popleft() if self._idle else ThreadPoolExecutor(1, thread_name_prefix="request")
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            if len(self._idle) < self._idle_max:
                self._idle.append(executor)
            else:
                executor.shutdown(wait=False)

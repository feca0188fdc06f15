"""Request-level middleware: the body-size guard, and Django's own middleware made cheaper under ASGI.

Under ASGI, `MiddlewareMixin` runs every `process_request` / `process_response` hook through
`sync_to_async`: two thread hops per middleware per request, about 0.2 ms of CPU each, so
~17 hops cost 3–4 ms on every request before any view runs (docs/performance.md §4.4, §5).
Most of those hooks only read the request and set headers: they never block. The classes
below run such hooks on the event loop, and keep a thread only for the hooks that can do
I/O (saving a session, storing flash messages). Under WSGI nothing changes.
"""

from asgiref.sync import iscoroutinefunction, sync_to_async
from csp.middleware import CSPMiddleware
from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.middleware.csrf import CsrfViewMiddleware
from django.middleware.security import SecurityMiddleware
from django.utils.deprecation import MiddlewareMixin

from bookly_project.errors import error_response, service_unavailable_response, throttled_response
from bookly_project.limits import client_address, limit_hit


class InlineHooks:
    """Mixin for a MiddlewareMixin middleware whose hooks do no I/O: under ASGI, call them inline.

    `response_may_block` names the exception: when it says so, `process_response` runs in
    a thread as MiddlewareMixin would run it.
    """

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        response = self.process_request(request) if hasattr(self, "process_request") else None
        response = response or await self.get_response(request)
        if not hasattr(self, "process_response"):
            return response
        if self.response_may_block(request):
            return await sync_to_async(self.process_response, thread_sensitive=True)(request, response)
        return self.process_response(request, response)

    def response_may_block(self, request: HttpRequest) -> bool:
        return False


class InlineSecurityMiddleware(InlineHooks, SecurityMiddleware):
    """Django's security headers, plus Permissions-Policy (settings.PERMISSIONS_POLICY)."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        response = super().process_response(request, response)
        if settings.PERMISSIONS_POLICY:
            response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response


class InlineCSPMiddleware(InlineHooks, CSPMiddleware):
    pass


class InlineCommonMiddleware(InlineHooks, CommonMiddleware):
    pass


SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")


class InlineCsrfViewMiddleware(InlineHooks, CsrfViewMiddleware):
    """The CSRF secret lives in the session (CSRF_USE_SESSIONS), and reading it may be I/O.

    Django reads it in `process_request`, which here runs on the event loop. It is read in
    `process_view` instead: Django already runs that hook in a thread, and every view that
    needs the secret (get_token, the check itself) runs after it. The view then finds its
    session loaded, so no request pays an extra thread hop.

    Under ASGI two kinds of request skip that hook's thread hop (about 0.4 ms of CPU each,
    docs/performance.md §9.3), because for them the hook neither checks nor needs the secret:

    * a safe method on a plain async view (the run long-poll, the thread updates): Django
      accepts it unchecked, and those views never hand out a token;
    * an unsafe method on a csrf_exempt view (every DRF view): Django does not check it, and
      DRF's authentication (chat/auth.py) reads the secret and checks it in the view's thread.

    Every other request (admin pages, GET /api/v1/session, which hands out the token) reads
    the secret in the thread as before.
    """

    def __init__(self, get_response) -> None:
        super().__init__(get_response)
        if self.async_mode:
            # Django calls an async process_view directly and wraps a sync one in a thread hop.
            self.process_view = self._process_view_async

    def process_request(self, request: HttpRequest) -> None:
        return None

    def process_view(self, request: HttpRequest, callback, callback_args, callback_kwargs) -> HttpResponse | None:
        return self._secret_read_and_check(request, callback, callback_args, callback_kwargs)

    def _secret_read_and_check(self, request: HttpRequest, callback, callback_args, callback_kwargs):
        super().process_request(request)
        return super().process_view(request, callback, callback_args, callback_kwargs)

    async def _process_view_async(
        self, request: HttpRequest, callback, callback_args, callback_kwargs
    ) -> HttpResponse | None:
        if request.method in SAFE_METHODS and iscoroutinefunction(callback):
            return self._accept(request)
        if request.method not in SAFE_METHODS and getattr(callback, "csrf_exempt", False):
            return None
        return await sync_to_async(self._secret_read_and_check, thread_sensitive=True)(
            request, callback, callback_args, callback_kwargs
        )


class InlineAuthenticationMiddleware(InlineHooks, AuthenticationMiddleware):
    """Only sets a lazy `request.user`; the user is loaded (in a thread) when a view asks."""


class InlineSessionMiddleware(InlineHooks, SessionMiddleware):
    """The session loads lazily in the view's thread; only saving it is I/O, and that keeps its thread.

    A new session (a database row and a cache key) counts against the client address's
    "sessions" limit before it is saved; over the limit the answer is 429 and nothing is saved.
    """

    def response_may_block(self, request: HttpRequest) -> bool:
        session = getattr(request, "session", None)
        return session is not None and (session.modified or settings.SESSION_SAVE_EVERY_REQUEST)

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        session = getattr(request, "session", None)
        if session is not None and session.session_key is None and session.modified and not session.is_empty():
            wait = limit_hit("sessions", session=None, address=client_address(request))
            if wait:
                return throttled_response(wait)
        try:
            return super().process_response(request, response)
        except DatabaseError:
            # The database went away between the view and the session's save: an outage, not a bug.
            return service_unavailable_response()


class InlineMessageMiddleware(InlineHooks, MessageMiddleware):
    """Storing messages may load the session: a thread then (admin pages), inline otherwise."""

    def response_may_block(self, request: HttpRequest) -> bool:
        storage = getattr(request, "_messages", None)
        return storage is not None and (storage.used or storage.added_new)


class InlineXFrameOptionsMiddleware(InlineHooks, XFrameOptionsMiddleware):
    pass


# Total size of the request's headers the app reads. uvicorn itself refuses far larger ones (about
# 1 MB) with a plain-text 400 before the app sees them.
MAX_HEADER_BYTES = 32 * 1024


class BodySizeLimitMiddleware(InlineHooks, MiddlewareMixin):
    """Refuse bodies over DATA_UPLOAD_MAX_MEMORY_SIZE (413) and headers over 32 KiB (431) before anything reads them."""

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        header_bytes = sum(len(key) + len(value) for key, value in request.META.items() if key.startswith("HTTP_"))
        if header_bytes > MAX_HEADER_BYTES:
            return error_response(
                431, "headers_too_large", "The request headers are too large.", {"max_bytes": MAX_HEADER_BYTES}
            )
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return error_response(400, "invalid_content_length", "Content-Length is not a number.")
        if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            return error_response(
                413,
                "payload_too_large",
                "The request body is larger than 64 KiB.",
                {"max_bytes": settings.DATA_UPLOAD_MAX_MEMORY_SIZE},
            )
        return None

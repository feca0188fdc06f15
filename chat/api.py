"""HTTP API v1. Thin views: validate, read through session-scoped selectors, call a service.

Called by the customer's browser; reads through chat/selectors.py; writes through
chat/services.py (threads, messages), chat/runs.py (cancel) and chat/confirmations.py (a
decision). The run-detail long-poll is a plain async view so a waiting client holds no thread.
"""

import asyncio
import hashlib
import json
import re
from uuid import UUID

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.utils.encoders import JSONEncoder as DRFJSONEncoder
from rest_framework.views import APIView

from bookly_project.errors import ApplicationError, error_response
from bookly_project.limits import client_address, limit_hit
from chat import confirmations, handoff, notify, runs, selectors, services
from chat.auth import customer_id_ensure, customer_id_get, session_rotate, session_rotate_for_verified_run
from chat.models import Run, Thread
from chat.schema import (
    LIMIT_PARAMETER,
    MAX_OFFSET,
    RETRY_AFTER,
    WRITE_ERRORS,
    RunDetailSchema,
    ThreadUpdatesSchema,
    errors_documented,
)
from chat.serializers import (
    MESSAGE_STATUS,
    ActionInputSerializer,
    MessageAcceptedSerializer,
    MessageInputSerializer,
    MessagePageSerializer,
    MessageSerializer,
    MessageStatusSerializer,
    RunSerializer,
    ThreadPageSerializer,
    ThreadSerializer,
    message_data,
    message_list_item_data,
    run_data,
    thread_data,
)


class CustomerRateThrottle(BaseThrottle):
    """The view's `throttle_scope` limits (settings.RATE_LIMITS), per session and per client address."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        scope = getattr(view, "throttle_scope", None)
        if scope is None:
            return True
        self._wait = limit_hit(scope, session=customer_id_get(request), address=client_address(request))
        return self._wait == 0

    def wait(self) -> float:
        return self._wait


# Customer data must not stay in a browser's or a proxy's cache.
NO_STORE = "private, no-store"


def query_params_check(request: HttpRequest | Request, allowed: frozenset[str]) -> None:
    """An unknown query parameter is a mistake worth saying (`?limt=5`), not something to ignore."""
    params = request.query_params if isinstance(request, Request) else request.GET
    if not allowed.issuperset(params):
        raise ApplicationError(
            "invalid_input",
            "The request has a query parameter this endpoint does not take.",
            details={"allowed_query_parameters": sorted(allowed)},
        )


class BaseApi(APIView):
    throttle_classes = [CustomerRateThrottle]
    throttle_scope: str | None = None
    # Query parameters each method takes; any other is a 400.
    query_params: dict[str, frozenset[str]] = {}

    def initial(self, request: Request, *args, **kwargs) -> None:
        super().initial(request, *args, **kwargs)
        query_params_check(request, self.query_params.get(request.method, frozenset()))

    def finalize_response(self, request: Request, response: Response, *args, **kwargs) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        response.headers.setdefault("Cache-Control", NO_STORE)
        return response


# Whole numbers as a client types them: ASCII digits only (str.isdigit() also accepts "¹" and
# "①", which int() refuses), and few enough of them that int() and the database take them.
_WHOLE_NUMBER = re.compile(r"[0-9]{1,9}")


def _whole_number_param(request: Request, name: str, *, default: int, maximum: int, minimum: int = 0) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not _WHOLE_NUMBER.fullmatch(raw) or not minimum <= int(raw) <= maximum:
        raise ApplicationError(
            "invalid_input",
            f"{name} must be a whole number from {minimum} to {maximum}.",
            details={"fields": {name: [f"Must be {minimum} to {maximum}."]}},
        )
    return int(raw)


def _page_params(request: Request, default: int = 50, maximum: int = 100) -> int:
    return _whole_number_param(request, "limit", default=default, minimum=1, maximum=maximum)


class SessionApi(BaseApi):
    @extend_schema(
        responses={
            200: inline_serializer("Session", {"csrf_token": serializers.CharField()}),
            **errors_documented(400, 429, 503),
        },
        parameters=[RETRY_AFTER],
    )
    def get(self, request: Request) -> Response:
        """Start (or continue) the anonymous session and hand out the CSRF token."""
        customer_id_ensure(request)
        return Response({"csrf_token": get_token(request)})


class ThreadListCreateApi(BaseApi):
    query_params = {"GET": frozenset({"limit", "offset"})}

    def get_throttles(self):
        self.throttle_scope = "threads" if self.request.method == "POST" else None
        return super().get_throttles()

    @extend_schema(
        operation_id="threads_list",
        responses={200: ThreadPageSerializer, **errors_documented(400, 503)},
        parameters=[
            LIMIT_PARAMETER,
            OpenApiParameter("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET}),
        ],
    )
    def get(self, request: Request) -> Response:
        limit = _page_params(request)
        offset = _whole_number_param(request, "offset", default=0, maximum=MAX_OFFSET)
        threads = list(selectors.threads_for_owner(owner=customer_id_get(request))[offset : offset + limit + 1])
        return Response(
            {
                "results": [thread_data(thread) for thread in threads[:limit]],
                "has_more": len(threads) > limit,
            }
        )

    @extend_schema(
        request=None,
        responses={201: ThreadSerializer, **errors_documented(*WRITE_ERRORS, 429)},
        parameters=[RETRY_AFTER],
    )
    def post(self, request: Request) -> Response:
        thread = services.thread_create(owner=customer_id_ensure(request))
        session_rotate(request)
        return Response(thread_data(thread), status=status.HTTP_201_CREATED)


class ThreadDetailApi(BaseApi):
    @extend_schema(responses={200: ThreadSerializer, **errors_documented(400, 404, 503)})
    def get(self, request: Request, thread_id: UUID) -> Response:
        thread = selectors.thread_get(owner=customer_id_get(request), thread_id=thread_id)
        return Response(thread_data(thread))


IDEMPOTENCY_KEY = re.compile(r"[\x20-\x7e]{1,255}")


def _fingerprint(request: Request, thread_id: UUID) -> str:
    """What makes two requests 'the same' for Idempotency-Key: target and parsed body."""
    canonical = json.dumps({"thread": str(thread_id), "body": request.data}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


class MessageListCreateApi(BaseApi):
    query_params = {"GET": frozenset({"limit", "after"})}

    def get_throttles(self):
        self.throttle_scope = "messages" if self.request.method == "POST" else None
        return super().get_throttles()

    @extend_schema(
        operation_id="threads_messages_list",
        responses={200: MessagePageSerializer, **errors_documented(400, 404, 503)},
        parameters=[OpenApiParameter("after", UUID), LIMIT_PARAMETER],
    )
    def get(self, request: Request, thread_id: UUID) -> Response:
        """Messages of a thread, oldest first; `?after=<message_id>` continues a page."""
        thread = selectors.thread_get(owner=customer_id_get(request), thread_id=thread_id)
        limit = _page_params(request)
        after = None
        if "after" in request.query_params:
            try:
                after_id = UUID(request.query_params["after"])
            except ValueError:
                raise ApplicationError(
                    "invalid_input", "after must be a message id.", details={"fields": {"after": ["Must be a UUID."]}}
                ) from None
            after = selectors.message_get(thread=thread, message_id=after_id)
        messages = selectors.messages_list(thread=thread, after=after, limit=limit)
        page = messages[:limit]
        decided = selectors.decided_actions(messages=page)
        results = [message_list_item_data(message, decided.get(message.id)) for message in page]
        return Response({"results": results, "has_more": len(messages) > limit})

    @extend_schema(
        request=MessageInputSerializer,
        responses={
            202: OpenApiResponse(
                MessageAcceptedSerializer,
                description="Accepted. `Location` is the run's status_url; `Idempotent-Replayed: true` on a replay.",
            ),
            **errors_documented(*WRITE_ERRORS, 404, 409, 422, 429),
        },
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                {"type": "string", "minLength": 1, "maxLength": 255, "pattern": f"^{IDEMPOTENCY_KEY.pattern}$"},
                OpenApiParameter.HEADER,
                description="1 to 255 printable ASCII characters. The same key with the same body answers the first "
                "202 again (nothing is stored twice); with another body it is 422; while the first is "
                "still being processed, 409.",
            ),
            OpenApiParameter(
                "Location", str, OpenApiParameter.HEADER, required=True, response=[202], description="The status_url."
            ),
            OpenApiParameter(
                "Idempotent-Replayed", str, OpenApiParameter.HEADER, response=[202], description='"true" on a replay.'
            ),
            RETRY_AFTER,
        ],
    )
    def post(self, request: Request, thread_id: UUID) -> Response:
        """Accept a customer message: 202 at once; the reply arrives on the run (status_url)."""
        data = MessageInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        key = request.headers.get("Idempotency-Key")
        if key is not None and not IDEMPOTENCY_KEY.fullmatch(key):
            raise ApplicationError(
                "invalid_idempotency_key", "Idempotency-Key must be 1 to 255 printable ASCII characters."
            )
        # The thread's ownership is checked by the same statement that locks it (services).
        result = services.message_post(
            owner=customer_id_get(request),
            thread_id=thread_id,
            content=data.validated_data["content"],
            idempotency_key=key,
            fingerprint=_fingerprint(request, thread_id) if key else "",
        )
        status_url = request.build_absolute_uri(reverse("run-detail", args=[result.run.id]))
        body = {
            "message": message_data(result.message),
            "run": run_data(result.run),
            "status_url": status_url,
            "poll_after_ms": settings.POLL_AFTER_MS,
        }
        headers = {"Location": status_url}
        if result.replayed:
            headers["Idempotent-Replayed"] = "true"
        return Response(body, status=status.HTTP_202_ACCEPTED, headers=headers)


class MessageStatusApi(BaseApi):
    @extend_schema(responses={200: MessageStatusSerializer, **errors_documented(400, 404, 503)})
    def get(self, request: Request, thread_id: UUID, message_id: UUID) -> Response:
        """Poll by message id: processing | requires_action | completed | error."""
        thread = selectors.thread_get(owner=customer_id_get(request), thread_id=thread_id)
        message = selectors.message_get(thread=thread, message_id=message_id)
        run = selectors.run_for_message(message=message)
        if run is None:
            raise ApplicationError("not_found", "That message is not a customer message.", status=404)
        if run.verified_customer:
            session_rotate_for_verified_run(request, str(run.id))  # as the long-poll does (run_detail)
        shown = run_data(run)
        return Response(
            {
                "status": MESSAGE_STATUS[run.status],
                "run_id": shown["id"],
                "user_message": shown["user_message"],
                "assistant_message": shown["assistant_message"],
                "required_action": shown["required_action"],
                "error": shown["error"],
            }
        )


class RunCancelApi(BaseApi):
    @extend_schema(request=None, responses={200: RunSerializer, **errors_documented(*WRITE_ERRORS, 404)})
    def post(self, request: Request, run_id: UUID) -> Response:
        """Cancel a run: queued ends now, in_progress ends at its next step; finished runs are unchanged."""
        run = selectors.run_get(owner=customer_id_get(request), run_id=run_id)
        return Response(run_data(runs.run_cancel(run=run)))


class RunActionApi(BaseApi):
    @extend_schema(
        request=ActionInputSerializer, responses={202: RunSerializer, **errors_documented(*WRITE_ERRORS, 404, 409, 410)}
    )
    def post(self, request: Request, run_id: UUID, action_id: UUID) -> Response:
        """The customer's Confirm / Cancel on a pending return. 202: the run resumes for the reply."""
        run = selectors.run_get(owner=customer_id_get(request), run_id=run_id)
        data = ActionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        run = confirmations.action_decide(run=run, action_id=action_id, decision=data.validated_data["decision"])
        return Response(run_data(selectors.run_with_action(run)), status=status.HTTP_202_ACCEPTED)


# --- The long-poll: a plain async view -------------------------------------------------


RUN_DETAIL_QUERY = frozenset({"wait"})
THREAD_UPDATES_QUERY = frozenset({"after", "wait"})


def _parse_wait(raw: str | None) -> float:
    if raw is None:
        return 0.0
    try:
        wait = float(raw)
    except ValueError:
        wait = -1.0
    if not 0 <= wait <= settings.LONG_POLL_MAX_SECONDS:
        raise ApplicationError(
            "invalid_input",
            f"wait must be a number of seconds from 0 to {settings.LONG_POLL_MAX_SECONDS}.",
            details={"fields": {"wait": [f"Must be 0 to {settings.LONG_POLL_MAX_SECONDS}."]}},
        )
    return wait


def _customer_run(request: HttpRequest, run_id: UUID) -> tuple[str | None, Run | None]:
    """The session's customer and their run, read in one thread hop (sessions load synchronously)."""
    owner = customer_id_get(request)
    return owner, selectors.run_read_and_release(owner=owner, run_id=run_id)


def _run_rendered(run: Run) -> tuple[bytes, str]:
    """The run's JSON body and its ETag."""
    body = json.dumps(run_data(run), cls=DRFJSONEncoder).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def _if_none_match(request: HttpRequest) -> list[str]:
    return [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",") if tag.strip()]


async def _run_wait(request: HttpRequest, run_id: UUID, wait: float) -> Run | None:
    """Hold until the run stops waiting or shows a new progress step.

    With If-None-Match, "new" is measured against the client's copy (so a step set between two
    polls is not missed) and any change returns; without it, against the run's first read here.
    """
    if wait <= 0:
        return (await sync_to_async(_customer_run)(request, run_id))[1]
    seen = _if_none_match(request)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait

    async with notify.run_watch(run_id) as watch:
        owner, run = await sync_to_async(_customer_run)(request, run_id)
        first_step = run.progress if run is not None else ""

        def unchanged(run: Run | None) -> bool:
            if run is None or run.status not in Run.WAITING:
                return False
            return _run_rendered(run)[1] in seen if seen else run.progress == first_step

        while unchanged(run) and (remaining := deadline - loop.time()) > 0:
            await watch.wait(remaining)
            run = await selectors.run_aget(owner=owner, run_id=run_id)
    return run


async def run_detail(request: HttpRequest, run_id: UUID) -> HttpResponse:
    """GET a run; `?wait=N` (0–30 s) holds the request while the run is queued, in progress or
    awaiting approval, until it settles or shows a new progress step (with If-None-Match: until it
    differs from that copy)."""
    if request.method not in ("GET", "HEAD"):
        response = error_response(405, "method_not_allowed", f'Method "{request.method}" not allowed.')
        response["Allow"] = "GET, HEAD"
        return response
    try:
        query_params_check(request, RUN_DETAIL_QUERY)
        wait = _parse_wait(request.GET.get("wait"))
    except ApplicationError as error:
        return error_response(error.status, error.code, error.message, error.details)
    try:
        run = await _run_wait(request, run_id, wait)
    except DatabaseError:
        return error_response(503, "service_unavailable", "The service is busy; please try again shortly.")
    if run is None:
        return error_response(404, "not_found", "Run not found.")
    if run.verified_customer:
        # The customer proved an order id + email in this run: from now on the session shows
        # order details, so the id it had before (possibly planted or seen) stops working.
        await sync_to_async(session_rotate_for_verified_run)(request, str(run.id))
    body, etag = _run_rendered(run)
    # no-store: nothing kept in caches; a client that keeps the ETag itself still gets 304s.
    headers = {"ETag": etag, "Cache-Control": NO_STORE}
    if etag in _if_none_match(request):
        return HttpResponse(status=304, headers=headers)
    return HttpResponse(body, content_type="application/json", headers=headers)


# drf-spectacular documents any URL whose view has a DRF `cls`; run_detail serves, this describes.
run_detail.cls = RunDetailSchema
run_detail.initkwargs = {}


# --- Handoff to a person, and what the page waits on meanwhile ------------------------------


class ThreadHandoffApi(BaseApi):
    @extend_schema(
        request=None,
        responses={
            200: inline_serializer(
                "HandoffAccepted", {"thread": ThreadSerializer(), "message": MessageSerializer(allow_null=True)}
            ),
            **errors_documented(*WRITE_ERRORS, 404),
        },
    )
    def post(self, request: Request, thread_id: UUID) -> Response:
        """Ask for a person. Idempotent: once handed off, `message` (the notice) is null."""
        thread = selectors.thread_get(owner=customer_id_get(request), thread_id=thread_id)
        message = handoff.thread_handoff(thread=thread, reason=Thread.HandoffReason.CUSTOMER_ASKED)
        thread.refresh_from_db()
        return Response({"thread": thread_data(thread), "message": message_data(message)})


def _customer_updates(request: HttpRequest, thread_id: UUID, after: UUID | None) -> dict | None:
    """The session's thread and its new messages, rendered, in one thread hop; None if not theirs."""
    owner = customer_id_get(request)
    found = selectors.thread_updates_read_and_release(owner=owner, thread_id=thread_id, after_id=after)
    if found is None:
        return None
    thread, messages = found
    return {"thread": thread_data(thread), "messages": [message_data(message) for message in messages]}


async def thread_updates(request: HttpRequest, thread_id: UUID) -> HttpResponse:
    """The thread and its messages after `after`; `?wait=N` (0–30 s) holds while a handed-off thread
    has nothing new, so staff replies reach the page as soon as they are written."""
    if request.method not in ("GET", "HEAD"):
        response = error_response(405, "method_not_allowed", f'Method "{request.method}" not allowed.')
        response["Allow"] = "GET, HEAD"
        return response
    try:
        query_params_check(request, THREAD_UPDATES_QUERY)
        wait = _parse_wait(request.GET.get("wait"))
        after = _parse_after(request.GET.get("after"))
    except ApplicationError as error:
        return error_response(error.status, error.code, error.message, error.details)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    try:
        async with notify.run_watch(thread_id) as watch:
            updates = await sync_to_async(_customer_updates)(request, thread_id, after)
            while (
                updates is not None
                and updates["thread"]["handoff"] is not None
                and not updates["messages"]
                and (remaining := deadline - loop.time()) > 0
            ):
                await watch.wait(remaining)
                updates = await sync_to_async(_customer_updates)(request, thread_id, after)
    except DatabaseError:
        return error_response(503, "service_unavailable", "The service is busy; please try again shortly.")
    if updates is None:
        return error_response(404, "not_found", "Thread not found.")
    body = json.dumps(updates, cls=DRFJSONEncoder).encode()
    return HttpResponse(body, content_type="application/json", headers={"Cache-Control": NO_STORE})


def _parse_after(raw: str | None) -> UUID | None:
    if raw is None:
        return None
    try:
        return UUID(raw)
    except ValueError:
        raise ApplicationError(
            "invalid_input", "after must be a message id.", details={"fields": {"after": ["Must be a UUID."]}}
        ) from None


# As for run_detail: drf-spectacular documents the async view through a DRF stand-in.
thread_updates.cls = ThreadUpdatesSchema
thread_updates.initkwargs = {}

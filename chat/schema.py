"""What the OpenAPI schema says beyond what drf-spectacular reads from the views (chat/api.py).

The error answers of each operation, shared parameters, and the description of run_detail,
the async long-poll view that drf-spectacular cannot see on its own.
"""

from uuid import UUID

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chat.serializers import ErrorSerializer, MessageSerializer, RunSerializer, ThreadSerializer

MAX_OFFSET = 1_000_000  # the largest `offset` a list takes

_ERROR_MEANINGS = {
    400: "Invalid input: the body, a query parameter or a header (invalid_input, invalid_json, too_many_fields, ...).",
    403: "CSRF check failed (csrf_failed): get a token from GET /api/v1/session, send it as X-CSRFToken.",
    404: "Not found, or not this session's (the two look the same).",
    409: "Conflicts with the current state (thread_closed, idempotency_in_progress, action_already_decided, ...).",
    410: "The confirmation expired (confirmation_expired).",
    413: "The body is larger than 64 KiB (payload_too_large).",
    415: "The body is not JSON (unsupported_media_type).",
    422: "The Idempotency-Key was used with a different body (idempotency_key_reused).",
    431: "The request headers are larger than 32 KiB (headers_too_large).",
    429: "Too many requests (throttled); `Retry-After` says when to try again.",
    503: "Briefly unavailable (service_unavailable, storage_unavailable); nothing was stored. Retry.",
}
WRITE_ERRORS = (400, 403, 413, 415, 503)
LIMIT_PARAMETER = OpenApiParameter(
    "limit", {"type": "integer", "minimum": 1, "maximum": 100}, description="Default 50."
)
RETRY_AFTER = OpenApiParameter(
    "Retry-After", int, OpenApiParameter.HEADER, required=True, response=[429], description="Seconds to wait."
)


def errors_documented(*statuses: int) -> dict[int, OpenApiResponse]:
    """Schema responses in the error shape for these statuses, and 431 (any request may carry too many headers)."""
    return {code: OpenApiResponse(ErrorSerializer, description=_ERROR_MEANINGS[code]) for code in (*statuses, 431)}


class RunDetailSchema(APIView):
    """What the schema says about run_detail: drf-spectacular only sees DRF views, this one is async."""

    @extend_schema(
        operation_id="runs_retrieve",
        description="GET a run; `wait` holds the request until the run leaves queued/in_progress.",
        responses={
            200: OpenApiResponse(RunSerializer, description="The run. `ETag` names this state of it."),
            304: OpenApiResponse(description="Unchanged since the `If-None-Match` ETag."),
            **errors_documented(400, 404, 503),
        },
        parameters=[
            OpenApiParameter(
                "wait",
                {"type": "number", "minimum": 0, "maximum": settings.LONG_POLL_MAX_SECONDS},
                description="Seconds to hold the request while the run is queued or in_progress; it answers as "
                "soon as the run moves on.",
            ),
            OpenApiParameter(
                "If-None-Match", str, OpenApiParameter.HEADER, description="An earlier ETag: 304 if unchanged."
            ),
            OpenApiParameter(
                "ETag", str, OpenApiParameter.HEADER, required=True, response=[200, 304], description="This state."
            ),
        ],
    )
    def get(self, request: Request, run_id: UUID) -> Response:
        raise NotImplementedError("served by run_detail")


class ThreadUpdatesSchema(APIView):
    """What the schema says about thread_updates (async, like run_detail)."""

    @extend_schema(
        operation_id="threads_updates_retrieve",
        description="The thread and its messages after `after`; `wait` holds the request while a handed-off "
        "thread has nothing new, so a staff reply reaches the page as soon as it is written.",
        responses={
            200: inline_serializer(
                "ThreadUpdates", {"thread": ThreadSerializer(), "messages": MessageSerializer(many=True)}
            ),
            **errors_documented(400, 404, 503),
        },
        parameters=[
            OpenApiParameter("after", UUID, description="The last message id the page has."),
            OpenApiParameter(
                "wait",
                {"type": "number", "minimum": 0, "maximum": settings.LONG_POLL_MAX_SECONDS},
                description="Seconds to hold the request while a handed-off thread has nothing new.",
            ),
        ],
    )
    def get(self, request: Request, thread_id: UUID) -> Response:
        raise NotImplementedError("served by thread_updates")

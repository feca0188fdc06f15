"""One error type and one error shape for every response.

`{"error": {"code": "snake_case_code", "message": "human sentence", "details": {...}}}`
"""

import logging
import math
from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent
from django.db import DatabaseError, DataError
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

logger = logging.getLogger(__name__)


class ApplicationError(Exception):
    """A failure the client should see, with a stable code and HTTP status."""

    def __init__(self, code: str, message: str, *, status: int = 400, details: dict | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.details = details or {}


def not_found_error(what: str) -> ApplicationError:
    """The 404 for a row that is missing or not the caller's: the two look the same on purpose."""
    return ApplicationError("not_found", f"{what} not found.", status=404)


def error_body(code: str, message: str, details: dict | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def error_response(status: int, code: str, message: str, details: dict | None = None) -> JsonResponse:
    return JsonResponse(error_body(code, message, details), status=status)


SERVICE_UNAVAILABLE = ("service_unavailable", "The service is busy; please try again shortly.")


def service_unavailable_response() -> JsonResponse:
    """The 503 of an outage (database away, pool exhausted): the client may retry shortly."""
    response = error_response(503, *SERVICE_UNAVAILABLE)
    response["Retry-After"] = "1"
    return response


def throttled_response(wait: int) -> JsonResponse:
    """429 outside DRF, as DRF's Throttled answers inside it."""
    response = error_response(
        429,
        "throttled",
        f"Too many requests; try again in {wait} seconds.",
        {"retry_after_seconds": wait},
    )
    response["Retry-After"] = str(wait)
    return response


# DRF exception class → our code. Anything else keeps its own default_code.
_DRF_CODES = {
    drf_exceptions.ValidationError: "invalid_input",
    drf_exceptions.ParseError: "invalid_json",
    drf_exceptions.UnsupportedMediaType: "unsupported_media_type",
    drf_exceptions.MethodNotAllowed: "method_not_allowed",
    drf_exceptions.NotFound: "not_found",
    drf_exceptions.Throttled: "throttled",
    drf_exceptions.NotAcceptable: "not_acceptable",
    drf_exceptions.PermissionDenied: "forbidden",
    drf_exceptions.NotAuthenticated: "forbidden",
    drf_exceptions.AuthenticationFailed: "forbidden",
}

# Our own words for errors whose DRF message repeats what the client sent (a media type, a
# method): client input is never echoed back, it may not even be encodable.
_FIXED_MESSAGES = {
    drf_exceptions.UnsupportedMediaType: "Send the body as JSON (Content-Type: application/json).",
    drf_exceptions.MethodNotAllowed: "This method is not allowed here.",
    drf_exceptions.ParseError: "The request body is not valid JSON.",
}


def _client_error(exc: Exception) -> tuple[int, str, str] | None:
    """(status, code, message) for Django's exceptions that mean the request itself is bad."""
    if isinstance(exc, RequestDataTooBig):
        return 413, "payload_too_large", "The request body is larger than 64 KiB."
    if isinstance(exc, TooManyFieldsSent):
        return 400, "too_many_fields", "The request has too many query or form fields."
    if isinstance(exc, SuspiciousOperation):
        return 400, "bad_request", "The request could not be understood."
    if isinstance(exc, DataError):
        # The database refused a value (an integer out of range): the input's fault, not an outage.
        return 400, "invalid_input", "A value in the request is out of range."
    return None


def _flatten_details(detail: Any) -> Any:
    """ValidationError details as plain strings: {"content": ["This field is required."]}."""
    if isinstance(detail, dict):
        return {key: _flatten_details(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_flatten_details(item) for item in detail]
    return str(detail)


def api_exception_handler(exc: Exception, context: dict) -> Response:
    """DRF's EXCEPTION_HANDLER: every API error in the one shape; never a stack trace."""
    if isinstance(exc, ApplicationError):
        return Response(error_body(exc.code, exc.message, exc.details), status=exc.status)
    if client_error := _client_error(exc):
        status, code, message = client_error
        return Response(error_body(code, message), status=status)
    if isinstance(exc, DatabaseError):
        # Pool exhausted or the database away: the client may retry; never a 500 with a trace.
        logger.warning("database unavailable in %s: %s", context.get("view").__class__.__name__, type(exc).__name__)
        return Response(error_body(*SERVICE_UNAVAILABLE), status=503, headers={"Retry-After": "1"})
    if isinstance(exc, Http404):
        exc = drf_exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = drf_exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None:
        logger.exception("unhandled API error in %s", context.get("view").__class__.__name__)
        return Response(error_body("internal_error", "Something went wrong on our side."), status=500)

    # Exact type first, so subclasses with their own default_code (csrf_failed) keep it.
    code = _DRF_CODES.get(type(exc)) or getattr(exc, "default_code", "error")
    details: dict[str, Any] = {}
    if isinstance(exc, drf_exceptions.ValidationError):
        message = "The request is not valid."
        details = {"fields": _flatten_details(exc.detail)}
        if not isinstance(exc.detail, dict):
            details = {"fields": {"non_field_errors": _flatten_details(exc.detail)}}
    elif type(exc) in _FIXED_MESSAGES:
        message = _FIXED_MESSAGES[type(exc)]
    else:
        message = str(exc.detail) if hasattr(exc, "detail") else str(exc)
    if isinstance(exc, drf_exceptions.Throttled) and exc.wait is not None:
        details["retry_after_seconds"] = math.ceil(exc.wait)
    response.data = error_body(code, message, details)
    return response


# --- Django-level handlers (outside DRF) -------------------------------------------------


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return error_response(404, "not_found", "Not found.")


def server_error(request: HttpRequest) -> JsonResponse:
    return error_response(500, "internal_error", "Something went wrong on our side.")


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    if client_error := _client_error(exception):
        return error_response(*client_error)
    return error_response(400, "bad_request", "The request could not be understood.")


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return error_response(403, "forbidden", "You are not allowed to do that.")


def csrf_failure(request: HttpRequest, reason: str = "") -> JsonResponse:
    return error_response(
        403,
        "csrf_failed",
        "CSRF check failed: call GET /api/v1/session first and send its token in the X-CSRFToken header.",
    )

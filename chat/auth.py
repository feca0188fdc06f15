"""Who the customer is: an opaque id kept in their (anonymous) Django session."""

import secrets

from django.http import HttpRequest, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, CSRFCheck
from rest_framework.request import Request

CUSTOMER_SESSION_KEY = "bookly_customer"
# The run whose verification last rotated the session id (so a re-read does not rotate again).
ROTATED_FOR_RUN_KEY = "bookly_rotated_for_run"


def customer_id_get(request: HttpRequest) -> str | None:
    """The caller's customer id, or None if their session has none yet."""
    return request.session.get(CUSTOMER_SESSION_KEY)


def customer_id_ensure(request: HttpRequest) -> str:
    """The caller's customer id, creating one (and so the session) on first use."""
    customer_id = request.session.get(CUSTOMER_SESSION_KEY)
    if customer_id is None:
        customer_id = secrets.token_urlsafe(24)
        request.session[CUSTOMER_SESSION_KEY] = customer_id
    return customer_id


def session_rotate(request: HttpRequest) -> None:
    """A new session id with the same contents (customer id, CSRF secret); the old id stops working.

    Called when the session gains something worth stealing (a thread, a verified customer), so
    a session id planted or seen before that moment is useless after it.
    """
    request.session.cycle_key()
    # cycle_key stores the new key empty and fills it only when the response saves the session:
    # save the contents (customer id, CSRF secret) now, so the next request finds them whatever
    # order the response and the save complete in.
    request.session.save()


def session_rotate_for_verified_run(request: HttpRequest, run_id: str) -> None:
    """Rotate once per run that verified the customer (an order id + email matched)."""
    if request.session.get(ROTATED_FOR_RUN_KEY) != run_id:
        session_rotate(request)
        request.session[ROTATED_FOR_RUN_KEY] = run_id


def _has_body(request: HttpRequest) -> bool:
    return request.META.get("CONTENT_LENGTH", "") not in ("", "0") or "HTTP_TRANSFER_ENCODING" in request.META


class CustomerSessionAuthentication(BaseAuthentication):
    """Enforces Django's CSRF check on unsafe methods for anonymous session customers.

    DRF's own SessionAuthentication only checks CSRF for logged-in users; our customers
    are never logged in, so without this their POSTs would be CSRF-exempt.
    """

    def authenticate(self, request: Request) -> None:
        if request.method not in ("GET", "HEAD", "OPTIONS", "TRACE"):
            # The API reads only JSON. Any other body is refused before the CSRF check,
            # which would otherwise parse a form or multipart body out of it.
            if _has_body(request._request) and request.content_type.split(";")[0].strip().lower() != "application/json":
                raise exceptions.UnsupportedMediaType("")
            check = CSRFCheck(lambda req: None)
            try:
                check.process_request(request._request)
                reason = check.process_view(request._request, None, (), {})
            except (MultiPartParserError, UnreadablePostError) as error:
                raise exceptions.ParseError() from error
            if reason:
                raise CsrfFailed()
        return None


class CsrfFailed(exceptions.PermissionDenied):
    default_code = "csrf_failed"
    default_detail = "CSRF check failed: call GET /api/v1/session first and send its token in the X-CSRFToken header."

"""Who the customer is: an opaque id kept in their (anonymous) Django session."""

import secrets

from django.http import HttpRequest
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, CSRFCheck
from rest_framework.request import Request

CUSTOMER_SESSION_KEY = "bookly_customer"


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


class CustomerSessionAuthentication(BaseAuthentication):
    """Enforces Django's CSRF check on unsafe methods for anonymous session customers.

    DRF's own SessionAuthentication only checks CSRF for logged-in users; our customers
    are never logged in, so without this their POSTs would be CSRF-exempt.
    """

    def authenticate(self, request: Request) -> None:
        if request.method not in ("GET", "HEAD", "OPTIONS", "TRACE"):
            check = CSRFCheck(lambda req: None)
            check.process_request(request._request)
            reason = check.process_view(request._request, None, (), {})
            if reason:
                raise CsrfFailed()
        return None


class CsrfFailed(exceptions.PermissionDenied):
    default_code = "csrf_failed"
    default_detail = "CSRF check failed: call GET /api/v1/session first and send its token in the X-CSRFToken header."

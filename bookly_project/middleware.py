"""Request-level guards that must answer before any view runs."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin

from bookly_project.errors import error_response


class BodySizeLimitMiddleware(MiddlewareMixin):
    """Refuse bodies over DATA_UPLOAD_MAX_MEMORY_SIZE with 413 before anything reads them.

    MiddlewareMixin keeps it async-capable, so long-poll views stay off threads.
    """

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
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

"""The customer's chat page. Called by the browser at `/`; the page then talks to chat/api.py.

The template holds no inline script or style: configuration travels in data- attributes,
so the strict Content-Security-Policy (settings: CONTENT_SECURITY_POLICY) applies in full.
"""

import uuid

from csp.decorators import csp_update
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

# The chat page never builds HTML from strings, so the browser may forbid it outright:
# with Trusted Types enforced, an accidental `innerHTML = data` throws instead of rendering.
# (Only here: the Django admin's own scripts still assign innerHTML.)
TRUSTED_TYPES = {"require-trusted-types-for": ["'script'"], "trusted-types": ["'none'"]}


@require_safe
@csp_update(TRUSTED_TYPES)
def index(request: HttpRequest) -> HttpResponse:
    """The chat page: start or resume a conversation. Labels the offline demo model as such."""
    context = {
        "offline_demo": settings.BOOKLY_LLM == "offline",
        "api": {
            "session": reverse("session"),
            "threads": reverse("thread-list"),
            # The page appends "/<run_id>" (and "/actions/<action_id>") to this prefix.
            "runs": reverse("run-detail", args=[uuid.UUID(int=0)]).rsplit("/", 1)[0],
            "message_max_chars": settings.MESSAGE_MAX_CHARS,
        },
    }
    response = render(request, "chat/index.html", context)
    response["Cache-Control"] = "no-cache"
    return response

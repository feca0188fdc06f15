"""The model behind one small interface: a Messages API request in, a response dict out.

The only module that imports the provider SDK. `get_model()` picks the backend from
BOOKLY_LLM. Called by chat/agent.py.
"""

import functools
import logging
from typing import Protocol

import anthropic
from django.conf import settings

logger = logging.getLogger(__name__)


class ModelError(Exception):
    """The model could not answer. `code` is what the run records and the client sees."""

    def __init__(self, code: str, message: str, *, retryable: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retryable = retryable


class Model(Protocol):
    name: str

    def complete(self, request: dict) -> dict:
        """Send a Messages API request body; return the response as a plain dict."""


class AnthropicModel:
    """The real Claude, through the official SDK.

    The SDK reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL itself. Its defaults (a 600 s
    read timeout and blind retries) do not fit a worker, so both are set explicitly.
    """

    def __init__(self) -> None:
        self.name = settings.ANTHROPIC_MODEL
        self.client = anthropic.Anthropic(
            timeout=anthropic.Timeout(
                settings.ANTHROPIC_TIMEOUT_SECONDS, connect=settings.ANTHROPIC_CONNECT_TIMEOUT_SECONDS
            ),
            max_retries=settings.ANTHROPIC_MAX_RETRIES,
        )

    def complete(self, request: dict) -> dict:
        try:
            message = self.client.messages.create(**request)
        except anthropic.APITimeoutError as error:
            raise ModelError("timeout", "The model did not answer in time.", retryable=True) from error
        except anthropic.APIConnectionError as error:
            raise ModelError("model_unavailable", "The model service could not be reached.", retryable=True) from error
        except anthropic.APIStatusError as error:
            raise _status_error(error) from error
        return message.to_dict(mode="json")


_STATUS_CODES = {
    400: ("model_bad_request", "The model service rejected the request."),
    401: ("model_auth_failed", "The model service rejected our API key."),
    403: ("model_forbidden", "The model service refused access."),
    404: ("model_not_found", "The configured model does not exist."),
    413: ("model_bad_request", "The request was too large for the model service."),
}


def _status_error(error: anthropic.APIStatusError) -> ModelError:
    status = error.status_code
    if status in _STATUS_CODES:
        code, message = _STATUS_CODES[status]
        return ModelError(code, message)
    if status == 429 or status == 529 or status >= 500:
        return ModelError("model_unavailable", "The model service is busy or down.", retryable=True)
    return ModelError("model_error", f"The model service answered with HTTP {status}.")


@functools.cache
def get_model() -> Model:
    """The configured backend, one per process (the SDK client is thread-safe)."""
    if settings.BOOKLY_LLM == "anthropic":
        return AnthropicModel()
    from chat.offline_model import OfflineModel

    return OfflineModel()

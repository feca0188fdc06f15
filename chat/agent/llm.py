"""The model behind one small interface: a Messages API request in, a response dict out.

The only module that imports the provider SDK. `get_model()` picks the backend from
BOOKLY_LLM. Called by the agent loop (chat/agent/loop.py) and the reply step's second
opinion (chat/agent/reply.py).

The anthropic backend on a bad day: one retry policy (ours; the SDK's is off) retries
429, 529, other 5xx, connection errors and timeouts with exponential backoff and full
jitter, honouring `retry-after-ms` / `retry-after` up to a cap, and never waits past the
caller's deadline or the per-call budget. A circuit breaker shared through Redis
(chat/agent/breaker.py) refuses calls at once while the service is known to be down.

Prompt caching: on a copy of the request, `cache_control: {"type": "ephemeral"}` goes on
the last system block, the last tool and the last content block of the last message,
never more than four breakpoints in all (those already present count). `system` may be
a string or a list of text blocks. A system block marked `"bookly_uncached": true` (a
per-turn reminder after the cached prompt) gets no breakpoint; the breakpoint goes on
the last unmarked block, and the private marker is stripped before sending.
"""

import email.utils
import functools
import logging
import random
import time
from dataclasses import dataclass
from typing import Protocol

import anthropic
import httpx2
from django.conf import settings

from chat.agent.breaker import Permit, breaker_for

logger = logging.getLogger(__name__)

UNCACHED_MARKER = "bookly_uncached"
_MAX_BREAKPOINTS = 4  # the Messages API refuses a request with more
_UNCACHEABLE_BLOCKS = {"thinking", "redacted_thinking"}


class ModelError(Exception):
    """The model could not answer. `code` is what the run records and the client sees."""

    def __init__(self, code: str, message: str, *, retryable: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retryable = retryable


class Model(Protocol):
    name: str

    def complete(self, request: dict, *, deadline: float | None = None) -> dict:
        """Send a Messages API request body; return the response as a plain dict; raise ModelError."""


@dataclass(frozen=True)
class RetryPolicy:
    """How long and how often one `complete()` call may retry."""

    max_attempts: int
    base_seconds: float
    max_seconds: float
    retry_after_cap_seconds: float
    call_budget_seconds: float

    @classmethod
    def from_settings(cls) -> "RetryPolicy":
        """The policy configured by the MODEL_RETRY_* settings."""
        return cls(
            max_attempts=max(1, settings.MODEL_RETRY_MAX_ATTEMPTS),
            base_seconds=settings.MODEL_RETRY_BASE_SECONDS,
            max_seconds=settings.MODEL_RETRY_MAX_SECONDS,
            retry_after_cap_seconds=settings.MODEL_RETRY_AFTER_CAP_SECONDS,
            call_budget_seconds=settings.MODEL_CALL_BUDGET_SECONDS,
        )

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait after failed `attempt` (1-based): the server's word if given, else full jitter."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.retry_after_cap_seconds)
        # Full jitter spreads the retries of many workers hit by the same outage.
        return random.uniform(0.0, min(self.max_seconds, self.base_seconds * 2 ** (attempt - 1)))


class _AttemptFailed(Exception):
    """One HTTP attempt failed; `error` is what the caller would see if it is the last."""

    def __init__(
        self,
        error: ModelError,
        *,
        status: int | None = None,
        retry_after: float | None = None,
        request_id: str | None = None,
        cut_short: bool = False,
    ) -> None:
        super().__init__(error.code)
        self.error = error
        self.cut_short = cut_short  # a timeout shortened by the deadline, not the configured one
        self.status = status
        self.retry_after = retry_after
        self.request_id = request_id


class AnthropicModel:
    """The real Claude, through the official SDK, with our retries, deadline and breaker.

    The SDK reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL itself. Its defaults (a 600 s
    read timeout and blind retries) do not fit a worker, so both are set explicitly.
    """

    def __init__(self) -> None:
        self.name = settings.ANTHROPIC_MODEL
        self.read_timeout = settings.ANTHROPIC_TIMEOUT_SECONDS
        self.connect_timeout = settings.ANTHROPIC_CONNECT_TIMEOUT_SECONDS
        self.policy = RetryPolicy.from_settings()
        # max_retries=0: one retry policy (ours), which knows the deadline and the breaker.
        self.client = anthropic.Anthropic(
            timeout=anthropic.Timeout(self.read_timeout, connect=self.connect_timeout),
            max_retries=0,
        )
        # A probe that never reports back (its worker died) frees the half-open slot after this.
        self.breaker = breaker_for(self.name, probe_lease_seconds=self.connect_timeout + self.read_timeout + 5.0)

    def complete(self, request: dict, *, deadline: float | None = None) -> dict:
        """Send `request` (never mutated) with cache breakpoints, retrying transient failures.

        `deadline` is a time.monotonic() value no wait or attempt may pass. Returns the
        response body as sent by the API (usage included, unchanged). Raises ModelError.
        """
        body = with_cache_breakpoints(request)
        stop_at = time.monotonic() + self.policy.call_budget_seconds
        if deadline is not None:
            stop_at = min(stop_at, deadline)
        failed: _AttemptFailed | None = None  # the failure the caller will hear about
        for attempt in range(1, self.policy.max_attempts + 1):
            remaining = stop_at - time.monotonic()
            if remaining <= 0:
                break
            permit = self.breaker.acquire()
            if not permit.allowed:
                logger.warning("model call refused, breaker open model=%s attempt=%d", self.name, attempt)
                raise ModelError(
                    "model_unavailable", "The model service is unavailable; try again shortly.", retryable=True
                )
            try:
                return self._attempt(body, remaining, permit)
            except _AttemptFailed as error:
                # A timeout that only our deadline imposed says less about the service than
                # the failure before it (529 until the deadline is "unavailable", not "timeout").
                if not (error.cut_short and failed is not None):
                    failed = error
                delay = self._retry_delay(error, attempt, stop_at)
            if delay is None:
                break
            time.sleep(delay)
        if failed is None:
            raise ModelError("timeout", "The model did not answer in time.", retryable=True)
        logger.warning(
            "model call failed model=%s status=%s error=%s request_id=%s",
            self.name,
            failed.status,
            failed.error.code,
            failed.request_id,
        )
        raise failed.error from failed.__cause__

    def _retry_delay(self, failed: _AttemptFailed, attempt: int, stop_at: float) -> float | None:
        """Seconds to wait before the next attempt, or None when there should be none."""
        if not failed.error.retryable or attempt >= self.policy.max_attempts:
            return None
        delay = self.policy.delay(attempt, failed.retry_after)
        if time.monotonic() + delay >= stop_at:
            return None  # the wait would pass the deadline: give up now rather than sleep in vain
        logger.info(
            "model call retrying model=%s attempt=%d status=%s error=%s request_id=%s delay_ms=%d",
            self.name,
            attempt,
            failed.status,
            failed.error.code,
            failed.request_id,
            delay * 1000,
        )
        return delay

    def _attempt(self, body: dict, remaining: float, permit: Permit) -> dict:
        """One HTTP attempt bounded by `remaining` seconds; reports the outcome to the breaker."""
        timeout = httpx2.Timeout(min(self.read_timeout, remaining), connect=min(self.connect_timeout, remaining))
        try:
            raw = self.client.messages.with_raw_response.create(**body, timeout=timeout)
            # The body exactly as sent (usage and all): the agent stores it, nothing here reshapes it.
            response = raw.http_response.json()
        except anthropic.APITimeoutError as error:
            connecting = isinstance(error.__cause__, httpx2.ConnectTimeout)
            cut_short = remaining < (self.connect_timeout if connecting else self.read_timeout)
            # A wait our own deadline shortened is no evidence the service is down; a probe
            # must still report, or the half-open slot stays taken until its lease ends.
            if not cut_short or permit.probe:
                self.breaker.failure(permit)
            raise _AttemptFailed(
                ModelError("timeout", "The model did not answer in time.", retryable=True), cut_short=cut_short
            ) from error
        except anthropic.APIConnectionError as error:
            self.breaker.failure(permit)
            raise _AttemptFailed(
                ModelError("model_unavailable", "The model service could not be reached.", retryable=True)
            ) from error
        except anthropic.APIStatusError as error:
            model_error = _status_error(error)
            # Only failures worth retrying say the service is down; a 4xx means it answered.
            if model_error.retryable:
                self.breaker.failure(permit)
            else:
                self.breaker.success(permit)
            raise _AttemptFailed(
                model_error,
                status=error.status_code,
                request_id=error.request_id,
                retry_after=_retry_after(error.response.headers),
            ) from error
        except ValueError as error:  # a 2xx whose body is not JSON
            self.breaker.success(permit)
            raise _AttemptFailed(ModelError("model_error", "The model service sent an unreadable answer.")) from error
        self.breaker.success(permit)
        return response


_STATUS_CODES = {
    400: ("model_bad_request", "The model service rejected the request."),
    401: ("model_auth_failed", "The model service rejected our API key."),
    403: ("model_forbidden", "The model service refused access."),
    404: ("model_not_found", "The configured model does not exist."),
    413: ("model_bad_request", "The request was too large for the model service."),
}
# 408 (request timeout) and 409 (lock timeout) are transient too; the SDK retried them.
_RETRYABLE_STATUSES = {408, 409, 429}


def _status_error(error: anthropic.APIStatusError) -> ModelError:
    status = error.status_code
    if status in _STATUS_CODES:
        code, message = _STATUS_CODES[status]
        return ModelError(code, message)  # our request or our account is wrong: retrying cannot help
    transient = status in _RETRYABLE_STATUSES or status >= 500
    # The API may say outright whether a retry can help; its word beats our guess.
    should_retry = error.response.headers.get("x-should-retry")
    retryable = should_retry == "true" if should_retry in ("true", "false") else transient
    if transient:
        return ModelError("model_unavailable", "The model service is busy or down.", retryable=retryable)
    return ModelError("model_error", f"The model service answered with HTTP {status}.", retryable=retryable)


def _retry_after(headers: httpx2.Headers) -> float | None:
    """Seconds the server asked us to wait (retry-after-ms, retry-after seconds or date), if any."""
    value = headers.get("retry-after-ms")
    if value is not None:
        try:
            return float(value) / 1000
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        parsed = email.utils.parsedate_tz(value)
        return None if parsed is None else email.utils.mktime_tz(parsed) - time.time()


def with_cache_breakpoints(request: dict) -> dict:
    """A copy of `request` with cache breakpoints added (see the module docstring); `request` is untouched."""
    body = dict(request)
    # Top-level (automatic) caching takes a slot and already marks the last block.
    automatic = bool(body.get("cache_control"))
    existing = int(automatic)

    system = body.get("system")
    system_blocks: list | None = None
    system_index: int | None = None  # the system block that gets the breakpoint, if any
    if isinstance(system, str) and system:
        system_blocks = [{"type": "text", "text": system}]
        system_index = 0
    elif isinstance(system, list):
        system_blocks = []
        for index, block in enumerate(system):
            if isinstance(block, dict) and UNCACHED_MARKER in block:
                if block[UNCACHED_MARKER] is not True:
                    system_index = index
                block = {key: value for key, value in block.items() if key != UNCACHED_MARKER}
            else:
                system_index = index
            system_blocks.append(block)
        existing += _count_breakpoints(system_blocks)
    if system_blocks is not None:
        body["system"] = system_blocks

    tools = body.get("tools")
    if isinstance(tools, list):
        tools = list(tools)
        body["tools"] = tools
        existing += _count_breakpoints(tools)

    messages = body.get("messages")
    last_content: list | None = None
    if isinstance(messages, list) and messages and isinstance(messages[-1], dict):
        for message in messages[:-1]:
            if isinstance(message, dict) and isinstance(message.get("content"), list):
                existing += _count_breakpoints(message["content"])
        content = messages[-1].get("content")
        if isinstance(content, str) and content:
            last_content = [{"type": "text", "text": content}]
        elif isinstance(content, list) and content:
            last_content = list(content)
            existing += _count_breakpoints(last_content)
        if last_content is not None:
            body["messages"] = [*messages[:-1], {**messages[-1], "content": last_content}]

    budget = _MAX_BREAKPOINTS - existing
    # When slots are short: the system prompt is shared by every conversation; the last
    # message caches this conversation so far; the last tool matters only if the system
    # prompt changes (tools come before it in the cached prefix).
    for blocks, index in ((system_blocks, system_index), (None if automatic else last_content, -1), (tools, -1)):
        if budget <= 0:
            break
        if blocks and index is not None and _mark(blocks, index):
            budget -= 1
    return body


def _count_breakpoints(blocks: list) -> int:
    return sum(1 for block in blocks if isinstance(block, dict) and block.get("cache_control"))


def _mark(blocks: list, index: int) -> bool:
    """Put a breakpoint on blocks[index] (a copy replaces it); False if it cannot take one or already has one."""
    block = blocks[index]
    if not isinstance(block, dict) or block.get("cache_control") or block.get("type") in _UNCACHEABLE_BLOCKS:
        return False
    blocks[index] = {**block, "cache_control": {"type": "ephemeral"}}
    return True


def quick_complete(request: dict, *, timeout: float) -> dict:
    """One bounded attempt, no retries and no breaker: for an optional side question (L4's second opinion).

    Returns the response body; raises ModelError on any failure, a timeout included.
    """
    try:
        # A client per call: second opinions are rare, and this one must never retry.
        raw = anthropic.Anthropic(max_retries=0).messages.with_raw_response.create(
            **request, timeout=httpx2.Timeout(timeout, connect=min(timeout, 2.0))
        )
        return raw.http_response.json()
    except anthropic.APITimeoutError as error:
        raise ModelError("timeout", "The model did not answer in time.") from error
    except anthropic.APIConnectionError as error:
        raise ModelError("model_unavailable", "The model service could not be reached.") from error
    except anthropic.APIStatusError as error:
        raise _status_error(error) from error
    except ValueError as error:
        raise ModelError("model_error", "The model service sent an unreadable answer.") from error


@functools.cache
def get_model() -> Model:
    """The configured backend, one per process (the SDK client and the breaker are thread-safe)."""
    if settings.BOOKLY_LLM == "anthropic":
        return AnthropicModel()
    from chat.agent.offline_model import OfflineModel

    return OfflineModel()

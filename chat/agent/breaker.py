"""A circuit breaker for the model service, shared by every worker through Redis.

Called by chat/agent/llm.py around each HTTP attempt: `acquire()` before, then `success()` or
`failure()` after. State lives in one Redis hash per model, `bookly:breaker:<model>`:

- closed (no `state` field): `failures` counts consecutive retryable failures, reset
  when `window_until` passes; reaching the threshold opens the breaker.
- open (`state=open`, `until`=end of the cool-down): callers are refused without a request.
- half_open (`state=half_open`, `until`=end of the probe's lease): after the cool-down
  exactly one caller is let through as the probe; its success closes the breaker, its
  failure re-opens it. If the probe never reports (its worker died), another caller
  becomes the probe once the lease runs out.

Every transition is a Lua script, so it is atomic across workers and costs one round
trip; times come from Redis's clock, so workers' clocks need not agree. A closed-state
call that succeeds after no failures costs exactly one round trip (`acquire`).

If Redis cannot be reached the breaker lets calls through: it protects the model
service and our workers, and must never become the outage itself.
"""

import logging
import threading
import time
from dataclasses import dataclass

import redis
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry

logger = logging.getLogger(__name__)

# After Redis fails once, skip it for this long: an outage costs one socket timeout per
# process every few seconds instead of one per model call.
_REDIS_RECHECK_SECONDS = 5.0

# Returns {verdict, failures}: verdict 0 = closed, 1 = you are the probe, 2 = open (refused).
_ACQUIRE = """
local h = redis.call('HMGET', KEYS[1], 'state', 'until', 'failures')
if not h[1] then
  return {0, tonumber(h[3]) or 0}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if h[2] and now < tonumber(h[2]) then
  return {2, 0}
end
redis.call('HSET', KEYS[1], 'state', 'half_open', 'until', now + tonumber(ARGV[1]))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, 0}
"""

# ARGV: is_probe, threshold, window_ms, cooldown_ms, ttl_ms. Returns 1 if it opened the breaker.
_FAILURE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'state', 'failures', 'window_until')
if h[1] then
  if ARGV[1] == '1' and h[1] == 'half_open' then
    redis.call('HSET', KEYS[1], 'state', 'open', 'until', now + tonumber(ARGV[4]))
    redis.call('PEXPIRE', KEYS[1], ARGV[5])
    return 1
  end
  return 0
end
local failures = 1
if h[3] and now < tonumber(h[3]) then
  failures = (tonumber(h[2]) or 0) + 1
else
  redis.call('HSET', KEYS[1], 'window_until', now + tonumber(ARGV[3]))
end
if failures >= tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], 'state', 'open', 'until', now + tonumber(ARGV[4]), 'failures', 0)
  redis.call('HDEL', KEYS[1], 'window_until')
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return 1
end
redis.call('HSET', KEYS[1], 'failures', failures)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 0
"""

# ARGV: is_probe. Closes the breaker after a probe's success; clears the count when closed.
_SUCCESS = """
local state = redis.call('HGET', KEYS[1], 'state')
if (not state) or (ARGV[1] == '1' and state == 'half_open') then
  redis.call('DEL', KEYS[1])
  return state and 1 or 0
end
return 0
"""


@dataclass(frozen=True)
class Permit:
    """The breaker's answer to one caller: go ahead (perhaps as the probe) or not."""

    allowed: bool
    probe: bool = False
    failures: int = 0  # consecutive failures when issued: 0 means a success needs no write
    tracked: bool = True  # False when Redis was unreachable: nothing to report back


_UNTRACKED = Permit(allowed=True, tracked=False)


class NullBreaker:
    """Always lets calls through (no Redis configured, or the breaker is disabled)."""

    def acquire(self) -> Permit:
        """Always allowed."""
        return _UNTRACKED

    def success(self, permit: Permit) -> None:
        """Nothing to record."""

    def failure(self, permit: Permit) -> None:
        """Nothing to record."""


class CircuitBreaker:
    """The Redis-backed breaker for one model name; thread-safe, one per process and model."""

    def __init__(
        self,
        name: str,
        *,
        redis_url: str,
        threshold: int,
        window_seconds: float,
        cooldown_seconds: float,
        probe_lease_seconds: float,
        redis_timeout_seconds: float,
    ) -> None:
        self.name = name
        self.key = f"bookly:breaker:{name}"
        self.threshold = threshold
        self.window_ms = int(window_seconds * 1000)
        self.cooldown_ms = int(cooldown_seconds * 1000)
        self.probe_lease_ms = int(probe_lease_seconds * 1000)
        # Idle state expires on its own once nothing can still depend on it.
        self.ttl_ms = self.window_ms + self.cooldown_ms + self.probe_lease_ms + 60_000
        # Short timeouts and no client-side retries: a slow Redis must not slow model calls.
        self.redis = redis.Redis.from_url(
            redis_url,
            socket_timeout=redis_timeout_seconds,
            socket_connect_timeout=redis_timeout_seconds,
            retry=Retry(NoBackoff(), 0),
        )
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._failure = self.redis.register_script(_FAILURE)
        self._success = self.redis.register_script(_SUCCESS)
        self._skip_redis_until = 0.0
        self._lock = threading.Lock()

    def acquire(self) -> Permit:
        """Whether a call may go out now; refused while open or while another caller probes."""
        if time.monotonic() < self._skip_redis_until:
            return _UNTRACKED
        try:
            verdict, failures = self._acquire(keys=[self.key], args=[self.probe_lease_ms, self.ttl_ms])
        except redis.RedisError as error:
            self._redis_failed(error)
            return _UNTRACKED
        if verdict == 2:
            return Permit(allowed=False)
        if verdict == 1:
            logger.info("model breaker half-open, probing model=%s", self.name)
            return Permit(allowed=True, probe=True)
        return Permit(allowed=True, failures=int(failures))

    def success(self, permit: Permit) -> None:
        """Record that the service answered; closes the breaker if this was the probe."""
        if not permit.tracked or not (permit.probe or permit.failures):
            return  # the common case: closed with no failures, nothing to write
        try:
            closed = self._success(keys=[self.key], args=[int(permit.probe)])
        except redis.RedisError as error:
            self._redis_failed(error)
            return
        if closed:
            logger.warning("model breaker closed model=%s", self.name)

    def failure(self, permit: Permit) -> None:
        """Record a retryable failure; opens the breaker at the threshold, re-opens it after a failed probe."""
        if not permit.tracked:
            return
        try:
            opened = self._failure(
                keys=[self.key], args=[int(permit.probe), self.threshold, self.window_ms, self.cooldown_ms, self.ttl_ms]
            )
        except redis.RedisError as error:
            self._redis_failed(error)
            return
        if opened:
            logger.warning(
                "model breaker opened model=%s probe=%s cooldown_ms=%d", self.name, permit.probe, self.cooldown_ms
            )

    def _redis_failed(self, error: Exception) -> None:
        # Fail open, and say so once per recheck interval rather than on every call.
        with self._lock:
            first = time.monotonic() >= self._skip_redis_until
            self._skip_redis_until = time.monotonic() + _REDIS_RECHECK_SECONDS
        if first:
            logger.warning(
                "model breaker cannot reach Redis, letting calls through model=%s error=%s",
                self.name,
                type(error).__name__,
            )


def breaker_for(name: str, *, probe_lease_seconds: float) -> CircuitBreaker | NullBreaker:
    """The breaker configured in settings for model `name`; a NullBreaker without REDIS_URL or threshold."""
    if not settings.REDIS_URL or settings.MODEL_BREAKER_THRESHOLD <= 0:
        return NullBreaker()
    return CircuitBreaker(
        name,
        redis_url=settings.REDIS_URL,
        threshold=settings.MODEL_BREAKER_THRESHOLD,
        window_seconds=settings.MODEL_BREAKER_WINDOW_SECONDS,
        cooldown_seconds=settings.MODEL_BREAKER_COOLDOWN_SECONDS,
        probe_lease_seconds=probe_lease_seconds,
        redis_timeout_seconds=settings.MODEL_BREAKER_REDIS_TIMEOUT_SECONDS,
    )

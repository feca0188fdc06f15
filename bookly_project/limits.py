"""Request limits shared by every web process: per customer session and per client address.

Called by chat/api.py (the DRF throttle and session creation) and by django-axes (the client
address). Each limit is a counter that starts at the first hit and expires `period` seconds
later; a hit is allowed while the counter is at most `count`. With Redis all the counters of
one request are bumped by one Lua script: atomic across threads and processes, one round trip.
Without REDIS_URL (local development) the counters live in the process.

If Redis does not answer, the request is allowed and a warning is logged: a limiter outage
must not take the API down with it (the rest of the request then decides what to answer).
"""

import hashlib
import logging
import threading
import time
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest
from redis import RedisError

logger = logging.getLogger(__name__)

KEY_PREFIX = "bookly:limit:"

_PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600, "d": 86400}


@dataclass(frozen=True)
class Limit:
    count: int
    period: int  # seconds


@lru_cache(maxsize=64)
def limit_parse(rate: str) -> Limit:
    """'30/min' -> Limit(30, 60). Also '5/s', '100/hour', '10/day'."""
    count, _, period = rate.partition("/")
    return Limit(int(count), _PERIODS[period.strip().lower()])


def client_address(request: HttpRequest) -> str:
    """The client's IP address, trusting exactly NUM_PROXIES proxies in front of the app.

    With NUM_PROXIES=0 (the default) this is the socket's peer and X-Forwarded-For is ignored,
    so a client cannot pick its own address. Behind N proxies that each append the address
    they saw, the client is the N-th entry from the right; anything to its left is the
    client's own claim.
    """
    remote = request.META.get("REMOTE_ADDR", "")  # empty outside HTTP (force_login in tests)
    if settings.NUM_PROXIES <= 0:
        return remote
    forwarded = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    if not forwarded:
        return remote
    return forwarded[-min(settings.NUM_PROXIES, len(forwarded))]


# --- Counters --------------------------------------------------------------------------------

# KEYS: one counter per limit; ARGV: count1, period1, count2, period2, ...
# Returns 0 when every counter is within its count, else the seconds until the longest-blocked
# counter expires. Every counter is bumped, allowed or not, so a flood keeps its window full.
_HIT_SCRIPT = """
local wait = 0
for i, key in ipairs(KEYS) do
  local period = tonumber(ARGV[2 * i])
  local hits = redis.call('INCR', key)
  if hits == 1 then redis.call('EXPIRE', key, period) end
  if hits > tonumber(ARGV[2 * i - 1]) then
    local ttl = redis.call('TTL', key)
    if ttl < 0 then
      redis.call('EXPIRE', key, period)
      ttl = period
    end
    if ttl > wait then wait = ttl end
  end
end
return wait
"""


class RedisCounters:
    """The counters in Redis (django-redis's connection pool): shared by every process."""

    def __init__(self) -> None:
        self._script = None

    def hit(self, limits: dict[str, Limit]) -> int:
        if self._script is None:
            from django_redis import get_redis_connection

            self._script = get_redis_connection("default").register_script(_HIT_SCRIPT)
        args: list[int] = []
        for limit in limits.values():
            args += [limit.count, limit.period]
        return int(self._script(keys=list(limits), args=args))


class LocalCounters:
    """The counters in this process (no Redis configured): the same rule, under one lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counters: dict[str, tuple[int, float]] = {}  # key -> (hits, expires at)

    def hit(self, limits: dict[str, Limit]) -> int:
        now = time.monotonic()
        wait = 0
        with self._lock:
            for key, limit in limits.items():
                hits, expires = self._counters.get(key, (0, 0.0))
                if expires <= now:
                    hits, expires = 0, now + limit.period
                hits += 1
                self._counters[key] = (hits, expires)
                if hits > limit.count:
                    wait = max(wait, int(expires - now) + 1)
            if len(self._counters) > 100_000:  # drop expired counters now and then
                self._counters = {key: value for key, value in self._counters.items() if value[1] > now}
        return wait

    def clear(self) -> None:
        with self._lock:
            self._counters.clear()


_redis_counters = RedisCounters()
local_counters = LocalCounters()


def _hash(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()[:24]


def limit_hit(scope: str, *, session: str | None, address: str) -> int:
    """Count one request of `scope` against its per-session and per-address limits.

    Returns 0 if allowed, else the seconds to wait (for Retry-After). Never raises for Redis
    trouble: it then allows the request and logs a warning.
    """
    rates = settings.RATE_LIMITS.get(scope, {})
    limits: dict[str, Limit] = {}
    if session and rates.get("session"):
        limits[f"{KEY_PREFIX}{scope}:session:{_hash(session)}"] = limit_parse(rates["session"])
    if rates.get("address"):
        limits[f"{KEY_PREFIX}{scope}:address:{_hash(address)}"] = limit_parse(rates["address"])
    if not limits:
        return 0
    if not settings.REDIS_URL:
        return local_counters.hit(limits)
    try:
        return _redis_counters.hit(limits)
    except RedisError as error:
        logger.warning("rate limiter unavailable, allowing the request (%s): %s", scope, type(error).__name__)
        return 0

"""Liveness, readiness and Prometheus metrics for the deployment, beside the customer API.

`healthz` answers while the process does; `readyz` checks Postgres, Redis and that the queue moves
(chat/monitoring.py); `metrics` serves chat/monitoring.py's collector to a scraper holding
METRICS_TOKEN.
"""

import hmac

import prometheus_client
from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from redis import Redis, RedisError

from bookly_project.errors import error_response
from chat import monitoring


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: the process answers."""
    return JsonResponse({"status": "ok"})


def readyz(request: HttpRequest) -> JsonResponse:
    """Readiness: Postgres and Redis answer, and the queue is moving (see chat/monitoring.py)."""
    checks = {"database": "ok", "redis": "ok" if settings.REDIS_URL else "not configured", "queue": "ok"}
    body: dict = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        checks["database"] = "unavailable"
    if settings.REDIS_URL:
        try:
            Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1).ping()
        except RedisError:
            checks["redis"] = "unavailable"
    if checks["database"] == "ok":
        queue = monitoring.queue_health()
        checks["queue"] = "stuck" if queue.stuck else "ok"
        body["queue"] = {"depth": queue.depth, "oldest_wait_seconds": round(queue.oldest_wait_seconds, 1)}
    else:
        checks["queue"] = "unknown"
    ready = all(value in ("ok", "not configured") for value in checks.values())
    body = {"status": "ok" if ready else "unavailable", "checks": checks, **body}
    return JsonResponse(body, status=200 if ready else 503)


METRICS_CONTENT_TYPE = prometheus_client.CONTENT_TYPE_LATEST


def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus metrics (chat/monitoring.py), for a scraper holding METRICS_TOKEN; off without one."""
    if not settings.METRICS_TOKEN:
        return error_response(404, "not_found", "Not found.")
    expected = f"Bearer {settings.METRICS_TOKEN}".encode()
    if not hmac.compare_digest(request.headers.get("Authorization", "").encode(), expected):
        response = error_response(401, "not_authenticated", "A valid metrics token is required.")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(prometheus_client.generate_latest(monitoring.REGISTRY), content_type=METRICS_CONTENT_TYPE)

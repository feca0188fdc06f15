"""Ops reads for /metrics and /readyz: the queue, runs by status, model calls and turn times.

Called by chat/api.py (`metrics`, `readyz`); reads the database and the broker, writes nothing.

Every figure is computed when Prometheus scrapes, from the database and the broker: each web
process then answers the same numbers whichever worker process or machine ran the turns, with
no per-process counters to merge, no shared multiprocess directory, and no cost at all on the
request and turn hot paths. Distributions (model latency, turn time) cover the runs accepted in
the last METRICS_WINDOW_SECONDS and are exposed as gauge histograms: `histogram_quantile()` over
their buckets gives that window's percentiles directly, without `rate()`.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, DurationField, Exists, ExpressionWrapper, F, OuterRef, Q, Sum
from django.utils import timezone
from prometheus_client.core import CollectorRegistry, GaugeHistogramMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bookly_project.celery import app as celery_app
from chat.models import ModelCall, Run
from guardrails.models import PendingAction

MODEL_LATENCY_BUCKETS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
TURN_BUCKETS = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0, 120.0, 300.0)


def queue_depth() -> int | None:
    """Tasks waiting in the broker's default queue (all priority lists), or None if it cannot be read.

    Asked through kombu, as a worker declares its queue: on Redis that is the length of the
    queue's lists, on the file broker the number of message files. Not passive: on Redis an empty
    queue has no key, and a passive declare would call it missing; declaring writes nothing there.
    """
    queue = celery_app.conf.task_default_queue
    try:
        with celery_app.connection_for_read(connect_timeout=2, transport_options={"max_retries": 0}) as connection:
            return connection.default_channel.queue_declare(queue=queue).message_count
    except Exception:  # any broker error means "unknown" here; readiness reports the broker itself
        return None


def queue_oldest_wait_seconds(*, now: datetime) -> float:
    """How long the oldest run waiting for its first worker has waited (0 if none waits).

    Only runs a worker could claim now: a run queued behind an earlier unfinished run of its
    thread waits for that run, not for the queue, and a run resumed after a confirmation was
    started before.
    """
    earlier_unfinished = Run.objects.filter(
        thread_id=OuterRef("thread_id"), seq__lt=OuterRef("seq"), status__in=Run.UNFINISHED
    )
    oldest = (
        Run.objects.filter(status=Run.Status.QUEUED, started_at__isnull=True)
        .filter(~Exists(earlier_unfinished))
        .order_by("created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    return max(0.0, (now - oldest).total_seconds()) if oldest else 0.0


@dataclass(frozen=True)
class QueueHealth:
    depth: int | None
    oldest_wait_seconds: float

    @property
    def stuck(self) -> bool:
        too_deep = self.depth is not None and self.depth > settings.READY_QUEUE_MAX_DEPTH
        return too_deep or self.oldest_wait_seconds > settings.READY_QUEUE_MAX_WAIT_SECONDS


def queue_health() -> QueueHealth:
    """The queue as readiness judges it: stuck when too deep or when a run waited too long."""
    return QueueHealth(depth=queue_depth(), oldest_wait_seconds=queue_oldest_wait_seconds(now=timezone.now()))


def runs_by_status(*, since: datetime | None = None) -> dict[str, int]:
    """Runs per status, every status present: the unfinished ones now, or all accepted since `since`."""
    runs = Run.objects.filter(created_at__gte=since) if since else Run.objects.filter(status__in=Run.UNFINISHED)
    counts = dict(runs.order_by().values_list("status").annotate(n=Count("id")))
    statuses = Run.Status.values if since else Run.UNFINISHED
    return {status: counts.get(status, 0) for status in statuses}


def run_failures(*, since: datetime) -> dict[str, int]:
    """Runs accepted since `since` that ended failed or expired, by error code."""
    failed = Run.objects.filter(created_at__gte=since, status__in=[Run.Status.FAILED, Run.Status.EXPIRED])
    return dict(failed.order_by().values_list("error_code").annotate(n=Count("id")))


def model_errors(*, since: datetime) -> dict[str, int]:
    """Model calls of runs accepted since `since` that failed, by error code."""
    calls = ModelCall.objects.filter(run__created_at__gte=since).exclude(error_code="")
    return dict(calls.order_by().values_list("error_code").annotate(n=Count("id")))


@dataclass(frozen=True)
class Distribution:
    """Cumulative bucket counts (upper bound in seconds, count), the total and the sum in seconds."""

    buckets: list[tuple[float, int]]
    count: int
    total_seconds: float


def _distribution(queryset, field: str, bounds: tuple[float, ...], to_bound) -> Distribution:
    """One aggregate query: a conditional count per bucket, the count and the sum of `field`."""
    row = queryset.aggregate(
        count=Count("pk"),
        total=Sum(field),
        **{f"le_{index}": Count("pk", filter=Q(**{f"{field}__lte": to_bound(b)})) for index, b in enumerate(bounds)},
    )
    total = row["total"] or 0
    total_seconds = total.total_seconds() if isinstance(total, timedelta) else total / 1000
    return Distribution(
        buckets=[(bound, row[f"le_{index}"]) for index, bound in enumerate(bounds)],
        count=row["count"],
        total_seconds=total_seconds,
    )


def model_latency(*, since: datetime) -> Distribution:
    """Latency of the model calls of runs accepted since `since` (retries included)."""
    calls = ModelCall.objects.filter(run__created_at__gte=since)
    return _distribution(calls, "latency_ms", MODEL_LATENCY_BUCKETS, lambda seconds: seconds * 1000)


def turn_time(*, since: datetime) -> Distribution:
    """From accepting the message to the run's end, for finished runs accepted since `since`.

    Runs that waited for the customer's confirmation are left out: their time is the customer's.
    """
    asked = PendingAction.objects.filter(run_id=OuterRef("pk"))
    runs = (
        Run.objects.filter(created_at__gte=since, completed_at__isnull=False)
        .filter(~Exists(asked))
        .annotate(turn=ExpressionWrapper(F("completed_at") - F("created_at"), output_field=DurationField()))
    )
    return _distribution(runs, "turn", TURN_BUCKETS, lambda seconds: timedelta(seconds=seconds))


def _gauge_histogram(name: str, documentation: str, distribution: Distribution) -> GaugeHistogramMetricFamily:
    buckets = [(str(bound), count) for bound, count in distribution.buckets] + [("+Inf", distribution.count)]
    return GaugeHistogramMetricFamily(name, documentation, buckets=buckets, gsum_value=distribution.total_seconds)


def _labelled(name: str, documentation: str, label: str, values: dict[str, int]) -> GaugeMetricFamily:
    family = GaugeMetricFamily(name, documentation, labels=[label])
    for key, value in sorted(values.items()):
        family.add_metric([key], value)
    return family


class BooklyCollector(Collector):
    """Reads every figure when scraped (see the module docstring for why)."""

    def collect(self) -> Iterator[Metric]:
        window = settings.METRICS_WINDOW_SECONDS
        now = timezone.now()
        since = now - timedelta(seconds=window)
        yield GaugeMetricFamily("bookly_metrics_window_seconds", "The window the *_recent figures cover.", window)
        depth = queue_depth()
        if depth is not None:
            yield _labelled(
                "bookly_queue_depth",
                "Tasks waiting in the broker queue.",
                "queue",
                {celery_app.conf.task_default_queue: depth},
            )
        yield GaugeMetricFamily(
            "bookly_queue_oldest_wait_seconds",
            "How long the oldest claimable queued run has waited for a worker.",
            queue_oldest_wait_seconds(now=now),
        )
        yield _labelled("bookly_runs", "Unfinished runs by status, now.", "status", runs_by_status())
        yield _labelled(
            "bookly_runs_recent", "Runs accepted in the window, by status.", "status", runs_by_status(since=since)
        )
        yield _labelled(
            "bookly_run_failures_recent",
            "Runs accepted in the window that ended failed or expired, by error code.",
            "code",
            run_failures(since=since),
        )
        yield _labelled(
            "bookly_model_errors_recent",
            "Failed model calls of runs accepted in the window, by error code.",
            "code",
            model_errors(since=since),
        )
        yield _gauge_histogram(
            "bookly_model_latency_seconds",
            "Model call latency, runs accepted in the window.",
            model_latency(since=since),
        )
        yield _gauge_histogram(
            "bookly_turn_seconds",
            "Time from accepting a message to its run's end, runs accepted in the window.",
            turn_time(since=since),
        )


REGISTRY = CollectorRegistry(auto_describe=False)
REGISTRY.register(BooklyCollector())

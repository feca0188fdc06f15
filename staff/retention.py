"""Retention: conversations with no activity for a configured number of days are deleted.

Before deleting, every day those conversations touched gets its dashboard figures stored
(`DailyFigures`), so the dashboard keeps showing those days. The returns ledger stays:
`orders.Return` rows keep their thread and run ids (plain ids, not foreign keys), which
then point at nothing. Safe to run twice: a stored day is never recomputed, and a deleted
thread is gone.
"""

import logging
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db import transaction
from django.db.models import Exists, Min, OuterRef
from django.utils import timezone

from chat.models import Run, Thread
from staff.dashboard import figures_by_day_live, figures_for_storage
from staff.models import DailyFigures

logger = logging.getLogger(__name__)

DELETE_BATCH = 500
_CHUNK_DAYS = 92  # the figures of a long history are computed a quarter at a time


@dataclass(frozen=True)
class RetentionReport:
    cutoff: datetime
    days_stored: int
    threads_deleted: int


def threads_past_retention(*, cutoff: datetime):
    """Threads whose last activity is before `cutoff` and that no run is still working on."""
    unfinished = Run.objects.filter(thread_id=OuterRef("pk"), status__in=Run.UNFINISHED)
    return Thread.objects.filter(updated_at__lt=cutoff).exclude(Exists(unfinished))


def daily_figures_store(*, start: date, end: date) -> int:
    """Store the figures of each day in [start, end] that has none stored yet; returns how many."""
    stored = 0
    chunk_start = start
    while chunk_start <= end:
        chunk_end = min(end, chunk_start + timedelta(days=_CHUNK_DAYS - 1))
        existing = set(
            DailyFigures.objects.filter(day__gte=chunk_start, day__lte=chunk_end).values_list("day", flat=True)
        )
        missing = [
            DailyFigures(day=day, figures=figures_for_storage(figures))
            for day, figures in figures_by_day_live(start=chunk_start, end=chunk_end).items()
            if day not in existing
        ]
        stored += len(DailyFigures.objects.bulk_create(missing, ignore_conflicts=True))
        chunk_start = chunk_end + timedelta(days=1)
    return stored


def retention_apply(*, days: int, now: datetime | None = None, dry_run: bool = False) -> RetentionReport:
    """Delete conversations idle for more than `days` days, after storing their days' figures. Idempotent."""
    if days < 1:
        raise ValueError("Retention must keep at least one day.")
    cutoff = (now or timezone.now()) - timedelta(days=days)
    expired = threads_past_retention(cutoff=cutoff)
    oldest = expired.aggregate(oldest=Min("created_at"))["oldest"]
    if oldest is None:
        return RetentionReport(cutoff=cutoff, days_stored=0, threads_deleted=0)
    if dry_run:
        return RetentionReport(cutoff=cutoff, days_stored=0, threads_deleted=expired.count())
    # Every day these threads can have runs on lies in [their oldest start, the cutoff's day]:
    # all in the past, so each day's figures are final when stored.
    days_stored = daily_figures_store(start=timezone.localdate(oldest), end=timezone.localdate(cutoff))
    deleted = 0
    while batch := list(expired.values_list("pk", flat=True)[:DELETE_BATCH]):
        with transaction.atomic():
            # Messages, runs, their transcripts, guardrail events and pending actions go with the thread.
            Thread.objects.filter(pk__in=batch).delete()
        deleted += len(batch)
    logger.info("retention applied days=%d stored_days=%d deleted_threads=%d", days, days_stored, deleted)
    return RetentionReport(cutoff=cutoff, days_stored=days_stored, threads_deleted=deleted)

"""Celery tasks: thin wrappers around staff services."""

from celery import shared_task
from django.conf import settings

from staff import retention


@shared_task(name="staff.tasks.retention_apply", ignore_result=True)
def retention_apply() -> int:
    """Periodic (beat, daily): delete conversations past RETENTION_DAYS (0 turns it off)."""
    if settings.RETENTION_DAYS <= 0:
        return 0
    return retention.retention_apply(days=settings.RETENTION_DAYS).threads_deleted

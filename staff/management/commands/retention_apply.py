"""manage.py retention_apply [--days N] [--dry-run]: delete conversations past retention."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from staff.retention import retention_apply


class Command(BaseCommand):
    help = (
        "Delete conversations with no activity for more than --days days (default RETENTION_DAYS), "
        "after storing their days' dashboard figures. Returns are kept. Safe to run again."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--days", type=int, default=None, help="Keep conversations active within this many days.")
        parser.add_argument("--dry-run", action="store_true", help="Only count what would be deleted.")

    def handle(self, *args, days: int | None, dry_run: bool, **options) -> None:
        days = settings.RETENTION_DAYS if days is None else days
        if days < 1:
            raise CommandError("--days must be at least 1 (RETENTION_DAYS=0 only turns the daily task off).")
        report = retention_apply(days=days, dry_run=dry_run)
        verb = "would delete" if dry_run else "deleted"
        self.stdout.write(
            f"Retention {days} days (before {report.cutoff:%Y-%m-%d %H:%M}): {verb} {report.threads_deleted} "
            f"conversation(s); stored figures for {report.days_stored} day(s)."
        )

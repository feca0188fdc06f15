"""`manage.py generate_orders N [--seed S]`: N synthetic valid orders (BK-2xxxxx) for load tests."""

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Max
from django.utils import timezone

from orders.demo_orders import SYNTHETIC_FIRST, SYNTHETIC_LAST, synthetic_order_records
from orders.importing import orders_import, records_validate
from orders.models import Order


class Command(BaseCommand):
    help = "Bulk-create N synthetic orders numbered after the last synthetic one (BK-200000 to BK-299999)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("count", type=int, help="how many orders to create")
        parser.add_argument("--seed", type=int, default=0, help="random seed (same seed, same orders)")

    def handle(self, *args, count: int, seed: int, **options) -> None:
        if count < 1:
            raise CommandError("count must be at least 1")
        # Six-digit ids starting with 2 sort as text in numeric order, so Max finds the last one.
        last = Order.objects.filter(order_id__regex=r"^BK-2[0-9]{5}$").aggregate(last=Max("order_id"))["last"]
        first = int(last[3:]) + 1 if last else SYNTHETIC_FIRST
        if first + count - 1 > SYNTHETIC_LAST:
            raise CommandError(f"only {SYNTHETIC_LAST - first + 1} synthetic order ids are left")
        raw = synthetic_order_records(count=count, seed=seed, first_number=first, today=timezone.localdate())
        records, errors = records_validate(list(enumerate(raw, start=1)))
        if errors:
            raise CommandError(f"generated an invalid record: {errors[0]}")
        summary = orders_import(records=records)
        self.stdout.write(f"created {summary.created} orders (BK-{first} to BK-{first + count - 1})")

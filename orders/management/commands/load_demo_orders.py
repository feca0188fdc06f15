"""`manage.py load_demo_orders`: the demo orders, dated relative to today; idempotent."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from orders.demo_orders import demo_order_records
from orders.importing import orders_import, records_validate


class Command(BaseCommand):
    help = "Create or refresh the demo orders (dates relative to today). Running it twice changes nothing."

    def handle(self, *args, **options) -> None:
        # Same path as a file import: the demo data passes the same validation.
        records, errors = records_validate(list(enumerate(demo_order_records(today=timezone.localdate()), start=1)))
        if errors:
            raise CommandError("; ".join(str(error) for error in errors))
        for line in orders_import(records=records).lines():
            self.stdout.write(line)

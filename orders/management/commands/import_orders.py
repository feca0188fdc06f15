"""`manage.py import_orders FILE.json [--skip-invalid]`: load or update orders from a JSON list."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from orders.importing import ImportFileError, orders_import, records_parse, records_validate


class Command(BaseCommand):
    help = (
        "Load orders from a JSON list (updating existing ones by order_id). Every record is validated first; "
        "if any is invalid nothing is loaded, unless --skip-invalid is given."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="a JSON file holding a list of orders")
        parser.add_argument("--skip-invalid", action="store_true", help="load the valid records, skip the others")

    def handle(self, *args, file: Path, skip_invalid: bool, **options) -> None:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"cannot read {file}: {type(error).__name__}") from error
        try:
            records, errors = records_validate(records_parse(text))
        except ImportFileError as error:
            raise CommandError(str(error)) from error
        for error in errors:
            self.stderr.write(str(error))
        if errors and not skip_invalid:
            raise CommandError(f"{len(errors)} invalid record(s); nothing was imported (--skip-invalid loads the rest)")
        summary = orders_import(records=records, skipped=len(errors))
        for line in summary.lines():
            self.stdout.write(line)

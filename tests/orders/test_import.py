"""import_orders: every record validated with its line number; all or nothing; re-imports update in place."""

import json
import os
import subprocess
import sys
from datetime import date
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from orders.models import Order, OrderItem, ReturnItem
from orders.services import return_create, return_effect_compute

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def record(order_id: str = "BK-5001", **changes) -> dict:
    base = {
        "order_id": order_id,
        "customer_name": "Sarah Chen",
        "email": "Sarah.Chen@Example.com",
        "status": "delivered",
        "order_date": "2025-03-01",
        "delivered_date": "2025-03-05",
        "tracking_number": "1Z999AA10123456784",
        "items": [
            {"title": "The Goldfinch", "author": "Donna Tartt", "price": 16.99, "category": "fiction"},
            {"title": "Sapiens", "author": "Yuval Noah Harari", "price": 19.99, "category": "nonfiction"},
        ],
        "total": 36.98,
    }
    return {**base, **changes}


def write(tmp_path: Path, records: list, name: str = "orders.json") -> Path:
    """One record per line after the opening bracket: record i (0-based) starts on line i + 2."""
    path = tmp_path / name
    path.write_text("[\n" + ",\n".join(json.dumps(item, ensure_ascii=False) for item in records) + "\n]\n")
    return path


def run_import(path: Path, *args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("import_orders", str(path), *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_a_valid_file_creates_orders_and_items(tmp_path):
    second = record(
        "BK-5002",
        status="shipped",
        delivered_date=None,
        items=[{"title": "Project Hail Mary", "author": "Andy Weir", "price": "18.99", "category": "fiction"}],
        total="18.99",
    )
    out, err = run_import(write(tmp_path, [record(), second]))
    assert "created 2, updated 0, unchanged 0, skipped 0" in out
    assert err == ""
    order = Order.objects.get(order_id="BK-5001")
    assert (order.email, order.status, order.delivered_date) == (
        "sarah.chen@example.com",
        "delivered",
        date(2025, 3, 5),
    )
    assert order.total == Decimal("36.98")
    assert order.payment_method == "original payment method"
    assert [(item.title, item.price, item.position) for item in order.items.all()] == [
        ("The Goldfinch", Decimal("16.99"), 0),
        ("Sapiens", Decimal("19.99"), 1),
    ]
    assert Order.objects.get(order_id="BK-5002").delivered_date is None


def _item(**changes) -> dict:
    return {"title": "Circe", "author": "Madeline Miller", "price": 15.99, "category": "fiction", **changes}


def _one_item(**changes) -> dict:
    return {"items": [_item(**changes)], "total": 15.99}


BAD_RECORDS = [
    ("short order id", record("BK-12"), "order_id: must be BK-"),
    ("long order id", record("BK-1234567"), "order_id: must be BK-"),
    ("lower-case order id", record("bk-1234"), "order_id: must be BK-"),
    ("arabic-indic digits", record("BK-١٢٣٤"), "order_id: must be BK-"),
    ("order id with a newline", record("BK-1234\n"), "order_id: must be BK-"),
    ("not an email", record(email="sarah.chen"), "email: must be a valid email"),
    ("email too long", record(email="a" * 250 + "@example.com"), "email: must be a valid email"),
    ("cyrillic email", record(email="sаrah@example.com"), "email: must be a valid email"),
    ("unknown status", record(status="lost"), "status: must be one of"),
    ("impossible date", record(order_date="2025-02-30"), "order_date: must be a date"),
    ("words for a date", record(order_date="yesterday"), "order_date: must be a date"),
    ("delivered without date", record(delivered_date=None), "delivered_date: required when status is delivered"),
    ("shipped with a delivered date", record(status="shipped"), "delivered_date: must be empty unless"),
    ("delivered before ordered", record(delivered_date="2025-02-01"), "delivered_date: must not be before"),
    ("negative price", record(**_one_item(price=-1.0)), "items[0].price: must be an amount"),
    ("three decimals", record(**_one_item(price=1.999)), "items[0].price: must be an amount"),
    ("price as words", record(**_one_item(price="cheap")), "items[0].price: must be an amount"),
    ("price as a boolean", record(**_one_item(price=True)), "items[0].price: must be an amount"),
    ("total off by a cent", record(total=36.97), "total: must equal the sum"),
    ("unknown category", record(**_one_item(category="magazine")), "items[0].category: must be one of"),
    ("empty title", record(**_one_item(title="  ")), "items[0].title: must be 1 to 200"),
    ("overlong title", record(**_one_item(title="x" * 201)), "items[0].title: must be 1 to 200"),
    ("overlong author", record(**_one_item(author="x" * 201)), "items[0].author: must be 0 to 200"),
    ("control character in a name", record(customer_name="Sarah\x00Chen"), "customer_name: contains control"),
    ("bidi override in a title", record(**_one_item(title="Circe\u202e")), "items[0].title: contains control"),
    ("no items", record(items=[], total=0), "items: must be a list of 1 to"),
    ("items not a list", record(items="Circe", total=0), "items: must be a list of 1 to"),
    ("item not an object", record(items=["Circe"], total=0), "items[0]: must be an object"),
    ("unknown field", record(discount=5), "unknown field(s) discount"),
    ("missing field", {key: value for key, value in record().items() if key != "email"}, "missing field(s) email"),
    ("not an object", 42, "must be a JSON object"),
    ("bad tracking number", record(tracking_number="1Z 999; DROP TABLE"), "tracking_number: must be"),
]


@pytest.mark.parametrize(("case", "bad", "reason"), BAD_RECORDS, ids=[case for case, _, _ in BAD_RECORDS])
def test_a_bad_record_is_reported_with_its_line_and_nothing_is_loaded(tmp_path, case, bad, reason):
    path = write(tmp_path, [record("BK-5001"), bad, record("BK-5003")])
    err = StringIO()
    with pytest.raises(CommandError, match="1 invalid record"):
        call_command("import_orders", str(path), stdout=StringIO(), stderr=err)
    lines = err.getvalue().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("line 3: ")
    assert reason in lines[0]
    assert Order.objects.count() == 0


def test_the_reported_line_is_where_the_records_object_starts(tmp_path):
    text = json.dumps(
        [record("BK-5001"), record("BK-5002", status="lost", delivered_date=None), record("BK-5003", total=1)], indent=2
    )
    path = tmp_path / "pretty.json"
    path.write_text(text)
    starts = [number for number, line in enumerate(text.splitlines(), start=1) if line == "  {"]
    err = StringIO()
    with pytest.raises(CommandError, match="2 invalid record"):
        call_command("import_orders", str(path), stdout=StringIO(), stderr=err)
    assert err.getvalue().splitlines() == [
        f"line {starts[1]}: BK-5002: status: must be one of processing, shipped, delivered, cancelled",
        f"line {starts[2]}: BK-5003: total: must equal the sum of the item prices",
    ]


def test_errors_name_fields_but_never_echo_customer_data(tmp_path):
    path = write(tmp_path, [record(email="sarah.chen-at-example.com", customer_name="Sarah\x07Chen")])
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("import_orders", str(path), stdout=StringIO(), stderr=err)
    assert "email" in err.getvalue()
    assert "sarah" not in err.getvalue().lower()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('[{"order_id": "BK-5001",', "line 1: invalid JSON"),
        ('{"order_id": "BK-5001"}', "line 1: the file must be a JSON list"),
        ("[\n{}\n] trailing", "line 3: invalid JSON (extra data"),
        ("[\n{},\n{} {}\n]", "line 3: invalid JSON (expected"),
        ("", "the file must be a JSON list"),
    ],
)
def test_a_file_that_is_not_a_json_list_is_refused(tmp_path, text, reason):
    path = tmp_path / "broken.json"
    path.write_text(text)
    with pytest.raises(CommandError, match=reason.replace("(", r"\(")):
        run_import(path)
    assert Order.objects.count() == 0


def test_a_file_that_is_not_utf8_or_missing_is_refused(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes(b'[{"customer_name": "Ren\xe9e"}]')
    with pytest.raises(CommandError, match="cannot read"):
        run_import(path)
    with pytest.raises(CommandError, match="cannot read"):
        run_import(tmp_path / "missing.json")


def test_duplicate_keys_nan_and_a_repeated_order_id_are_bad_records(tmp_path):
    path = tmp_path / "tricky.json"
    good = json.dumps(record("BK-5001"))
    path.write_text(
        "[\n"
        + good
        + ",\n"
        + good.replace('"status": "delivered"', '"status": "delivered", "customer_name": "Sam Chen"').replace(
            "BK-5001", "BK-5002"
        )
        + ",\n"
        + good.replace("BK-5001", "BK-5003").replace('"total": 36.98', '"total": NaN')
        + ",\n"
        + good
        + "\n]"
    )
    err = StringIO()
    with pytest.raises(CommandError, match="3 invalid record"):
        call_command("import_orders", str(path), stdout=StringIO(), stderr=err)
    assert err.getvalue().splitlines() == [
        "line 3: BK-5002: has a duplicate key",
        "line 4: BK-5003: total: must be an amount from 0 to 99999999.99 with at most 2 decimals",
        "line 5: BK-5001: order_id: repeats the order at line 2",
    ]


def test_skip_invalid_loads_the_valid_records_and_reports_the_rest(tmp_path):
    path = write(tmp_path, [record("BK-5001"), record("BK-5002", status="lost"), record("BK-5003")])
    out, err = run_import(path, "--skip-invalid")
    assert "created 2, updated 0, unchanged 0, skipped 1" in out
    assert err.startswith("line 3: BK-5002: status")
    assert sorted(Order.objects.values_list("order_id", flat=True)) == ["BK-5001", "BK-5003"]


def test_reimporting_the_same_file_changes_nothing(tmp_path):
    path = write(tmp_path, [record("BK-5001"), record("BK-5002")])
    run_import(path)
    before = {
        order.order_id: (order.updated_at, [item.id for item in order.items.all()])
        for order in Order.objects.prefetch_related("items")
    }
    out, _ = run_import(path)
    assert "created 0, updated 0, unchanged 2, skipped 0" in out
    after = {
        order.order_id: (order.updated_at, [item.id for item in order.items.all()])
        for order in Order.objects.prefetch_related("items")
    }
    assert after == before


def test_reimporting_updates_orders_in_place_instead_of_duplicating(tmp_path):
    run_import(write(tmp_path, [record("BK-5001", status="shipped", delivered_date=None)]))
    order_pk = Order.objects.get().pk
    changed = record(
        "BK-5001",
        items=[
            {"title": "Sapiens", "author": "Yuval Noah Harari", "price": 19.99, "category": "nonfiction"},
            {"title": "Circe", "author": "Madeline Miller", "price": 15.99, "category": "fiction"},
        ],
        total=35.98,
    )
    out, _ = run_import(write(tmp_path, [changed], name="again.json"))
    assert "created 0, updated 1, unchanged 0, skipped 0" in out
    order = Order.objects.get()
    assert (order.pk, order.status, order.total) == (order_pk, "delivered", Decimal("35.98"))
    assert [(item.title, item.position) for item in order.items.all()] == [("Sapiens", 0), ("Circe", 1)]
    assert OrderItem.objects.count() == 2


def test_a_returned_item_survives_a_reimport_that_drops_it(tmp_path):
    path = write(tmp_path, [record("BK-5001", delivered_date=None, status="shipped")])
    run_import(path)
    order = Order.objects.get()
    Order.objects.filter(pk=order.pk).update(status="delivered", delivered_date=date.today())
    order.refresh_from_db()
    return_create(effect=return_effect_compute(order=order, item_titles=["The Goldfinch"], reason="Damaged"))
    returned_id = ReturnItem.objects.get().order_item_id

    only_circe = record("BK-5001", items=[_item()], total=15.99)
    out, _ = run_import(write(tmp_path, [only_circe], name="again.json"))
    assert "BK-5001: kept 1 returned item(s) the file no longer lists" in out
    assert [(item.id == returned_id, item.title) for item in order.items.all()] == [
        (False, "Circe"),
        (True, "The Goldfinch"),
    ]


def test_a_returned_item_still_in_the_file_is_not_duplicated(tmp_path):
    run_import(write(tmp_path, [record("BK-5001")]))
    order = Order.objects.get()
    Order.objects.filter(pk=order.pk).update(delivered_date=date.today())
    order.refresh_from_db()
    return_create(effect=return_effect_compute(order=order, item_titles=["Sapiens"], reason="Damaged"))
    out, _ = run_import(write(tmp_path, [record("BK-5001")], name="again.json"))
    assert "updated 1" in out  # the delivered date goes back to the file's
    assert sorted(order.items.values_list("title", flat=True)) == ["Sapiens", "The Goldfinch"]
    assert ReturnItem.objects.get().order_item.title == "Sapiens"


def test_the_command_exits_non_zero_on_invalid_records(tmp_path):
    path = write(tmp_path, [record("BK-5001", status="lost")])
    db = settings.DATABASES["default"]
    env = {**os.environ, "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"}
    finished = subprocess.run(
        [sys.executable, "manage.py", "import_orders", str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert finished.returncode == 1
    assert "line 2: BK-5001: status" in finished.stderr
    assert "nothing was imported" in finished.stderr

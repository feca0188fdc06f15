"""load_demo_orders (the facts the demo relies on, idempotent) and generate_orders (count, id range)."""

from datetime import timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from orders.demo_orders import synthetic_order_records
from orders.importing import records_validate
from orders.models import Order, OrderItem
from orders.selectors import order_get_for_customer
from orders.services import order_eligibility

pytestmark = pytest.mark.django_db


def load_demo() -> str:
    out = StringIO()
    call_command("load_demo_orders", stdout=out)
    return out.getvalue()


def ago(days: int):
    return timezone.localdate() - timedelta(days=days)


def test_the_four_required_demo_orders_have_their_documented_facts():
    load_demo()
    sarah = order_get_for_customer(order_id="BK-10042", email="sarah.chen@example.com")
    assert (sarah.customer_name, sarah.status, sarah.delivered_date) == ("Sarah Chen", "delivered", ago(15))
    assert (sarah.tracking_number, sarah.total) == ("1Z999AA10123456784", Decimal("36.98"))
    assert [(item.title, item.price, item.category) for item in sarah.items.all()] == [
        ("The Goldfinch", Decimal("16.99"), "fiction"),
        ("Sapiens", Decimal("19.99"), "nonfiction"),
    ]
    assert order_eligibility(order=sarah).eligible is True

    james = order_get_for_customer(order_id="BK-10089", email="james.murphy@example.com")
    assert (james.customer_name, james.status, james.delivered_date) == ("James Murphy", "shipped", None)
    assert [(item.title, item.price) for item in james.items.all()] == [("Project Hail Mary", Decimal("18.99"))]

    later = order_get_for_customer(order_id="BK-10103", email="sarah.chen@example.com")
    assert (later.customer_name, later.status, later.order_date) == ("Sarah Chen", "processing", ago(1))
    assert [(item.title, item.price) for item in later.items.all()] == [
        ("Tomorrow, and Tomorrow, and Tomorrow", Decimal("17.99"))
    ]

    maria = order_get_for_customer(order_id="BK-9871", email="maria.gonzalez@example.com")
    assert (maria.customer_name, maria.status, maria.delivered_date) == ("Maria Gonzalez", "delivered", ago(55))
    assert [(item.title, item.price) for item in maria.items.all()] == [("The Midnight Library", Decimal("15.99"))]
    assert order_eligibility(order=maria).reason == "outside_return_window"


@pytest.mark.parametrize(
    ("order_id", "eligible", "reason", "returnable_titles"),
    [
        ("BK-10120", True, "", ["Lessons in Chemistry"]),  # ebook + audiobook + printed book
        ("BK-10131", False, "nothing_returnable", []),  # gift card + personalized
        ("BK-10150", True, "", ["Pachinko", "Braiding Sweetgrass", "Where the Sidewalk Ends", "Maus"]),
        ("BK-10077", True, "", ["Circe"]),  # delivered exactly 30 days ago: last day
        ("BK-10095", False, "order_not_delivered", ["The Silent Patient"]),  # cancelled
    ],
)
def test_the_extra_demo_orders_cover_each_return_situation(order_id, eligible, reason, returnable_titles):
    load_demo()
    result = order_eligibility(order=Order.objects.get(order_id=order_id))
    assert (result.eligible, result.reason) == (eligible, reason)
    assert [item.title for item in result.items if item.returnable] == returnable_titles


def test_the_demo_order_on_its_last_day_was_delivered_exactly_thirty_days_ago():
    load_demo()
    assert Order.objects.get(order_id="BK-10077").delivered_date == ago(30)


def test_loading_the_demo_twice_changes_nothing():
    assert "created 9, updated 0, unchanged 0" in load_demo()
    snapshot = list(Order.objects.order_by("id").values_list("id", "order_id", "updated_at"))
    items = list(OrderItem.objects.order_by("id").values_list("id", "title"))
    assert "created 0, updated 0, unchanged 9" in load_demo()
    assert list(Order.objects.order_by("id").values_list("id", "order_id", "updated_at")) == snapshot
    assert list(OrderItem.objects.order_by("id").values_list("id", "title")) == items


def test_generate_orders_creates_valid_orders_in_their_own_id_range():
    load_demo()
    out = StringIO()
    call_command("generate_orders", "300", "--seed", "7", stdout=out)
    assert "created 300 orders (BK-200000 to BK-200299)" in out.getvalue()
    call_command("generate_orders", "5", stdout=StringIO())
    generated = Order.objects.filter(order_id__startswith="BK-2", order_id__regex=r"^BK-2[0-9]{5}$")
    assert generated.count() == 305
    assert Order.objects.count() == 305 + 9
    assert not OrderItem.objects.filter(order__in=generated).filter(price__lt=0).exists()
    last = generated.order_by("-order_id").first()
    assert last.order_id == "BK-200304"
    assert last.total == sum(item.price for item in last.items.all())
    assert last.email == last.email.lower()
    assert (last.status == "delivered") == (last.delivered_date is not None)


def test_generated_records_pass_the_import_validation_and_depend_only_on_the_seed():
    today = timezone.localdate()
    first = synthetic_order_records(count=200, seed=3, first_number=200000, today=today)
    assert first == synthetic_order_records(count=200, seed=3, first_number=200000, today=today)
    assert first != synthetic_order_records(count=200, seed=4, first_number=200000, today=today)
    records, errors = records_validate(list(enumerate(first, start=1)))
    assert (len(records), errors) == (200, [])


@pytest.mark.parametrize("count", ["0", "-3", "100001"])
def test_generate_orders_refuses_counts_it_cannot_honour(count):
    with pytest.raises(CommandError):
        call_command("generate_orders", count, stdout=StringIO())
    assert Order.objects.count() == 0

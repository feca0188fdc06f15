"""The staff pages: find an order by id or email; returns are read-only records."""

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client

from orders.models import Return
from tests.orders.factories import BOB_EMAIL, order_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("staff", "staff@example.com", "pw-not-used-123"))
    return client


@pytest.mark.parametrize(
    ("query", "shown", "hidden"),
    [
        ("bk-1001", "BK-1001", "BK-1002"),
        ("  BK-1002 ", "BK-1002", "BK-1001"),
        ("Bob@Example.com", "BK-1002", "BK-1001"),
    ],
)
def test_staff_find_orders_by_exact_order_id_or_email(staff, query, shown, hidden):
    order_create("BK-1001")
    order_create("BK-1002", email=BOB_EMAIL)
    response = staff.get("/admin/orders/order/", {"q": query})
    assert response.status_code == 200
    assert shown in response.content.decode()
    assert hidden not in response.content.decode()


def test_an_order_page_shows_its_items_inline(staff):
    order = order_create()
    response = staff.get(f"/admin/orders/order/{order.pk}/change/")
    assert response.status_code == 200
    assert "The Goldfinch" in response.content.decode()


def test_a_return_cannot_be_added_deleted_or_have_its_amount_edited(staff):
    order = order_create()
    rma = Return.objects.create(order=order, reason="Damaged", refund_amount=Decimal("16.99"), refund_method="Visa")
    assert staff.get("/admin/orders/return/add/").status_code == 403
    assert staff.get(f"/admin/orders/return/{rma.pk}/delete/").status_code == 403
    response = staff.post(
        f"/admin/orders/return/{rma.pk}/change/",
        {
            "status": "received",
            "refund_amount": "999.00",
            "reason": "edited",
            "items-TOTAL_FORMS": "0",
            "items-INITIAL_FORMS": "0",
            "items-MIN_NUM_FORMS": "0",
            "items-MAX_NUM_FORMS": "0",
        },
    )
    assert response.status_code == 302
    rma.refresh_from_db()
    assert (rma.status, rma.refund_amount, rma.reason) == ("received", Decimal("16.99"), "Damaged")


def test_the_returns_list_shows_rma_order_and_amount(staff):
    order = order_create()
    rma = Return.objects.create(order=order, reason="Damaged", refund_amount=Decimal("16.99"), refund_method="Visa")
    page = staff.get("/admin/orders/return/").content.decode()
    assert rma.rma_number in page and "BK-1001" in page and "16.99" in page

"""Reads: an order only for its own email, a customer's orders newest first, returns per thread."""

import uuid
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from orders.models import Return
from orders.selectors import order_get_for_customer, orders_for_email, returns_count_for_thread
from tests.orders.factories import ALICE_EMAIL, BOB_EMAIL, order_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("order_id", "email", "found"),
    [
        ("BK-1001", ALICE_EMAIL, True),
        ("  bk-1001 ", "  ALICE@Example.COM ", True),  # normalised like the store stores them
        ("BK-1001", BOB_EMAIL, False),
        ("BK-1001", "alice@example.co", False),
        ("BK-1001", "alice@example.comm", False),
        ("BK-1001", "", False),
        ("BK-1001", "alice@exampłe.com", False),  # non-ASCII must not crash compare_digest
        ("BK-1001", "\u212aalice@example.com", False),
        ("BK-9999", ALICE_EMAIL, False),
        ("BK-1001' OR '1'='1", ALICE_EMAIL, False),
        ("", ALICE_EMAIL, False),
    ],
)
def test_an_order_is_returned_only_for_its_own_email(order_id, email, found):
    order_create(email=ALICE_EMAIL)
    order = order_get_for_customer(order_id=order_id, email=email)
    assert (order is not None) == found
    if found:
        assert order.order_id == "BK-1001"


def test_a_found_order_has_its_items_prefetched():
    order_create()
    order = order_get_for_customer(order_id="BK-1001", email=ALICE_EMAIL)
    with CaptureQueriesContext(connection) as queries:
        titles = [item.title for item in order.items.all()]
    assert titles == ["The Goldfinch", "Sapiens"]
    assert len(queries) == 0


def test_a_wrong_email_costs_the_same_queries_as_a_missing_order():
    order_create()
    with CaptureQueriesContext(connection) as wrong:
        order_get_for_customer(order_id="BK-1001", email=BOB_EMAIL)
    with CaptureQueriesContext(connection) as missing:
        order_get_for_customer(order_id="BK-9999", email=BOB_EMAIL)
    assert len(wrong) == len(missing) == 1


def test_orders_for_email_are_the_customers_own_newest_first():
    order_create("BK-1001", delivered_days_ago=20)
    order_create("BK-1002", delivered_days_ago=2)
    order_create("BK-1003", email=BOB_EMAIL, delivered_days_ago=1)
    assert [order.order_id for order in orders_for_email(email=" Alice@Example.com")] == ["BK-1002", "BK-1001"]
    assert [order.order_id for order in orders_for_email(email=BOB_EMAIL)] == ["BK-1003"]
    assert orders_for_email(email="nobody@example.com") == []


def test_emails_are_stored_lower_cased():
    order = order_create(email="Alice@Example.COM")
    order.refresh_from_db()
    assert order.email == ALICE_EMAIL


def test_returns_are_counted_per_thread():
    order = order_create()
    thread_id = uuid.uuid4()
    for thread in (thread_id, thread_id, uuid.uuid4(), None):
        Return.objects.create(
            order=order, reason="x", refund_amount=Decimal("1.00"), refund_method="x", thread_id=thread
        )
    assert returns_count_for_thread(thread_id=thread_id) == 2
    assert returns_count_for_thread(thread_id=str(uuid.uuid4())) == 0

"""Return eligibility: the window, the order's status, and each item's category and history."""

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from orders.models import Order, Return, ReturnItem
from orders.policy import NON_RETURNABLE_CATEGORIES, RETURN_WINDOW_DAYS
from orders.services import order_eligibility
from tests.orders.factories import days_ago, order_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("days_since_delivery", "eligible", "reason"),
    [
        (0, True, ""),
        (1, True, ""),
        (29, True, ""),
        (30, True, ""),  # the last day inside the window
        (31, False, "outside_return_window"),
        (55, False, "outside_return_window"),
    ],
)
def test_the_window_is_thirty_days_from_delivery_inclusive(days_since_delivery, eligible, reason):
    order = order_create(delivered_days_ago=days_since_delivery)
    result = order_eligibility(order=order)
    assert (result.eligible, result.reason) == (eligible, reason)
    assert result.days_since_delivery == days_since_delivery
    assert result.window_ends == order.delivered_date + timedelta(days=RETURN_WINDOW_DAYS)


def test_eligibility_is_computed_for_the_day_it_is_given():
    order = order_create(delivered_days_ago=0)
    last_day = order.delivered_date + timedelta(days=30)
    assert order_eligibility(order=order, today=last_day).eligible is True
    assert order_eligibility(order=order, today=last_day + timedelta(days=1)).reason == "outside_return_window"


@pytest.mark.parametrize("status", [Order.Status.PROCESSING, Order.Status.SHIPPED, Order.Status.CANCELLED])
def test_an_order_that_was_not_delivered_is_not_eligible(status):
    result = order_eligibility(order=order_create(status=status))
    assert (result.eligible, result.reason) == (False, "order_not_delivered")
    assert (result.delivered_date, result.window_ends, result.days_since_delivery) == (None, None, None)
    # Items are still described, so the model can say which ones could be returned later.
    assert [item.returnable for item in result.items] == [True, True]


@pytest.mark.parametrize("category", sorted(NON_RETURNABLE_CATEGORIES))
def test_non_returnable_categories_are_marked_per_item(category):
    order = order_create(items=[("Keeper", "10.00", category), ("Paperback", "12.00", "fiction")])
    result = order_eligibility(order=order)
    assert result.eligible is True
    assert [(item.title, item.returnable, item.reason) for item in result.items] == [
        ("Keeper", False, "item_not_returnable"),
        ("Paperback", True, ""),
    ]


def test_an_order_of_only_non_returnable_items_has_nothing_returnable():
    order = order_create(items=[("Gift Card", "25.00", "gift_card"), ("Signed", "24.99", "personalized")])
    result = order_eligibility(order=order)
    assert (result.eligible, result.reason) == (False, "nothing_returnable")


def _mark_returned(order, *titles):
    rma = Return.objects.create(order=order, reason="test", refund_amount=Decimal("0"), refund_method="x")
    for item in order.items.filter(title__in=titles):
        ReturnItem.objects.create(rma=rma, order_item=item, refund_amount=item.price)


def test_an_already_returned_item_is_not_returnable_again():
    order = order_create()
    _mark_returned(order, "The Goldfinch")
    result = order_eligibility(order=order)
    assert result.eligible is True  # Sapiens can still go back
    assert {item.title: item.reason for item in result.items} == {"The Goldfinch": "already_returned", "Sapiens": ""}


def test_an_order_whose_items_were_all_returned_has_nothing_returnable():
    order = order_create()
    _mark_returned(order, "The Goldfinch", "Sapiens")
    result = order_eligibility(order=order)
    assert (result.eligible, result.reason) == (False, "nothing_returnable")


def test_the_window_reason_wins_over_nothing_returnable():
    order = order_create(delivered_days_ago=40, items=[("Gift Card", "25.00", "gift_card")])
    assert order_eligibility(order=order).reason == "outside_return_window"


def test_eligibility_as_dict_is_json_safe_with_iso_dates_and_money_strings():
    order = order_create(delivered_days_ago=15)
    data = order_eligibility(order=order).as_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["delivered_date"] == days_ago(15).isoformat()
    assert data["window_ends"] == (days_ago(15) + timedelta(days=30)).isoformat()
    assert data["days_since_delivery"] == 15
    assert [(item["title"], item["price"], item["returnable"]) for item in data["items"]] == [
        ("The Goldfinch", "16.99", True),
        ("Sapiens", "19.99", True),
    ]
    assert (data["eligible"], data["reason"], data["order_id"]) == (True, "", "BK-1001")


def test_eligibility_defaults_to_today():
    order = order_create(delivered_days_ago=3)
    assert order_eligibility(order=order) == order_eligibility(order=order, today=timezone.localdate())

"""The effect of a return (computed, nothing written) and return_create (re-checked, locked, unique)."""

import json
import threading
import uuid
from dataclasses import replace
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction

from orders import services
from orders.models import RETURN_ITEM_UNIQUE, Order, OrderItem, Return, ReturnItem
from orders.policy import REFUND_METHOD, RETURN_LABEL_INSTRUCTIONS
from orders.services import ReturnEffect, ReturnRejected, return_create, return_effect_compute
from tests.orders.factories import order_create

pytestmark = pytest.mark.django_db

FOUR_BOOKS = [
    ("Pachinko", "16.99", "fiction"),
    ("Braiding Sweetgrass", "18.00", "nonfiction"),
    ("Where the Sidewalk Ends", "14.99", "poetry"),
    ("Maus", "19.99", "comics"),
]


def _item_ids(order, *titles):
    by_title = {item.title: item.id for item in order.items.all()}
    return tuple(by_title[title] for title in titles)


# --- return_effect_compute ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("requested", "titles", "unmatched", "refund"),
    [
        (None, ("Pachinko", "Braiding Sweetgrass", "Where the Sidewalk Ends", "Maus"), (), "69.97"),
        ([], ("Pachinko", "Braiding Sweetgrass", "Where the Sidewalk Ends", "Maus"), (), "69.97"),
        (["Maus"], ("Maus",), (), "19.99"),
        (["  maus ", "PACHINKO"], ("Pachinko", "Maus"), (), "36.98"),  # trimmed, any case, order's order
        (["Maus", "Dune"], ("Maus",), ("Dune",), "19.99"),
        (["Mau", "Maus!"], (), ("Mau", "Maus!"), "0.00"),  # exact titles only, no partial match
        (["Maus", "Maus"], ("Maus",), ("Maus",), "19.99"),  # one copy bought, one copy to return
    ],
)
def test_effect_resolves_titles_to_the_orders_items(requested, titles, unmatched, refund):
    order = order_create(items=FOUR_BOOKS)
    effect = return_effect_compute(order=order, item_titles=requested, reason="Changed my mind")
    assert effect.titles == titles
    assert effect.item_ids == _item_ids(order, *titles)
    assert effect.unmatched_titles == unmatched
    assert effect.refund_amount == Decimal(refund)
    assert isinstance(effect.refund_amount, Decimal)


def test_default_effect_is_every_currently_returnable_item():
    order = order_create(
        items=[
            ("Dune", "9.99", "ebook"),
            ("Educated", "14.99", "audiobook"),
            ("Lessons in Chemistry", "17.99", "fiction"),
            ("Circe", "15.99", "fiction"),
        ]
    )
    return_create(effect=return_effect_compute(order=order, item_titles=["Circe"], reason="Damaged"))
    effect = return_effect_compute(order=order, item_titles=None, reason="Damaged")
    assert effect.titles == ("Lessons in Chemistry",)
    assert effect.refund_amount == Decimal("17.99")


def test_a_matched_item_that_is_not_returnable_stays_in_the_effect_for_the_checks_to_name():
    order = order_create(items=[("Dune", "9.99", "ebook"), ("Circe", "15.99", "fiction")])
    effect = return_effect_compute(order=order, item_titles=["Dune"], reason="Did not like it")
    assert effect.titles == ("Dune",)
    with pytest.raises(ReturnRejected) as rejected:
        return_create(effect=effect)
    assert rejected.value.code == "item_not_returnable"


def test_two_copies_of_a_title_match_a_returnable_copy_first():
    order = order_create(items=[("Circe", "15.99", "fiction"), ("Circe", "15.99", "fiction")])
    return_create(effect=return_effect_compute(order=order, item_titles=["Circe"], reason="Duplicate gift"))
    second = return_effect_compute(order=order, item_titles=["Circe"], reason="Duplicate gift")
    assert second.item_ids == (order.items.order_by("position")[1].id,)
    assert return_create(effect=second).refund_amount == Decimal("15.99")


def test_effect_carries_the_orders_payment_method_reason_and_label_instructions():
    order = order_create(payment_method="Visa ending 4242")
    effect = return_effect_compute(order=order, item_titles=None, reason="  Arrived damaged  ")
    assert (effect.refund_method, effect.reason) == ("Visa ending 4242", "Arrived damaged")
    assert effect.label_instructions == RETURN_LABEL_INSTRUCTIONS
    blank = order_create("BK-1002", payment_method="")
    assert return_effect_compute(order=blank, item_titles=None, reason="x").refund_method == REFUND_METHOD


def test_computing_an_effect_writes_nothing():
    order = order_create()
    return_effect_compute(order=order, item_titles=None, reason="Changed my mind")
    assert (Return.objects.count(), ReturnItem.objects.count()) == (0, 0)


def test_effect_as_dict_is_json_safe_and_round_trips():
    order = order_create(items=FOUR_BOOKS)
    effect = return_effect_compute(order=order, item_titles=["Maus", "Nope"], reason="Too long")
    data = effect.as_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["refund_amount"] == "19.99"
    assert data["item_ids"] == list(effect.item_ids)
    assert data["unmatched_titles"] == ["Nope"]
    assert ReturnEffect.from_dict(data) == effect


def test_the_fingerprint_is_stable_and_changes_with_any_field():
    order = order_create(items=FOUR_BOOKS)
    effect = return_effect_compute(order=order, item_titles=["Maus"], reason="Too long")
    again = return_effect_compute(order=order, item_titles=["maus"], reason="Too long")
    assert effect.fingerprint() == again.fingerprint()
    assert len(effect.fingerprint()) == 64
    changed = [
        replace(effect, refund_amount=Decimal("19.98")),
        replace(effect, reason="Too short"),
        replace(effect, item_ids=(0,)),
        replace(effect, refund_method="Cash"),
        replace(effect, titles=("M",)),
    ]
    assert len({effect.fingerprint(), *(other.fingerprint() for other in changed)}) == 6


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"order_id": "BK-1001"},
        {
            "order_id": "BK-1001",
            "item_ids": "1",
            "titles": [],
            "unmatched_titles": [],
            "refund_amount": "1.00",
            "refund_method": "x",
            "reason": "r",
            "label_instructions": "l",
        },
        {
            "order_id": "BK-1001",
            "item_ids": [True],
            "titles": [],
            "unmatched_titles": [],
            "refund_amount": "1.00",
            "refund_method": "x",
            "reason": "r",
            "label_instructions": "l",
        },
        {
            "order_id": "BK-1001",
            "item_ids": [1],
            "titles": [],
            "unmatched_titles": [],
            "refund_amount": "NaN",
            "refund_method": "x",
            "reason": "r",
            "label_instructions": "l",
        },
        {
            "order_id": "BK-1001",
            "item_ids": [1],
            "titles": [],
            "unmatched_titles": [],
            "refund_amount": "lots",
            "refund_method": "x",
            "reason": "r",
            "label_instructions": "l",
        },
        {
            "order_id": "BK-1001",
            "item_ids": [1],
            "titles": [],
            "unmatched_titles": [],
            "refund_amount": 1,
            "refund_method": "x",
            "reason": "r",
            "label_instructions": "l",
        },
    ],
)
def test_a_malformed_stored_effect_is_refused(data):
    with pytest.raises(ValueError):
        ReturnEffect.from_dict(data)


# --- return_create ----------------------------------------------------------------------------------


def test_return_create_writes_the_return_and_its_items():
    order = order_create(items=FOUR_BOOKS)
    thread_id, run_id = uuid.uuid4(), uuid.uuid4()
    effect = return_effect_compute(order=order, item_titles=["Maus", "Pachinko"], reason="Changed my mind")
    rma = return_create(effect=effect, thread_id=thread_id, run_id=run_id)
    rma.refresh_from_db()
    assert rma.rma_number.startswith("RMA-") and len(rma.rma_number) == 12
    assert rma.rma_number[4:].isalnum() and rma.rma_number[4:].upper() == rma.rma_number[4:]
    assert (rma.order_id, rma.reason, rma.refund_amount) == (order.id, "Changed my mind", Decimal("36.98"))
    assert (rma.refund_method, rma.status) == ("Visa ending 4242", Return.Status.REQUESTED)
    assert (rma.thread_id, rma.run_id) == (thread_id, run_id)
    assert sorted((item.order_item.title, item.refund_amount) for item in rma.items.all()) == [
        ("Maus", Decimal("19.99")),
        ("Pachinko", Decimal("16.99")),
    ]


def test_partial_returns_can_follow_each_other_until_nothing_is_left():
    order = order_create(items=FOUR_BOOKS)
    for titles in (["Maus"], ["Pachinko", "Braiding Sweetgrass"], None):
        return_create(effect=return_effect_compute(order=order, item_titles=titles, reason="Partial"))
    assert ReturnItem.objects.filter(order_item__order=order).count() == 4
    assert Return.objects.filter(order=order).count() == 3
    assert services.order_eligibility(order=order).reason == "nothing_returnable"


def test_a_second_return_of_the_same_item_is_rejected():
    order = order_create()
    effect = return_effect_compute(order=order, item_titles=["The Goldfinch"], reason="Changed my mind")
    return_create(effect=effect)
    with pytest.raises(ReturnRejected) as rejected:
        return_create(effect=effect)
    assert rejected.value.code == "already_returned"
    assert Return.objects.count() == 1


def test_the_same_effect_applied_twice_is_rejected_even_after_partial_overlap():
    order = order_create(items=FOUR_BOOKS)
    both = return_effect_compute(order=order, item_titles=["Maus", "Pachinko"], reason="x")
    return_create(effect=return_effect_compute(order=order, item_titles=["Pachinko"], reason="x"))
    with pytest.raises(ReturnRejected) as rejected:
        return_create(effect=both)
    assert rejected.value.code == "already_returned"
    assert not ReturnItem.objects.filter(order_item__title="Maus").exists()


def _effect(order, **changes):
    return replace(return_effect_compute(order=order, item_titles=None, reason="Changed my mind"), **changes)


@pytest.mark.parametrize(
    ("order_kwargs", "changes", "code"),
    [
        ({"status": Order.Status.SHIPPED}, {}, "order_not_delivered"),
        ({"status": Order.Status.CANCELLED}, {}, "order_not_delivered"),
        ({"delivered_days_ago": 31}, {}, "outside_return_window"),
        ({}, {"unmatched_titles": ("Dune",)}, "item_not_in_order"),
        ({}, {"item_ids": (), "titles": ()}, "nothing_returnable"),
        ({}, {"reason": ""}, "invalid_reason"),
        ({}, {"reason": "x" * 501}, "invalid_reason"),
        ({}, {"reason": "ok\x00"}, "invalid_reason"),
        ({}, {"order_id": "BK-9999"}, "order_not_found"),
        ({}, {"refund_amount": Decimal("99.00")}, "effect_changed"),
        ({}, {"refund_method": "Gift card"}, "effect_changed"),
        ({}, {"titles": ("Sapiens", "The Goldfinch")}, "effect_changed"),
        ({}, {"label_instructions": "Keep the book."}, "effect_changed"),
    ],
)
def test_return_create_rejects_an_effect_that_no_longer_holds(order_kwargs, changes, code):
    order = order_create(**order_kwargs)
    with pytest.raises(ReturnRejected) as rejected:
        return_create(effect=_effect(order, **changes))
    assert rejected.value.code == code
    assert Return.objects.count() == 0


def test_an_item_of_another_order_is_not_in_this_order():
    order = order_create()
    other = order_create("BK-1002", items=[("Circe", "15.99", "fiction")])
    effect = _effect(order, item_ids=(other.items.get().id,), titles=("Circe",), refund_amount=Decimal("15.99"))
    with pytest.raises(ReturnRejected) as rejected:
        return_create(effect=effect)
    assert rejected.value.code == "item_not_in_order"


def test_an_item_repeated_in_one_effect_is_rejected():
    order = order_create()
    item = order.items.get(title="Sapiens")
    effect = _effect(order, item_ids=(item.id, item.id), titles=("Sapiens", "Sapiens"), refund_amount=Decimal("39.98"))
    with pytest.raises(ReturnRejected) as rejected:
        return_create(effect=effect)
    assert rejected.value.code == "already_returned"


def test_a_price_change_since_the_effect_was_computed_is_an_effect_change():
    order = order_create()
    effect = return_effect_compute(order=order, item_titles=["Sapiens"], reason="x")
    OrderItem.objects.filter(title="Sapiens").update(price=Decimal("9.99"))
    with pytest.raises(ReturnRejected) as rejected:
        return_create(effect=effect)
    assert rejected.value.code == "effect_changed"


def test_the_database_refuses_a_second_return_item_for_the_same_order_item():
    order = order_create()
    rma = Return.objects.create(order=order, reason="x", refund_amount=Decimal("16.99"), refund_method="x")
    item_id = order.items.get(title="The Goldfinch").id
    insert = "INSERT INTO orders_returnitem (rma_id, order_item_id, refund_amount) VALUES (%s, %s, %s)"
    with connection.cursor() as cursor:
        cursor.execute(insert, [rma.id, item_id, "16.99"])
        with pytest.raises(IntegrityError) as error, transaction.atomic():
            cursor.execute(insert, [rma.id, item_id, "16.99"])
    assert error.value.__cause__.diag.constraint_name == RETURN_ITEM_UNIQUE
    assert ReturnItem.objects.filter(order_item_id=item_id).count() == 1


def test_the_unique_constraint_is_the_last_line_of_defence_when_the_check_is_bypassed(monkeypatch):
    order = order_create()
    effect = return_effect_compute(order=order, item_titles=["The Goldfinch"], reason="x")
    return_create(effect=effect)
    # Simulate a check that missed the earlier return: the constraint must still refuse it.
    monkeypatch.setattr(services, "_returned_item_ids", lambda order: set())
    with pytest.raises(ReturnRejected) as rejected:
        return_create(effect=effect)
    assert rejected.value.code == "already_returned"
    assert Return.objects.count() == 1  # the second Return row was rolled back with its item


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_returns_of_the_same_item_create_exactly_one():
    order = order_create()
    effect = return_effect_compute(order=order, item_titles=["The Goldfinch"], reason="Changed my mind")
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def attempt() -> None:
        try:
            barrier.wait(timeout=10)
            return_create(effect=effect)
            outcomes.append("created")
        except ReturnRejected as rejected:
            outcomes.append(rejected.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["already_returned", "created"]
    assert Return.objects.count() == 1
    assert ReturnItem.objects.count() == 1

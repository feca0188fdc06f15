"""L3 checks as pure functions: every rule of stage 1 and stage 2 passes once and refuses once.

The checks read no database, so the tables build GuardState, GuardrailPolicy (unsaved),
Eligibility and ReturnEffect values by hand. The eligibility rules themselves live in
orders/, and are exercised here with real rows at their boundaries.
"""

from datetime import date, timedelta
from decimal import Decimal

import pytest

from guardrails.checks import MESSAGES, check_effect, check_tool_call
from guardrails.models import GuardrailPolicy
from guardrails.state import GuardState
from orders.models import Order, OrderItem
from orders.services import Eligibility, ItemEligibility, ReturnEffect, order_eligibility, return_effect_compute

SARAH = "sarah.chen@example.com"
JAMES = "james.murphy@example.com"
ALL_TOOLS = ["lookup_policy", "lookup_order", "list_customer_orders", "check_return_eligibility", "initiate_return"]
ALWAYS = GuardrailPolicy.ConfirmationMode.ALWAYS
ABOVE_AMOUNT = GuardrailPolicy.ConfirmationMode.ABOVE_AMOUNT


def policy(**changes) -> GuardrailPolicy:
    """An unsaved policy with the model's defaults, changed where a case says so."""
    return GuardrailPolicy(**changes)


def state(*, verified=(), eligible=(), pending=(), returns_started: int = 0) -> GuardState:
    verified = frozenset(verified)
    return GuardState(
        verified=verified,
        verified_emails=frozenset(email for _, email in verified),
        eligible_orders=frozenset(eligible),
        pending_orders=frozenset(pending),
        returns_started=returns_started,
    )


NOTHING = state()
SARAH_CHECKED = state(verified={("BK-10042", SARAH)}, eligible={"BK-10042"})
SARAH_TWO_ORDERS = state(verified={("BK-10042", SARAH), ("BK-10103", SARAH)}, eligible={"BK-10042"})


def lookup(order_id: str = "BK-10042", email: str = SARAH) -> dict:
    return {"order_id": order_id, "customer_email": email}


def start_return(order_id: str = "BK-10042", email: str = SARAH) -> dict:
    return {"order_id": order_id, "customer_email": email, "reason": "changed my mind"}


# --- Stage 1: check_tool_call ---------------------------------------------------------------------

STAGE_1 = [
    # (name, arguments, state, policy changes, expected code; "" passes)
    pytest.param(
        "lookup_order",
        lookup(),
        NOTHING,
        {"allowed_tools": ["lookup_order"]},
        "",
        id="tool_not_allowed-listed-tool-passes",
    ),
    pytest.param(
        "lookup_policy",
        {"topic": "shipping"},
        NOTHING,
        {"allowed_tools": []},
        "",
        id="tool_not_allowed-empty-list-allows-every-tool",
    ),
    pytest.param(
        "initiate_return",
        start_return(),
        SARAH_CHECKED,
        {"allowed_tools": ALL_TOOLS[:4]},
        "tool_not_allowed",
        id="tool_not_allowed-switched-off-tool",
    ),
    pytest.param(
        "lookup_policy",
        {"topic": "shipping"},
        NOTHING,
        {"allowed_tools": ["lookup_order"]},
        "tool_not_allowed",
        id="tool_not_allowed-even-a-read-only-tool",
    ),
    pytest.param(
        "lookup_order",
        lookup("BK-10042", "  Sarah.Chen@EXAMPLE.com "),
        SARAH_CHECKED,
        {},
        "",
        id="identity_mismatch-case-and-whitespace-normalised-email-passes",
    ),
    pytest.param(
        "initiate_return",
        start_return(" bk-10042 ", "SARAH.CHEN@example.COM\t"),
        SARAH_CHECKED,
        {},
        "",
        id="identity_mismatch-normalised-email-and-order-id-pass-for-a-return",
    ),
    pytest.param(
        "lookup_order",
        lookup("BK-10089", JAMES),
        SARAH_CHECKED,
        {},
        "identity_mismatch",
        id="identity_mismatch-another-email-after-verification",
    ),
    pytest.param(
        "check_return_eligibility",
        lookup("BK-10042", "sarah.chen@example.org"),
        SARAH_CHECKED,
        {},
        "identity_mismatch",
        id="identity_mismatch-lookalike-email",
    ),
    pytest.param(
        "initiate_return",
        start_return("BK-10042", JAMES),
        SARAH_CHECKED,
        {},
        "identity_mismatch",
        id="identity_mismatch-return-with-another-email",
    ),
    pytest.param(
        "lookup_order",
        lookup("BK-10089", JAMES),
        NOTHING,
        {},
        "",
        id="identity_mismatch-nothing-verified-yet-any-email-may-look-up",
    ),
    pytest.param(
        "list_customer_orders",
        {"customer_email": SARAH},
        SARAH_CHECKED,
        {},
        "",
        id="identity_not_verified-list-with-verified-email-passes",
    ),
    pytest.param(
        "list_customer_orders",
        {"customer_email": " Sarah.Chen@Example.com"},
        SARAH_CHECKED,
        {},
        "",
        id="identity_not_verified-list-with-normalised-verified-email-passes",
    ),
    pytest.param(
        "list_customer_orders",
        {"customer_email": SARAH},
        NOTHING,
        {},
        "identity_not_verified",
        id="identity_not_verified-list-before-any-verification",
    ),
    pytest.param(
        "list_customer_orders", {}, NOTHING, {}, "identity_not_verified", id="identity_not_verified-list-without-email"
    ),
    pytest.param(
        "initiate_return",
        start_return(),
        SARAH_CHECKED,
        {},
        "",
        id="identity_not_verified-return-of-verified-order-passes",
    ),
    pytest.param(
        "initiate_return",
        start_return(),
        NOTHING,
        {},
        "identity_not_verified",
        id="identity_not_verified-return-before-any-verification",
    ),
    pytest.param(
        "initiate_return",
        start_return("BK-10103"),
        SARAH_CHECKED,
        {},
        "identity_not_verified",
        id="identity_not_verified-return-of-an-order-never-looked-up",
    ),
    pytest.param(
        "initiate_return",
        {"order_id": "BK-10042", "reason": "x"},
        SARAH_CHECKED,
        {},
        "identity_not_verified",
        id="identity_not_verified-return-without-email",
    ),
    pytest.param(
        "initiate_return",
        {**start_return(), "customer_email": 42},
        SARAH_CHECKED,
        {},
        "identity_not_verified",
        id="identity_not_verified-return-with-non-string-email",
    ),
    pytest.param(
        "initiate_return",
        start_return(),
        SARAH_CHECKED,
        {"returns_enabled": True},
        "",
        id="returns_disabled-enabled-passes",
    ),
    pytest.param(
        "initiate_return",
        start_return(),
        SARAH_CHECKED,
        {"returns_enabled": False},
        "returns_disabled",
        id="returns_disabled-disabled",
    ),
    pytest.param(
        "check_return_eligibility",
        lookup(),
        SARAH_CHECKED,
        {"returns_enabled": False},
        "",
        id="returns_disabled-eligibility-may-still-be-checked",
    ),
    pytest.param(
        "initiate_return",
        start_return("BK-10042"),
        SARAH_TWO_ORDERS,
        {},
        "",
        id="eligibility_not_verified-the-checked-order-passes",
    ),
    pytest.param(
        "initiate_return",
        start_return("BK-10103"),
        SARAH_TWO_ORDERS,
        {},
        "eligibility_not_verified",
        id="eligibility_not_verified-checked-a-different-order",
    ),
    pytest.param(
        "initiate_return",
        start_return(),
        state(verified={("BK-10042", SARAH)}),
        {},
        "eligibility_not_verified",
        id="eligibility_not_verified-verified-but-never-checked",
    ),
    pytest.param(
        "initiate_return",
        start_return(),
        state(verified={("BK-10042", SARAH)}, eligible={"BK-10042"}, pending={"BK-10103"}),
        {},
        "",
        id="return_pending-another-order-pending-passes",
    ),
    pytest.param(
        "initiate_return",
        start_return(),
        state(verified={("BK-10042", SARAH)}, eligible={"BK-10042"}, pending={"BK-10042"}),
        {},
        "return_pending",
        id="return_pending-this-order-pending",
    ),
    pytest.param(
        "initiate_return",
        start_return(),
        state(verified={("BK-10042", SARAH)}, eligible={"BK-10042"}, returns_started=1),
        {"returns_per_thread": 2},
        "",
        id="return_limit_exceeded-limit-minus-one-passes",
    ),
    pytest.param(
        "initiate_return",
        start_return(),
        state(verified={("BK-10042", SARAH)}, eligible={"BK-10042"}, returns_started=2),
        {"returns_per_thread": 2},
        "return_limit_exceeded",
        id="return_limit_exceeded-at-the-limit",
    ),
    pytest.param(
        "initiate_return",
        start_return(),
        SARAH_CHECKED,
        {"returns_per_thread": 0},
        "return_limit_exceeded",
        id="return_limit_exceeded-limit-zero-refuses-the-first",
    ),
]


@pytest.mark.parametrize(("name", "arguments", "guard_state", "changes", "expected"), STAGE_1)
def test_check_tool_call_applies_each_stage_1_rule(name, arguments, guard_state, changes, expected):
    verdict = check_tool_call(name=name, arguments=arguments, state=guard_state, policy=policy(**changes))

    assert verdict.allowed is (expected == "")
    assert verdict.code == expected
    if expected:
        assert verdict.codes == (expected,)
        assert verdict.detail == MESSAGES[expected]
    assert verdict.needs_confirmation is False


# --- Stage 2: check_effect ------------------------------------------------------------------------

GOLDFINCH = ItemEligibility(
    item_id=1, title="The Goldfinch", price=Decimal("16.99"), category="fiction", returnable=True, reason=""
)
SAPIENS = ItemEligibility(
    item_id=2, title="Sapiens", price=Decimal("19.99"), category="nonfiction", returnable=True, reason=""
)
DUNE_EBOOK = ItemEligibility(
    item_id=3, title="Dune", price=Decimal("9.99"), category="ebook", returnable=False, reason="item_not_returnable"
)
CIRCE_RETURNED = ItemEligibility(
    item_id=4, title="Circe", price=Decimal("15.99"), category="fiction", returnable=False, reason="already_returned"
)
ITEMS = (GOLDFINCH, SAPIENS, DUNE_EBOOK, CIRCE_RETURNED)
BY_ID = {item.item_id: item for item in ITEMS}


def eligibility(reason: str = "") -> Eligibility:
    delivered = date(2025, 3, 1)
    return Eligibility(
        order_id="BK-10042",
        eligible=not reason,
        reason=reason,
        delivered_date=delivered,
        window_ends=delivered + timedelta(days=30),
        days_since_delivery=5,
        items=ITEMS,
    )


def effect(*item_ids: int, refund: str | None = None, unmatched: tuple[str, ...] = ()) -> ReturnEffect:
    """The effect of returning these items; the refund is what was paid for them unless a case says otherwise."""
    paid = sum((BY_ID[item_id].price for item_id in item_ids if item_id in BY_ID), Decimal("0.00"))
    return ReturnEffect(
        order_id="BK-10042",
        item_ids=item_ids,
        titles=tuple(BY_ID[i].title if i in BY_ID else "?" for i in item_ids),
        unmatched_titles=unmatched,
        refund_amount=Decimal(refund) if refund is not None else paid,
        refund_method="Visa ending 4242",
        reason="changed my mind",
        label_instructions="Print the label.",
    )


STAGE_2 = [
    # (effect, eligibility reason, policy changes, expected code; "" passes)
    pytest.param(effect(1), "", {}, "", id="item_not_in_order-matched-title-passes"),
    pytest.param(
        effect(1, unmatched=("Dune Messiah",)), "", {}, "item_not_in_order", id="item_not_in_order-unmatched-title"
    ),
    pytest.param(
        effect(unmatched=("Dune Messiah",)), "", {}, "item_not_in_order", id="item_not_in_order-only-unmatched-titles"
    ),
    pytest.param(effect(1, 99), "", {}, "item_not_in_order", id="item_not_in_order-item-id-not-in-the-order"),
    pytest.param(effect(1, 2), "", {}, "", id="item_not_returnable-returnable-items-pass"),
    pytest.param(effect(3), "", {}, "item_not_returnable", id="item_not_returnable-ebook"),
    pytest.param(effect(1, 3), "", {}, "item_not_returnable", id="item_not_returnable-mixed-with-a-returnable"),
    pytest.param(effect(4), "", {}, "already_returned", id="already_returned-item-returned-before"),
    pytest.param(effect(1, 1, refund="16.99"), "", {}, "already_returned", id="already_returned-same-item-twice"),
    pytest.param(effect(1), "order_not_delivered", {}, "order_not_delivered", id="order_not_delivered"),
    pytest.param(effect(1), "outside_return_window", {}, "outside_return_window", id="outside_return_window"),
    pytest.param(effect(), "", {}, "nothing_returnable", id="nothing_returnable-no-items"),
    pytest.param(effect(1, refund="16.99"), "", {}, "", id="refund_exceeds_limit-refund-equal-to-paid-passes"),
    pytest.param(effect(1, refund="17.00"), "", {}, "refund_exceeds_limit", id="refund_exceeds_limit-more-than-paid"),
    pytest.param(
        effect(1, 2),
        "",
        {"max_refund_without_human": Decimal("36.98")},
        "",
        id="refund_exceeds_limit-equal-to-max-without-human-passes",
    ),
    pytest.param(
        effect(1, 2),
        "",
        {"max_refund_without_human": Decimal("36.97")},
        "refund_exceeds_limit",
        id="refund_exceeds_limit-above-max-without-human",
    ),
]


@pytest.mark.parametrize(("return_effect", "order_reason", "changes", "expected"), STAGE_2)
def test_check_effect_applies_each_stage_2_rule(return_effect, order_reason, changes, expected):
    verdict = check_effect(effect=return_effect, eligibility=eligibility(order_reason), policy=policy(**changes))

    assert verdict.allowed is (expected == "")
    assert verdict.code == expected
    if expected:
        assert verdict.codes == (expected,)
        assert verdict.detail == MESSAGES[expected]
        assert verdict.needs_confirmation is False


CONFIRMATION = [
    # (refund of the effect, policy changes, needs confirmation)
    pytest.param(
        effect(1),
        {"confirmation_mode": ALWAYS, "confirm_above_amount": Decimal("100.00")},
        True,
        id="always-even-below-the-amount",
    ),
    pytest.param(effect(1, refund="0.00"), {"confirmation_mode": ALWAYS}, True, id="always-even-a-zero-refund"),
    pytest.param(
        effect(1),
        {"confirmation_mode": ABOVE_AMOUNT, "confirm_above_amount": Decimal("16.99")},
        False,
        id="above_amount-equal-amount-needs-no-confirmation",
    ),
    pytest.param(
        effect(1),
        {"confirmation_mode": ABOVE_AMOUNT, "confirm_above_amount": Decimal("16.98")},
        True,
        id="above_amount-one-cent-above-needs-confirmation",
    ),
    pytest.param(
        effect(1, 2),
        {"confirmation_mode": ABOVE_AMOUNT, "confirm_above_amount": Decimal("20.00")},
        True,
        id="above_amount-two-items-above",
    ),
    pytest.param(
        effect(1),
        {"confirmation_mode": ABOVE_AMOUNT, "confirm_above_amount": Decimal("0.00")},
        True,
        id="above_amount-zero-threshold-confirms-every-refund",
    ),
]


@pytest.mark.parametrize(("return_effect", "changes", "needs_confirmation"), CONFIRMATION)
def test_check_effect_asks_for_confirmation_by_the_policys_mode(return_effect, changes, needs_confirmation):
    verdict = check_effect(effect=return_effect, eligibility=eligibility(), policy=policy(**changes))

    assert verdict.allowed is True
    assert verdict.code == ""
    assert verdict.needs_confirmation is needs_confirmation


# --- Eligibility boundaries, with real rows -------------------------------------------------------

DELIVERED = date(2025, 3, 1)


def order_create(
    order_id: str,
    *,
    status: str = Order.Status.DELIVERED,
    items: tuple[tuple[str, str, str], ...] = (("The Goldfinch", "16.99", "fiction"),),
) -> Order:
    order = Order.objects.create(
        order_id=order_id,
        customer_name="Sarah Chen",
        email=SARAH,
        status=status,
        order_date=DELIVERED - timedelta(3),
        delivered_date=DELIVERED if status == Order.Status.DELIVERED else None,
        total=sum((Decimal(price) for _, price, _ in items), Decimal("0.00")),
    )
    for position, (title, price, category) in enumerate(items):
        OrderItem.objects.create(order=order, title=title, price=Decimal(price), category=category, position=position)
    return order


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("days_after_delivery", "eligible", "reason"),
    [
        pytest.param(0, True, "", id="delivery-day"),
        pytest.param(29, True, "", id="day-29"),
        pytest.param(30, True, "", id="day-30-is-the-last-day"),
        pytest.param(31, False, "outside_return_window", id="day-31-is-outside"),
        pytest.param(365, False, "outside_return_window", id="a-year-later"),
    ],
)
def test_order_eligibility_counts_thirty_days_from_delivery(days_after_delivery, eligible, reason):
    order = order_create("BK-20001")

    result = order_eligibility(order=order, today=DELIVERED + timedelta(days=days_after_delivery))

    assert (result.eligible, result.reason) == (eligible, reason)
    assert result.window_ends == DELIVERED + timedelta(days=30)
    assert result.days_since_delivery == days_after_delivery
    assert [item.returnable for item in result.items] == [True]


@pytest.mark.django_db
@pytest.mark.parametrize("status", [Order.Status.PROCESSING, Order.Status.SHIPPED, Order.Status.CANCELLED])
def test_an_undelivered_order_is_not_eligible(status):
    order = order_create("BK-20002", status=status)

    result = order_eligibility(order=order, today=DELIVERED)

    assert (result.eligible, result.reason) == (False, "order_not_delivered")
    assert result.window_ends is None


@pytest.mark.django_db
def test_an_order_of_only_digital_and_personal_items_has_nothing_returnable():
    order = order_create(
        "BK-20003",
        items=(
            ("Dune", "9.99", "ebook"),
            ("Gift Card", "25.00", "gift_card"),
            ("Educated", "14.99", "audiobook"),
            ("Signed", "24.99", "personalized"),
        ),
    )

    result = order_eligibility(order=order, today=DELIVERED)

    assert (result.eligible, result.reason) == (False, "nothing_returnable")
    assert {item.reason for item in result.items} == {"item_not_returnable"}


@pytest.mark.django_db
def test_eligibility_on_day_31_makes_stage_2_refuse_an_effect_computed_on_day_30():
    order = order_create("BK-20004")
    computed = return_effect_compute(order=order, item_titles=None, reason="changed my mind")

    on_time = check_effect(
        effect=computed, eligibility=order_eligibility(order=order, today=DELIVERED + timedelta(30)), policy=policy()
    )
    late = check_effect(
        effect=computed, eligibility=order_eligibility(order=order, today=DELIVERED + timedelta(31)), policy=policy()
    )

    assert (on_time.allowed, on_time.needs_confirmation) == (True, True)
    assert (late.allowed, late.code) == (False, "outside_return_window")

"""The store's return rules, in one place: eligibility, the effect of a return, and writing it.

Called by chat/agent/tools.py (compute, then apply) and by the guardrails, which ask these functions
rather than restating a rule. The facts (window, non-returnable categories) come from policy.py.
"""

import hashlib
import json
import logging
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.db import IntegrityError, transaction
from django.utils import timezone

from orders.models import RETURN_ITEM_UNIQUE, Order, OrderItem, Return, ReturnItem
from orders.policy import NON_RETURNABLE_CATEGORIES, REFUND_METHOD, RETURN_LABEL_INSTRUCTIONS, RETURN_WINDOW_DAYS
from orders.validation import has_control_chars

logger = logging.getLogger(__name__)

REASON_MAX_LENGTH = 500
CENT = Decimal("0.01")


def _money(amount: Decimal) -> str:
    """Decimal as the two-decimal string every result uses ("16.99")."""
    return str(amount.quantize(CENT))


# --- Eligibility ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ItemEligibility:
    """Whether one item could be returned, ignoring the order's window (see Eligibility.eligible)."""

    item_id: int
    title: str
    price: Decimal
    category: str
    returnable: bool
    reason: str  # "" | "item_not_returnable" | "already_returned"

    def as_dict(self) -> dict:
        """JSON-safe: price as a two-decimal string."""
        return {
            "item_id": self.item_id,
            "title": self.title,
            "price": _money(self.price),
            "category": self.category,
            "returnable": self.returnable,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Eligibility:
    """Whether an order can be returned today, and which of its items."""

    order_id: str
    eligible: bool
    reason: str  # "" | "order_not_delivered" | "outside_return_window" | "nothing_returnable"
    delivered_date: date | None
    window_ends: date | None
    days_since_delivery: int | None
    items: tuple[ItemEligibility, ...]

    def as_dict(self) -> dict:
        """JSON-safe: dates as ISO strings, money as two-decimal strings."""
        return {
            "order_id": self.order_id,
            "eligible": self.eligible,
            "reason": self.reason,
            "delivered_date": self.delivered_date.isoformat() if self.delivered_date else None,
            "window_ends": self.window_ends.isoformat() if self.window_ends else None,
            "days_since_delivery": self.days_since_delivery,
            "items": [item.as_dict() for item in self.items],
        }


def _returned_item_ids(order: Order) -> set[int]:
    return set(ReturnItem.objects.filter(order_item__order=order).values_list("order_item_id", flat=True))


def _item_eligibility(item: OrderItem, returned: set[int]) -> ItemEligibility:
    if item.id in returned:
        reason = "already_returned"
    elif item.category in NON_RETURNABLE_CATEGORIES:
        reason = "item_not_returnable"
    else:
        reason = ""
    return ItemEligibility(
        item_id=item.id,
        title=item.title,
        price=item.price,
        category=item.category,
        returnable=not reason,
        reason=reason,
    )


def order_eligibility(*, order: Order, today: date | None = None) -> Eligibility:
    """Eligible when delivered, today <= delivered_date + 30 days, and at least one item is returnable."""
    today = today or timezone.localdate()
    returned = _returned_item_ids(order)
    items = tuple(_item_eligibility(item, returned) for item in order.items.all())
    if order.status != Order.Status.DELIVERED or order.delivered_date is None:
        return Eligibility(
            order_id=order.order_id,
            eligible=False,
            reason="order_not_delivered",
            delivered_date=None,
            window_ends=None,
            days_since_delivery=None,
            items=items,
        )
    # Day 30 after delivery is the last day inside the window.
    window_ends = order.delivered_date + timedelta(days=RETURN_WINDOW_DAYS)
    if today > window_ends:
        reason = "outside_return_window"
    elif not any(item.returnable for item in items):
        reason = "nothing_returnable"
    else:
        reason = ""
    return Eligibility(
        order_id=order.order_id,
        eligible=not reason,
        reason=reason,
        delivered_date=order.delivered_date,
        window_ends=window_ends,
        days_since_delivery=(today - order.delivered_date).days,
        items=items,
    )


# --- The effect of a return ---------------------------------------------------------------------


@dataclass(frozen=True)
class ReturnEffect:
    """What a return would do, computed but not applied; the customer confirms exactly this."""

    order_id: str
    item_ids: tuple[int, ...]
    titles: tuple[str, ...]
    unmatched_titles: tuple[str, ...]
    refund_amount: Decimal
    refund_method: str
    reason: str
    label_instructions: str

    def as_dict(self) -> dict:
        """JSON-safe: tuples as lists, the amount as a two-decimal string."""
        return {
            "order_id": self.order_id,
            "item_ids": list(self.item_ids),
            "titles": list(self.titles),
            "unmatched_titles": list(self.unmatched_titles),
            "refund_amount": _money(self.refund_amount),
            "refund_method": self.refund_method,
            "reason": self.reason,
            "label_instructions": self.label_instructions,
        }

    def fingerprint(self) -> str:
        """sha256 hex of the canonical JSON of as_dict(): equal effects, equal fingerprints."""
        canonical = json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(canonical.encode()).hexdigest()

    @classmethod
    def from_dict(cls, data: Any) -> "ReturnEffect":
        """The inverse of as_dict for a stored effect; raises ValueError on anything malformed."""
        if not isinstance(data, dict) or set(data) != set(_EFFECT_FIELDS):
            raise ValueError("effect must be an object with exactly the effect's fields")
        strings = ("order_id", "refund_amount", "refund_method", "reason", "label_instructions")
        if not all(isinstance(data[name], str) for name in strings):
            raise ValueError("effect field has the wrong type")
        lists = {name: data[name] for name in ("item_ids", "titles", "unmatched_titles")}
        if not all(isinstance(value, list) for value in lists.values()):
            raise ValueError("effect field has the wrong type")
        if not all(isinstance(item_id, int) and not isinstance(item_id, bool) for item_id in lists["item_ids"]):
            raise ValueError("item_ids must be integers")
        if not all(isinstance(title, str) for title in lists["titles"] + lists["unmatched_titles"]):
            raise ValueError("titles must be strings")
        try:
            amount = Decimal(data["refund_amount"])
        except ArithmeticError as error:
            raise ValueError("refund_amount is not a decimal") from error
        if not amount.is_finite():
            raise ValueError("refund_amount is not a decimal")
        return cls(
            order_id=data["order_id"],
            item_ids=tuple(lists["item_ids"]),
            titles=tuple(lists["titles"]),
            unmatched_titles=tuple(lists["unmatched_titles"]),
            refund_amount=amount,
            refund_method=data["refund_method"],
            reason=data["reason"],
            label_instructions=data["label_instructions"],
        )


_EFFECT_FIELDS = (
    "order_id",
    "item_ids",
    "titles",
    "unmatched_titles",
    "refund_amount",
    "refund_method",
    "reason",
    "label_instructions",
)


def _title_key(title: str) -> str:
    return title.strip().casefold()


def _refund_method(order: Order) -> str:
    return order.payment_method.strip() or REFUND_METHOD


def _effect_for(order: Order, items: list[OrderItem], *, reason: str, unmatched: tuple[str, ...] = ()) -> ReturnEffect:
    """The effect of returning these items of the order: the one place a ReturnEffect is built."""
    return ReturnEffect(
        order_id=order.order_id,
        item_ids=tuple(item.id for item in items),
        titles=tuple(item.title for item in items),
        unmatched_titles=unmatched,
        refund_amount=sum((item.price for item in items), Decimal("0.00")).quantize(CENT),
        refund_method=_refund_method(order),
        reason=reason.strip(),
        label_instructions=RETURN_LABEL_INSTRUCTIONS,
    )


def return_effect_compute(*, order: Order, item_titles: list[str] | None, reason: str) -> ReturnEffect:
    """The effect of returning these titles (None or [] = every returnable item). Reads only; writes nothing."""
    eligibility = order_eligibility(order=order)
    items = list(order.items.all())
    returnable_ids = {item.item_id for item in eligibility.items if item.returnable}
    if not item_titles:
        chosen = [item for item in items if item.id in returnable_ids]
        unmatched: list[str] = []
    else:
        chosen_ids: set[int] = set()
        unmatched = []
        for requested in item_titles:
            candidates = [
                item for item in items if item.id not in chosen_ids and _title_key(item.title) == _title_key(requested)
            ]
            # Two copies of one title: take a returnable copy first. A matched item that is not
            # returnable stays in the effect so the checks can name the exact problem.
            candidates.sort(key=lambda item: item.id not in returnable_ids)
            if candidates:
                chosen_ids.add(candidates[0].id)
            else:
                unmatched.append(requested.strip())
        chosen = [item for item in items if item.id in chosen_ids]
    return _effect_for(order, chosen, reason=reason, unmatched=tuple(unmatched))


def return_effect_problem(*, effect: ReturnEffect, eligibility: Eligibility) -> str:
    """What is wrong with returning this effect now, as a violation code; "" when nothing is.

    The store's rules for one effect, stated once: the guardrails' stage 2 (guardrails/checks.py)
    and return_create, under the order's lock, both ask this.
    """
    if effect.unmatched_titles:
        return "item_not_in_order"
    if eligibility.reason in ("order_not_delivered", "outside_return_window"):
        return eligibility.reason
    if not effect.item_ids:
        return "nothing_returnable"
    if len(set(effect.item_ids)) != len(effect.item_ids):
        return "already_returned"  # the same item twice in one return is a second return of it
    items = {item.item_id: item for item in eligibility.items}
    for item_id in effect.item_ids:
        if item_id not in items:
            return "item_not_in_order"
        if not items[item_id].returnable:
            return items[item_id].reason or "item_not_returnable"
    return ""


# --- Applying it ----------------------------------------------------------------------------------


class ReturnRejected(Exception):
    """return_create refused the effect; `code` is one of the guardrail violation codes."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code
        self.message = message or code


_REJECTIONS = {
    "item_not_in_order": "An item is not part of this order.",
    "order_not_delivered": "The order cannot be returned now.",
    "outside_return_window": "The order cannot be returned now.",
    "nothing_returnable": "There is nothing to return.",
    "already_returned": "An item was already returned.",
}


def _effect_recheck(effect: ReturnEffect, order: Order, today: date) -> list[OrderItem]:
    """The effect's items, re-read under the order's lock; raises ReturnRejected if anything changed."""
    problem = return_effect_problem(effect=effect, eligibility=order_eligibility(order=order, today=today))
    if problem:
        raise ReturnRejected(problem, _REJECTIONS.get(problem, "An item cannot be returned."))
    by_id = {item.id: item for item in order.items.all()}
    items = [by_id[item_id] for item_id in effect.item_ids]
    if _effect_for(order, items, reason=effect.reason).fingerprint() != effect.fingerprint():
        raise ReturnRejected("effect_changed", "The order changed since the return was prepared.")
    return items


def _constraint_name(error: IntegrityError) -> str:
    diag = getattr(error.__cause__, "diag", None)
    return getattr(diag, "constraint_name", None) or ""


def return_create(
    *, effect: ReturnEffect, thread_id: UUID | str | None = None, run_id: UUID | str | None = None
) -> Return:
    """Write the Return for exactly this effect, after re-checking it under a lock; raises ReturnRejected."""
    if not effect.reason or len(effect.reason) > REASON_MAX_LENGTH or has_control_chars(effect.reason):
        raise ReturnRejected("invalid_reason", "The reason must be 1 to 500 plain characters.")
    try:
        with transaction.atomic():
            # The row lock on the order serialises every return of this order: a second caller
            # waits here, then re-reads the returned items and is rejected by the check below.
            order = Order.objects.select_for_update().filter(order_id=effect.order_id).first()
            if order is None:
                raise ReturnRejected("order_not_found", "The order does not exist.")
            items = _effect_recheck(effect, order, timezone.localdate())
            rma = Return.objects.create(
                order=order,
                reason=effect.reason,
                refund_amount=effect.refund_amount,
                refund_method=effect.refund_method,
                thread_id=thread_id,
                run_id=run_id,
            )
            ReturnItem.objects.bulk_create(
                [ReturnItem(rma=rma, order_item=item, refund_amount=item.price) for item in items]
            )
    except IntegrityError as error:
        # Last line of defence, e.g. a writer that skipped the lock: the database refuses a
        # second ReturnItem for the same order item.
        if _constraint_name(error) == RETURN_ITEM_UNIQUE:
            raise ReturnRejected("already_returned", "An item was already returned.") from error
        raise
    logger.info("return created return=%s run=%s items=%d", rma.pk, run_id, len(items))
    return rma

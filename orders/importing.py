"""Loading orders from JSON: parse with line numbers, validate every record, then write in one transaction.

Used by the import_orders, load_demo_orders and generate_orders commands, so demo and synthetic
data pass the same checks as a real file. Error reasons name fields, never echo values:
files hold customer data and errors end up in terminals and logs.
"""

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import transaction

from orders.models import Order, OrderItem, ReturnItem
from orders.policy import REFUND_METHOD
from orders.validation import email_is_valid, email_normalise, has_control_chars, order_id_is_valid

_ORDER_FIELDS = (
    "customer_name",
    "email",
    "status",
    "order_date",
    "delivered_date",
    "tracking_number",
    "payment_method",
    "total",
)
# The JSON fields of one record: the order's own columns, its id and its items.
RECORD_FIELDS = frozenset({"order_id", "items", *_ORDER_FIELDS})
REQUIRED_FIELDS = ("order_id", "customer_name", "email", "status", "order_date", "items", "total")
ITEM_FIELDS = frozenset({"title", "author", "price", "category"})
MAX_ITEMS = 100
MAX_MONEY = Decimal("99999999.99")  # Decimal(10, 2)
_CENT = Decimal("0.01")
_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_MONEY_TEXT_RE = re.compile(r"[0-9]{1,8}(?:\.[0-9]{1,2})?")
_TRACKING_RE = re.compile(r"[A-Za-z0-9-]{0,64}")
_SAFE_NAME_RE = re.compile(r"[A-Za-z0-9_]{1,40}")
_CATEGORIES = frozenset(OrderItem.Category.values)
_STATUSES = frozenset(Order.Status.values)


class ImportFileError(Exception):
    """The file as a whole is unusable (not UTF-8, not JSON, not a list)."""


@dataclass(frozen=True)
class ItemRecord:
    title: str
    author: str
    price: Decimal
    category: str

    def key(self) -> tuple[str, str, Decimal, str]:
        return (self.title, self.author, self.price, self.category)


@dataclass(frozen=True)
class OrderRecord:
    """One validated order from a file: every value already in its stored form."""

    line: int
    order_id: str
    customer_name: str
    email: str
    status: str
    order_date: date
    delivered_date: date | None
    tracking_number: str
    payment_method: str
    total: Decimal
    items: tuple[ItemRecord, ...]


@dataclass(frozen=True)
class RecordError:
    line: int
    order_id: str  # "" when the record's id itself is unusable
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.order_id or 'record'}: {self.reason}"


@dataclass
class ImportSummary:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0
    # Order ids whose returned items were kept although the file no longer lists them.
    kept_returned: dict[str, int] = field(default_factory=dict)

    def lines(self) -> list[str]:
        """Human summary for the management commands (order ids and counts only)."""
        kept = [
            f"{order_id}: kept {count} returned item(s) the file no longer lists"
            for order_id, count in sorted(self.kept_returned.items())
        ]
        return [
            *kept,
            f"created {self.created}, updated {self.updated}, unchanged {self.unchanged}, skipped {self.skipped}",
        ]


# --- Parsing ----------------------------------------------------------------------------------


class _Object(dict):
    duplicate_keys = False


def _object_pairs(pairs: list[tuple[str, Any]]) -> _Object:
    obj = _Object(pairs)
    obj.duplicate_keys = len(obj) != len(pairs)
    return obj


# Exact money: floats never appear. NaN/Infinity parse to non-finite Decimals and fail validation.
_DECODER = json.JSONDecoder(object_pairs_hook=_object_pairs, parse_float=Decimal, parse_constant=Decimal)
_WHITESPACE = " \t\n\r"


def _skip_whitespace(text: str, position: int) -> int:
    while position < len(text) and text[position] in _WHITESPACE:
        position += 1
    return position


def _line_at(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def records_parse(text: str) -> list[tuple[int, Any]]:
    """(line where each element starts, element) for a JSON array; raises ImportFileError otherwise."""
    if text.startswith("\ufeff"):
        text = text[1:]
    position = _skip_whitespace(text, 0)
    if not text.startswith("[", position):
        raise ImportFileError(f"line {_line_at(text, position)}: the file must be a JSON list of orders")
    position = _skip_whitespace(text, position + 1)
    parsed: list[tuple[int, Any]] = []
    if text.startswith("]", position):
        position += 1
    else:
        while True:
            try:
                element, end = _DECODER.raw_decode(text, position)
            except json.JSONDecodeError as error:
                raise ImportFileError(f"line {error.lineno}: invalid JSON ({error.msg})") from error
            parsed.append((_line_at(text, position), element))
            position = _skip_whitespace(text, end)
            if text.startswith(",", position):
                position = _skip_whitespace(text, position + 1)
            elif text.startswith("]", position):
                position += 1
                break
            else:
                raise ImportFileError(f"line {_line_at(text, position)}: invalid JSON (expected ',' or ']')")
    if _skip_whitespace(text, position) != len(text):
        raise ImportFileError(f"line {_line_at(text, position)}: invalid JSON (extra data after the list)")
    return parsed


# --- Validation -------------------------------------------------------------------------------


def _field_names(names: Iterable[str]) -> str:
    shown = [name for name in sorted(names) if _SAFE_NAME_RE.fullmatch(name)]
    return ", ".join(shown) if shown else "(unprintable)"


def _text(value: Any, name: str, errors: list[str], *, min_length: int = 1, max_length: int = 200) -> str:
    if not isinstance(value, str):
        errors.append(f"{name}: must be a string")
        return ""
    if has_control_chars(value):
        errors.append(f"{name}: contains control characters")
        return ""
    value = value.strip()
    if not min_length <= len(value) <= max_length:
        errors.append(f"{name}: must be {min_length} to {max_length} characters")
    return value


def _money(value: Any, name: str, errors: list[str]) -> Decimal:
    if isinstance(value, str) and _MONEY_TEXT_RE.fullmatch(value):
        value = Decimal(value)
    if isinstance(value, int) and not isinstance(value, bool):
        value = Decimal(value)
    if (
        not isinstance(value, Decimal)
        or not value.is_finite()
        or not Decimal(0) <= value <= MAX_MONEY
        or value != value.quantize(_CENT)
    ):
        errors.append(f"{name}: must be an amount from 0 to {MAX_MONEY} with at most 2 decimals")
        return Decimal(0)
    return value.quantize(_CENT)


def _date(value: Any, name: str, errors: list[str]) -> date | None:
    if isinstance(value, str) and _DATE_RE.fullmatch(value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    errors.append(f"{name}: must be a date like 2025-01-31")
    return None


def _item(value: Any, name: str, errors: list[str]) -> ItemRecord | None:
    if not isinstance(value, dict):
        errors.append(f"{name}: must be an object")
        return None
    if getattr(value, "duplicate_keys", False):
        errors.append(f"{name}: has a duplicate key")
    if unknown := set(value) - ITEM_FIELDS:
        errors.append(f"{name}: unknown field(s) {_field_names(unknown)}")
    if missing := [key for key in ("title", "price", "category") if key not in value]:
        errors.append(f"{name}: missing field(s) {', '.join(missing)}")
        return None
    title = _text(value["title"], f"{name}.title", errors)
    author = _text(value.get("author", ""), f"{name}.author", errors, min_length=0)
    price = _money(value["price"], f"{name}.price", errors)
    category = value["category"]
    if not isinstance(category, str) or category not in _CATEGORIES:
        errors.append(f"{name}.category: must be one of {', '.join(OrderItem.Category.values)}")
    return ItemRecord(title=title, author=author, price=price, category=category)


def _record_errors(raw: Any) -> tuple[OrderRecord | None, str, list[str]]:
    """(record or None, a printable order id or "", reasons) for one parsed element."""
    if not isinstance(raw, dict):
        return None, "", ["must be a JSON object"]
    errors: list[str] = []
    order_id = raw.get("order_id")
    shown_id = order_id if isinstance(order_id, str) and order_id_is_valid(order_id) else ""
    if getattr(raw, "duplicate_keys", False):
        errors.append("has a duplicate key")
    if unknown := set(raw) - RECORD_FIELDS:
        errors.append(f"unknown field(s) {_field_names(unknown)}")
    if missing := [key for key in REQUIRED_FIELDS if key not in raw]:
        return None, shown_id, [*errors, f"missing field(s) {', '.join(missing)}"]

    if not shown_id:
        errors.append("order_id: must be BK- followed by 4 to 6 digits")
    customer_name = _text(raw["customer_name"], "customer_name", errors)
    email = raw["email"]
    if not isinstance(email, str) or not email_is_valid(email.strip()):
        errors.append("email: must be a valid email address of at most 254 characters")
        email = ""
    status = raw["status"]
    if not isinstance(status, str) or status not in _STATUSES:
        errors.append(f"status: must be one of {', '.join(Order.Status.values)}")
    order_date = _date(raw["order_date"], "order_date", errors)
    delivered_date = None
    if status == Order.Status.DELIVERED:
        if raw.get("delivered_date") is None:
            errors.append("delivered_date: required when status is delivered")
        else:
            delivered_date = _date(raw["delivered_date"], "delivered_date", errors)
            if delivered_date and order_date and delivered_date < order_date:
                errors.append("delivered_date: must not be before order_date")
    elif raw.get("delivered_date") not in (None, ""):
        errors.append("delivered_date: must be empty unless status is delivered")
    tracking = raw.get("tracking_number") or ""
    if not isinstance(tracking, str) or not _TRACKING_RE.fullmatch(tracking):
        errors.append("tracking_number: must be up to 64 letters, digits or dashes")
    payment_method = _text(raw.get("payment_method") or REFUND_METHOD, "payment_method", errors, max_length=64)

    raw_items = raw["items"]
    items: list[ItemRecord] = []
    if not isinstance(raw_items, list) or not 1 <= len(raw_items) <= MAX_ITEMS:
        errors.append(f"items: must be a list of 1 to {MAX_ITEMS} items")
    else:
        items = [
            item
            for index, value in enumerate(raw_items)
            if (item := _item(value, f"items[{index}]", errors)) is not None
        ]
    total = _money(raw["total"], "total", errors)
    if not errors and total != sum((item.price for item in items), Decimal(0)):
        errors.append("total: must equal the sum of the item prices")
    if errors:
        return None, shown_id, errors
    record = OrderRecord(
        line=0,
        order_id=order_id,
        customer_name=customer_name,
        email=email_normalise(email),
        status=status,
        order_date=order_date,
        delivered_date=delivered_date,
        tracking_number=tracking,
        payment_method=payment_method,
        total=total,
        items=tuple(items),
    )
    return record, shown_id, []


def records_validate(parsed: list[tuple[int, Any]]) -> tuple[list[OrderRecord], list[RecordError]]:
    """Validate every (line, element); a repeated order id is an error on its later occurrences."""
    records: list[OrderRecord] = []
    errors: list[RecordError] = []
    first_line: dict[str, int] = {}
    for line, raw in parsed:
        record, shown_id, reasons = _record_errors(raw)
        if record is not None and record.order_id in first_line:
            reasons = [f"order_id: repeats the order at line {first_line[record.order_id]}"]
            record = None
        if record is None:
            errors.append(RecordError(line=line, order_id=shown_id, reason="; ".join(reasons)))
            continue
        first_line[record.order_id] = line
        records.append(replace(record, line=line))
    return records, errors


# --- Writing ----------------------------------------------------------------------------------


def _item_key(item: OrderItem) -> tuple[str, str, Decimal, str]:
    return (item.title, item.author, item.price, item.category)


def _items_sync(order: Order, record: OrderRecord, returned: set[int]) -> tuple[bool, int]:
    """Make the order's items match the record, keeping unchanged rows (and their ids).

    Returns (anything changed, how many returned items were kept although the record drops them).
    """
    existing = list(order.items.all())
    changed = False
    to_create: list[OrderItem] = []
    for position, wanted in enumerate(record.items):
        match = next((item for item in existing if _item_key(item) == wanted.key()), None)
        if match is None:
            to_create.append(
                OrderItem(
                    order=order,
                    position=position,
                    title=wanted.title,
                    author=wanted.author,
                    price=wanted.price,
                    category=wanted.category,
                )
            )
            continue
        existing.remove(match)
        if match.position != position:
            match.position = position
            match.save(update_fields=["position"])
            changed = True
    kept = 0
    for item in existing:
        if item.id in returned:
            # A returned item is the record of a refund: it stays, after the file's items.
            kept += 1
            position = len(record.items) + kept - 1
            if item.position != position:
                item.position = position
                item.save(update_fields=["position"])
                changed = True
        else:
            item.delete()
            changed = True
    if to_create:
        OrderItem.objects.bulk_create(to_create)
        changed = True
    return changed, kept


def orders_import(*, records: list[OrderRecord], skipped: int = 0) -> ImportSummary:
    """Create or update (by order_id) every record in one transaction; idempotent for the same records."""
    summary = ImportSummary(skipped=skipped)
    with transaction.atomic():
        # Lock the orders being replaced so a return cannot start on an item while it is swapped.
        existing = {
            order.order_id: order
            for order in Order.objects.select_for_update()
            .filter(order_id__in=[record.order_id for record in records])
            .prefetch_related("items")
        }
        returned = set(
            ReturnItem.objects.filter(order_item__order__in=existing.values()).values_list("order_item_id", flat=True)
        )
        new_orders: list[tuple[Order, OrderRecord]] = []
        for record in records:
            values = {name: getattr(record, name) for name in _ORDER_FIELDS}
            order = existing.get(record.order_id)
            if order is None:
                new_orders.append((Order(order_id=record.order_id, **values), record))
                continue
            changed_fields = [name for name, value in values.items() if getattr(order, name) != value]
            for name in changed_fields:
                setattr(order, name, values[name])
            if changed_fields:
                order.save(update_fields=[*changed_fields, "updated_at"])
            items_changed, kept = _items_sync(order, record, returned)
            if kept:
                summary.kept_returned[order.order_id] = kept
            if changed_fields or items_changed:
                summary.updated += 1
            else:
                summary.unchanged += 1
        # New orders in bulk: generate_orders loads tens of thousands through here. Emails are
        # already normalised by validation (bulk_create skips Order.save).
        Order.objects.bulk_create([order for order, _ in new_orders], batch_size=2000)
        OrderItem.objects.bulk_create(
            [
                OrderItem(
                    order=order,
                    position=position,
                    title=item.title,
                    author=item.author,
                    price=item.price,
                    category=item.category,
                )
                for order, record in new_orders
                for position, item in enumerate(record.items)
            ],
            batch_size=5000,
        )
        summary.created = len(new_orders)
    return summary

"""Reads of the store's data. Callers are the chat tools and the guardrails; nothing here writes."""

import hmac
from datetime import datetime
from uuid import UUID

from django.db.models import prefetch_related_objects

from orders.models import Order, Return
from orders.validation import email_normalise, order_id_is_valid, order_id_normalise

# Compared against when no order exists, so a missing order costs the same comparison as a wrong email.
_NO_EMAIL = "\x00" * 32


def order_get_for_customer(*, order_id: str, email: str) -> Order | None:
    """The order with this id if `email` is its email (items prefetched); else None, alike for missing or wrong."""
    normalised_id = order_id_normalise(order_id)
    order = Order.objects.filter(order_id=normalised_id).first() if order_id_is_valid(normalised_id) else None
    stored = order.email if order is not None else _NO_EMAIL
    # Constant time on bytes (compare_digest refuses non-ASCII str): the answer must not reveal how
    # much of the email matched. Items are fetched only after the match, so a wrong email and a
    # missing order cost the same number of queries.
    matches = hmac.compare_digest(email_normalise(stored).encode(), email_normalise(email).encode())
    if order is None or not matches:
        return None
    prefetch_related_objects([order], "items")
    return order


def orders_for_email(*, email: str) -> list[Order]:
    """Every order with this email (normalised), newest first. Callers must have verified the email."""
    return list(Order.objects.filter(email=email_normalise(email)).order_by("-order_date", "-id"))


def returns_count_for_thread(*, thread_id: UUID | str) -> int:
    """How many returns were started from one chat thread (the guardrails' per-thread limit)."""
    return Return.objects.filter(thread_id=thread_id).count()


def returns_count_for_customer_of_order(*, order_id: str, since: datetime) -> int:
    """Returns started since `since` on any order with the same email as this order (one customer's returns)."""
    customer = Order.objects.filter(order_id=order_id).values("email")
    return Return.objects.filter(order__email__in=customer, created_at__gte=since).count()

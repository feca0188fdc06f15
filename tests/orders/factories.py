"""Test data for orders: plain ORM rows, dated relative to today (the rules read the real date)."""

from datetime import date, timedelta
from decimal import Decimal

from django.utils import timezone

from orders.models import Order, OrderItem

ALICE_EMAIL = "alice@example.com"
BOB_EMAIL = "bob@example.com"


def days_ago(days: int) -> date:
    return timezone.localdate() - timedelta(days=days)


def order_create(
    order_id: str = "BK-1001",
    *,
    email: str = ALICE_EMAIL,
    status: str = Order.Status.DELIVERED,
    delivered_days_ago: int | None = 5,
    items: list[tuple[str, str, str]] | None = None,
    payment_method: str = "Visa ending 4242",
) -> Order:
    """An order with items given as (title, price, category); delivered_date only when delivered."""
    items = items if items is not None else [("The Goldfinch", "16.99", "fiction"), ("Sapiens", "19.99", "nonfiction")]
    delivered = status == Order.Status.DELIVERED and delivered_days_ago is not None
    order = Order.objects.create(
        order_id=order_id,
        customer_name="Alice Example",
        email=email,
        status=status,
        order_date=days_ago((delivered_days_ago or 0) + 3),
        delivered_date=days_ago(delivered_days_ago) if delivered else None,
        tracking_number="1Z999AA10123456784" if status != Order.Status.PROCESSING else "",
        total=sum((Decimal(price) for _, price, _ in items), Decimal("0.00")),
        payment_method=payment_method,
    )
    OrderItem.objects.bulk_create(
        OrderItem(
            order=order, title=title, author="Some Author", price=Decimal(price), category=category, position=position
        )
        for position, (title, price, category) in enumerate(items)
    )
    return order

"""The store's data: orders, their items, and returns (the record of what was given back)."""

import secrets
import string

from django.db import models
from django.db.models import Q

from orders.policy import REFUND_METHOD
from orders.validation import ORDER_ID_PATTERN, email_normalise

RMA_PREFIX = "RMA-"
RETURN_ITEM_UNIQUE = "returnitem_order_item_unique"  # return_create maps its violation to already_returned
_RMA_ALPHABET = string.ascii_uppercase + string.digits


def rma_number_generate() -> str:
    """A fresh `RMA-` + 8 uppercase alphanumerics, from a CSPRNG (not guessable from another RMA)."""
    return RMA_PREFIX + "".join(secrets.choice(_RMA_ALPHABET) for _ in range(8))


class Order(models.Model):
    """One customer order. Emails are stored lower-cased; lookups need order id + email."""

    class Status(models.TextChoices):
        PROCESSING = "processing"
        SHIPPED = "shipped"
        DELIVERED = "delivered"
        CANCELLED = "cancelled"

    order_id = models.CharField(max_length=9, unique=True, help_text="BK- followed by 4 to 6 digits.")
    customer_name = models.CharField(max_length=200)
    email = models.EmailField(max_length=254)
    status = models.CharField(max_length=16, choices=Status.choices)
    order_date = models.DateField()
    delivered_date = models.DateField(null=True, blank=True)
    tracking_number = models.CharField(max_length=64, blank=True)
    total = models.DecimalField(max_digits=10, decimal_places=2)
    payment_method = models.CharField(max_length=64, default=REFUND_METHOD)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-order_date", "-id"]
        indexes = [models.Index(fields=["email", "-order_date"], name="order_email_recent")]
        constraints = [
            models.CheckConstraint(condition=Q(order_id__regex=rf"^{ORDER_ID_PATTERN}$"), name="order_id_format"),
            models.CheckConstraint(condition=Q(total__gte=0), name="order_total_not_negative"),
            # Eligibility counts days from delivered_date: a delivered order must have one.
            models.CheckConstraint(
                condition=~Q(status="delivered") | Q(delivered_date__isnull=False),
                name="order_delivered_has_date",
            ),
        ]

    def __str__(self) -> str:
        return self.order_id

    def save(self, *args, **kwargs) -> None:
        self.email = email_normalise(self.email)
        super().save(*args, **kwargs)


class OrderItem(models.Model):
    """One line of an order: a book (or ebook, gift card, ...) at the price paid."""

    class Category(models.TextChoices):
        FICTION = "fiction"
        NONFICTION = "nonfiction"
        CHILDREN = "children"
        YOUNG_ADULT = "young_adult"
        COMICS = "comics"
        POETRY = "poetry"
        REFERENCE = "reference"
        TEXTBOOK = "textbook"
        COOKBOOK = "cookbook"
        EBOOK = "ebook"
        AUDIOBOOK = "audiobook"
        GIFT_CARD = "gift_card"
        PERSONALIZED = "personalized"

    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="items")
    title = models.CharField(max_length=200)
    author = models.CharField(max_length=200, blank=True)
    price = models.DecimalField(max_digits=10, decimal_places=2)
    category = models.CharField(max_length=20, choices=Category.choices)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        constraints = [models.CheckConstraint(condition=Q(price__gte=0), name="orderitem_price_not_negative")]

    def __str__(self) -> str:
        return self.title


class Return(models.Model):
    """A return started for some items of one order: the record of what was promised."""

    class Status(models.TextChoices):
        REQUESTED = "requested"
        RECEIVED = "received"
        REFUNDED = "refunded"

    rma_number = models.CharField(max_length=12, unique=True, default=rma_number_generate, editable=False)
    order = models.ForeignKey(Order, on_delete=models.PROTECT, related_name="returns")
    reason = models.CharField(max_length=500)
    refund_amount = models.DecimalField(max_digits=10, decimal_places=2)
    refund_method = models.CharField(max_length=64)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REQUESTED)
    # Which conversation and agent turn started it, for audit; null when staff created it.
    thread_id = models.UUIDField(null=True, blank=True, db_index=True)
    run_id = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.CheckConstraint(condition=Q(refund_amount__gte=0), name="return_refund_not_negative")]

    def __str__(self) -> str:
        return self.rma_number


class ReturnItem(models.Model):
    """One order item inside a return. The unique constraint makes a second return of it impossible."""

    rma = models.ForeignKey(Return, on_delete=models.CASCADE, related_name="items")
    # PROTECT: an item that was returned is history; re-imports keep it (orders/importing.py).
    order_item = models.ForeignKey(OrderItem, on_delete=models.PROTECT, related_name="return_items")
    refund_amount = models.DecimalField(max_digits=10, decimal_places=2)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["order_item"], name=RETURN_ITEM_UNIQUE)]

    def __str__(self) -> str:
        return f"{self.rma_id}:{self.order_item_id}"

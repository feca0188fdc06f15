"""Staff pages for orders and returns. Returns are the record of what happened: read-only."""

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from orders.models import Order, OrderItem, Return, ReturnItem
from orders.validation import email_normalise, order_id_normalise


class OrderItemInline(admin.TabularInline):
    model = OrderItem
    extra = 0
    fields = ("position", "title", "author", "category", "price")
    ordering = ("position", "id")
    # A returned item is protected by the database; deleting it from here would only fail.
    can_delete = False


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ("order_id", "customer_name", "email", "status", "order_date", "delivered_date", "total")
    list_filter = ("status", "order_date", "delivered_date")
    search_fields = ("order_id", "email")
    date_hierarchy = "order_date"
    readonly_fields = ("created_at", "updated_at")
    inlines = [OrderItemInline]
    list_per_page = 50
    show_full_result_count = False  # no COUNT(*) over a large table on every page

    def get_search_results(self, request: HttpRequest, queryset: QuerySet, search_term: str) -> tuple[QuerySet, bool]:
        """Exact order id or email (normalised like the store does), so the indexes serve it."""
        term = search_term.strip()
        if not term:
            return queryset, False
        if "@" in term:
            return queryset.filter(email=email_normalise(term)), False
        return queryset.filter(order_id=order_id_normalise(term)), False


class ReturnItemInline(admin.TabularInline):
    model = ReturnItem
    extra = 0
    fields = ("order_item", "refund_amount")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Return | None = None) -> bool:
        return False


@admin.register(Return)
class ReturnAdmin(admin.ModelAdmin):
    list_display = ("rma_number", "order", "refund_amount", "refund_method", "status", "created_at")
    list_filter = ("status", "created_at")
    search_fields = ("=rma_number", "=order__order_id")
    list_select_related = ("order",)
    # Staff move a return along (received, refunded); what was promised stays as it was written.
    readonly_fields = (
        "rma_number",
        "order",
        "reason",
        "refund_amount",
        "refund_method",
        "thread_id",
        "run_id",
        "created_at",
    )
    fields = (
        "rma_number",
        "order",
        "status",
        "reason",
        "refund_amount",
        "refund_method",
        "thread_id",
        "run_id",
        "created_at",
    )
    inlines = [ReturnItemInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Return | None = None) -> bool:
        return False

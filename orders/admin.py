"""Staff pages for orders and returns. Returns are the record of what happened: read-only."""

from django.contrib import admin
from django.db.models import Count, QuerySet, Sum
from django.http import HttpRequest
from django.utils.html import format_html_join

from orders.models import Order, OrderItem, Return, ReturnItem
from orders.validation import email_normalise, order_id_normalise
from staff.display import admin_link, thread_link
from staff.review import threads_about_order


class OrderItemInline(admin.TabularInline):
    model = OrderItem
    extra = 0
    fields = ("position", "title", "author", "category", "price")
    ordering = ("position", "id")
    # A returned item is protected by the database; deleting it from here would only fail.
    can_delete = False


class OrderReturnInline(admin.TabularInline):
    """The returns of this order, each linking to its record."""

    model = Return
    extra = 0
    fields = ("rma", "status", "refund_amount", "created_at")
    readonly_fields = fields
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Order | None = None) -> bool:
        return False

    @admin.display(description="return")
    def rma(self, rma: Return) -> str:
        return admin_link("orders_return", rma.pk, rma.rma_number)


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ("order_id", "customer_name", "email", "status", "order_date", "delivered_date", "total")
    list_filter = ("status", "order_date", "delivered_date")
    search_fields = ("order_id", "email")
    date_hierarchy = "order_date"
    readonly_fields = ("created_at", "updated_at", "chats")
    inlines = [OrderItemInline, OrderReturnInline]
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

    @admin.display(description="chats about this order")
    def chats(self, order: Order) -> str:
        threads = threads_about_order(order.order_id).values_list("pk", "updated_at")[:50]
        links = format_html_join(", ", "{} ({})", ((thread_link(pk), f"{updated:%Y-%m-%d}") for pk, updated in threads))
        return links or "-"


class ReturnItemInline(admin.TabularInline):
    model = ReturnItem
    extra = 0
    fields = ("order_item", "refund_amount")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Return | None = None) -> bool:
        return False


class StartedByFilter(admin.SimpleListFilter):
    title = "started by"
    parameter_name = "started_by"

    def lookups(self, request, model_admin):
        return [("bot", "The bot (in a chat)"), ("staff", "Staff")]

    def queryset(self, request, queryset):
        if self.value() == "bot":
            return queryset.filter(run_id__isnull=False)
        if self.value() == "staff":
            return queryset.filter(run_id__isnull=True)
        return queryset


@admin.register(Return)
class ReturnAdmin(admin.ModelAdmin):
    list_display = (
        "rma_number",
        "order_link",
        "refund_amount",
        "refund_method",
        "status",
        "conversation",
        "turn",
        "created_at",
    )
    list_filter = (StartedByFilter, "status", "created_at")
    search_fields = ("=rma_number", "=order__order_id")
    date_hierarchy = "created_at"
    list_select_related = ("order",)
    # Staff move a return along (received, refunded); what was promised stays as it was written.
    readonly_fields = (
        "rma_number",
        "order",
        "reason",
        "refund_amount",
        "refund_method",
        "conversation",
        "turn",
        "created_at",
    )
    fields = (
        "rma_number",
        "order",
        "status",
        "reason",
        "refund_amount",
        "refund_method",
        "conversation",
        "turn",
        "created_at",
    )
    inlines = [ReturnItemInline]

    class Media:
        css = {"all": ["staff/admin.css"]}

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None):
        response = super().changelist_view(request, extra_context)
        changelist = getattr(response, "context_data", {}).get("cl")
        if changelist is not None:
            # Totals of the filtered list (every page), one aggregate query.
            response.context_data["totals"] = changelist.queryset.aggregate(
                count=Count("pk"), refunds=Sum("refund_amount")
            )
        return response

    @admin.display(description="order", ordering="order__order_id")
    def order_link(self, rma: Return) -> str:
        return admin_link("orders_order", rma.order_id, rma.order.order_id)

    @admin.display(description="conversation")
    def conversation(self, rma: Return) -> str:
        # Kept as an id: the conversation may since have been deleted by retention.
        return thread_link(rma.thread_id) if rma.thread_id else "staff"

    @admin.display(description="agent turn")
    def turn(self, rma: Return) -> str:
        return admin_link("chat_run", rma.run_id, str(rma.run_id)[:8]) if rma.run_id else "-"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Return | None = None) -> bool:
        return False

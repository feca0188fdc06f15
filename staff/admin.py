"""Admin site settings for the staff pages (the dashboard view is in staff/views.py)."""

from django.contrib import admin

from staff.display import ReadOnlyAdmin
from staff.models import DailyFigures

# The review lists are wide (customer, order, preview, status, why, last activity): at 1400 px
# they need the width the navigation sidebar would take. The home page lists every model.
admin.site.enable_nav_sidebar = False
admin.site.site_header = "Bookly support"
admin.site.site_title = "Bookly support"
admin.site.index_title = "Conversations, returns and guardrails"


@admin.register(DailyFigures)
class DailyFiguresAdmin(ReadOnlyAdmin):
    """Figures kept for days whose conversations retention deleted. Read-only."""

    list_display = ["day", "created_at"]
    date_hierarchy = "day"
    readonly_fields = ["day", "figures", "created_at"]

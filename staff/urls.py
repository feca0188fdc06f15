from django.contrib import admin
from django.urls import path

from staff.views import dashboard_view

# Mounted under /admin/ before the admin's own URLs; admin_view makes it staff-only.
urlpatterns = [path("dashboard/", admin.site.admin_view(dashboard_view), name="staff_dashboard")]

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from chat import api, pages

handler400 = "bookly_project.errors.bad_request"
handler403 = "bookly_project.errors.permission_denied"
handler404 = "bookly_project.errors.not_found"
handler500 = "bookly_project.errors.server_error"

urlpatterns = [
    path("", pages.index, name="index"),
    path("api/v1/", include("chat.urls")),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("healthz", api.healthz, name="healthz"),
    path("readyz", api.readyz, name="readyz"),
    path("metrics", api.metrics, name="metrics"),
    path("admin/", include("staff.urls")),
    path("admin/", admin.site.urls),
]

"""Top-level URLs; each app adds its own include() here as it grows."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from harbormaster import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # The REST API: its OpenAPI 3 schema, and Swagger UI served from our own
    # static files (drf-spectacular-sidecar; no CDN).
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/v1/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/", include("botapi.api.urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("", include("tournaments.urls")),
]

"""Top-level URLs; each app adds its own include() here as it grows."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from web import home as views
from web.api.toolkit import errors
from web.people import views as people_views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # The REST API: its OpenAPI 3 schema, and Swagger UI served from our own
    # static files (drf-spectacular-sidecar; no CDN).
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/v1/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/", include("web.api.bots.urls")),
    path("api/v1/", include("web.api.games.urls")),
    path("api/v1/", include("web.api.competitors.urls")),
    # Anything else under /api/ (a wrong path, a non-numeric id) is a JSON 404,
    # also with DEBUG on, where Django would show its HTML page.
    re_path(r"^api/", errors.not_found),
    # People: allauth's sign-up, sign-in, sign-out and password reset, then the person pages.
    path("accounts/profile/", RedirectView.as_view(pattern_name="people:me"), name="profile"),
    path("accounts/login/", people_views.ThrottledLoginView.as_view(), name="account_login"),
    path("accounts/", include("allauth.urls")),
    path("", include("web.people.urls")),
    # The owner's /bots/<id>/log/ before the public /bots/<owner>/<name>/, which would match it.
    path("", include("web.bots.urls")),
    path("", include("web.stats.urls")),
    path("", include("web.lobby.urls")),
    path("", include("web.games.urls")),
    path("", include("web.rules.urls")),
]

# Errors raised outside the API's views: JSON under /api/, Django's pages elsewhere.
handler400 = "web.api.toolkit.errors.bad_request"
handler403 = "web.api.toolkit.errors.permission_denied"
handler404 = "web.api.toolkit.errors.page_not_found"
handler500 = "web.api.toolkit.errors.server_error"

"""Top-level URLs; each app adds its own include() here as it grows."""

from __future__ import annotations

from django.contrib import admin
from django.urls import path

from harbormaster import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
]

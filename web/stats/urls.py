"""Competitor pages, included at the site root by ``harbormaster/urls.py``."""

from __future__ import annotations

from django.urls import path

from web.stats import views

app_name = "stats"

urlpatterns = [
    path("competitors/<int:pk>/", views.competitor_redirect, name="competitor"),
    path("bots/<str:owner>/<slug:name>/", views.bot_page, name="bot"),
    path("anchors/", views.anchors_page, name="anchors"),
]

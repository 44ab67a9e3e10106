"""Routes of the competitor export, mounted at /api/v1/ by ``harbormaster/urls.py``."""

from __future__ import annotations

from django.urls import path

from web.api.competitors.views import CompetitorGamesView

app_name = "stats-api"

urlpatterns = [
    path(
        "competitors/<int:id>/games/",
        CompetitorGamesView.as_view(),
        name="competitor-games",
    ),
]

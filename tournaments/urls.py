"""Web pages of games and leaderboards, included at the site root by ``harbormaster/urls.py``."""

from __future__ import annotations

from django.urls import path

from . import board_views, views

app_name = "tournaments"

urlpatterns = [
    path("games/<int:pk>/", views.game_page, name="game"),
    path("boards/<slug:engine>/", board_views.board_preview, name="board-preview"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboards/<slug:engine>/", views.leaderboard, name="leaderboard"),
]

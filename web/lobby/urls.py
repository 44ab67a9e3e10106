"""The lobby's pages, JSON and actions, included at the site root by ``harbormaster/urls.py``."""

from __future__ import annotations

from django.urls import path

from web.lobby import views

app_name = "lobby"

urlpatterns = [
    path("lobby/", views.lobby_page, name="lobby"),
    path("lobby/tables.json", views.tables_json, name="tables-json"),
    path("lobby/tables/", views.create_table, name="create"),
    path("lobby/tables/<int:pk>/", views.table_page, name="table"),
    path("lobby/tables/<int:pk>.json", views.table_json, name="table-json"),
    path("lobby/tables/<int:pk>/join/", views.join, name="join"),
    path("lobby/tables/<int:pk>/leave/", views.leave, name="leave"),
    path("lobby/tables/<int:pk>/cancel/", views.cancel, name="cancel"),
    path("lobby/tables/<int:pk>/start/", views.start, name="start"),
    path("lobby/tables/<int:pk>/bots/", views.add_bot, name="add-bot"),
    path("lobby/tables/<int:pk>/seats/remove/", views.remove_seat, name="remove-seat"),
]

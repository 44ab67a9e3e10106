"""The bot owner's pages, under /bots/<id>/ (ids are digits; other paths are free for others)."""

from __future__ import annotations

from django.urls import path

from web.bots import views as owner_views

app_name = "botlog"

urlpatterns = [
    path("bots/<int:bot_id>/log/", owner_views.bot_log, name="log"),
    path("bots/<int:bot_id>/log/reactivate/", owner_views.reactivate, name="reactivate"),
    path("bots/<int:bot_id>/log/webhook/", owner_views.set_webhook, name="webhook"),
]

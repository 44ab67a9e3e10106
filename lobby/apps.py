"""App configuration for ``lobby``: open tables where people and bots gather for a game."""

from __future__ import annotations

from django.apps import AppConfig


class LobbyConfig(AppConfig):
    """The lobby: tables to create, join and fill with bots; a full table starts its game."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "lobby"
    verbose_name = "lobby"

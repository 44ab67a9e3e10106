"""App configuration for ``lobby``: open tables where people and bots gather for a game."""

from __future__ import annotations

from django.apps import AppConfig


class LobbyConfig(AppConfig):
    """The lobby: tables to create, join and fill with bots; a full table starts its game."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "lobby"
    verbose_name = "lobby"

    def ready(self) -> None:
        # Django's place for these: the receivers' module imports models.
        from games.signals import game_aborted, game_finished

        from .receivers import on_game_over

        game_finished.connect(on_game_over, dispatch_uid="lobby.game_finished")
        game_aborted.connect(on_game_over, dispatch_uid="lobby.game_aborted")

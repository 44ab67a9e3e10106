"""App configuration for ``tournaments``."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import game_finished

        from . import game_hooks

        game_finished.connect(game_hooks.on_game_finished, dispatch_uid="tournaments.finished")

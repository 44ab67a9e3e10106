"""App configuration for ``tournaments``."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import retirement
        from games.signals import game_aborted, game_finished

        from . import game_hooks
        from .retirement import keep_entrants

        game_finished.connect(game_hooks.on_game_finished, dispatch_uid="tournaments.finished")
        game_aborted.connect(game_hooks.on_game_aborted, dispatch_uid="tournaments.aborted")
        retirement.register("tournaments.entrants", keep_entrants)  # a bot deleted by its owner

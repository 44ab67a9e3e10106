"""App configuration for ``tournaments``."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.referee import live_pages
        from games.signals import game_aborted, game_created, game_finished

        from . import broadcast, game_hooks

        game_created.connect(game_hooks.on_game_created, dispatch_uid="tournaments.created")
        game_finished.connect(game_hooks.on_game_finished, dispatch_uid="tournaments.finished")
        game_aborted.connect(game_hooks.on_game_aborted, dispatch_uid="tournaments.aborted")
        # The referee (in games) publishes to live pages through this, never
        # importing the web side.
        live_pages.register(broadcast)

"""App configuration for ``tournaments``."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Django's place for these: models and what imports them load once the apps are ready.
        from games import retirement
        from games.signals import game_aborted, game_created, game_finished

        from . import game_hooks, round_mail
        from .retirement import keep_entrants

        game_finished.connect(game_hooks.on_game_finished, dispatch_uid="tournaments.finished")
        game_aborted.connect(game_hooks.on_game_aborted, dispatch_uid="tournaments.aborted")
        game_created.connect(round_mail.on_game_created, dispatch_uid="tournaments.round-mail")
        retirement.register("tournaments.entrants", keep_entrants)  # a bot deleted by its owner

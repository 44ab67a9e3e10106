"""App configuration for ``ratings``."""

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Django's place for these: models and what imports them load once the apps are ready.
        from games.signals import game_finished, games_settled
        from ratings.services.apply import on_game_finished, on_games_settled

        # In the finishing transaction: the result is rated once, or not at all with it.
        game_finished.connect(on_game_finished, dispatch_uid="ratings.apply")
        # An abort may close a duplicate set whose finished games wait for it (services).
        games_settled.connect(on_games_settled, dispatch_uid="ratings.closed_sets")

"""App configuration for ``ratings``."""

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # An abort may close a duplicate set whose finished games wait for it (services).
        from tournaments.signals import games_settled

        from .services import on_games_settled

        games_settled.connect(on_games_settled, dispatch_uid="ratings.closed_sets")

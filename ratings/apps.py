"""App configuration for ``ratings``."""

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import game_finished

        from .services import on_game_finished

        # In the finishing transaction: the result is rated once, or not at all with it.
        game_finished.connect(on_game_finished, dispatch_uid="ratings.apply")

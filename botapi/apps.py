"""App configuration for ``botapi``."""

from django.apps import AppConfig


class BotApiConfig(AppConfig):
    name = "botapi"
    verbose_name = "Bots"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import players
        from games.models import Competitor

        from .seat_player import BOT_SEATS

        players.register(Competitor.Kind.BOT, BOT_SEATS)  # the referee asks bots' seats here

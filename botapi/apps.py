"""App configuration for ``botapi``."""

from django.apps import AppConfig


class BotApiConfig(AppConfig):
    name = "botapi"
    verbose_name = "Bots"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import owner_cache

        owner_cache.connect()  # a bot, its alerts or its name written: its owner page reads afresh

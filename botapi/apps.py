"""App configuration for ``botapi``."""

from django.apps import AppConfig


class BotApiConfig(AppConfig):
    name = "botapi"
    verbose_name = "Bots"
    default_auto_field = "django.db.models.BigAutoField"

"""App configuration for ``harbormaster`` (the project's own modules)."""

from django.apps import AppConfig


class HarbormasterConfig(AppConfig):
    name = "harbormaster"
    verbose_name = "Harbormaster"

    def ready(self) -> None:
        from . import pagecache_signals

        pagecache_signals.connect()  # rows whose names the public pages show bump their cache

from __future__ import annotations

from django.apps import AppConfig


class StatsConfig(AppConfig):
    """Competitor pages (bots and people): rating history, seats, head-to-head, games, exports.

    Depends on ``tournaments``, ``ratings`` and ``botapi``; ``people`` uses it
    for the person page, never the reverse.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "stats"
    verbose_name = "competitor statistics"

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

    def ready(self) -> None:
        # Django's place for these: models and what imports them load once the apps are ready.
        from django.db.models.signals import post_save

        from games.models import Outcome
        from games.signals import games_settled
        from stats.services import on_games_settled, on_outcome_saved

        # A signal, not a call from tournaments: stats sits above tournaments and ratings.
        games_settled.connect(on_games_settled, dispatch_uid="stats.services")
        post_save.connect(on_outcome_saved, sender=Outcome, dispatch_uid="stats.services.outcome")

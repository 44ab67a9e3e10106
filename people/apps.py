from __future__ import annotations

from django.apps import AppConfig


class PeopleConfig(AppConfig):
    """People's accounts: sign-up, sign-in (django-allauth), profiles and person pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "people"
    verbose_name = "people"

    def ready(self) -> None:
        from games import players
        from games.models import Competitor

        from .seat_player import PERSON_SEATS

        players.register(Competitor.Kind.PERSON, PERSON_SEATS)  # a person's move comes later

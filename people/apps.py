from __future__ import annotations

from django.apps import AppConfig


class PeopleConfig(AppConfig):
    """People's accounts: sign-up, sign-in (django-allauth), profiles and person pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "people"
    verbose_name = "people"

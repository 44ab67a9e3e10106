from __future__ import annotations

from django.apps import AppConfig


class PeopleConfig(AppConfig):
    """People's accounts: sign-up, sign-in (django-allauth), profiles and person pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "people"
    verbose_name = "people"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from . import auth_cache

        auth_cache.connect()  # a user saved or deleted: their cached row is stale
        # Signing in reads the user once, so every page after it costs the same.
        user_logged_in.connect(_signed_in, dispatch_uid="people-signed-in-warm")


def _signed_in(sender: object, request: object, user: object, **kwargs: object) -> None:
    """Read the user into the cache at sign-in, from the database.

    Connected after Django's own ``update_last_login`` (the auth app is ready
    first), whose save has just made the cached user stale; so the first page
    after signing in is served like every later one.
    """
    from . import auth_cache

    auth_cache.cached_user(user.pk)  # type: ignore[attr-defined]

from __future__ import annotations

from django.apps import AppConfig


class PeopleConfig(AppConfig):
    """People's accounts: sign-up, sign-in (django-allauth), profiles and person pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "people"
    verbose_name = "people"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from games import players
        from games.models import Competitor
        from harbormaster import pagecache

        from . import auth_cache, header, prefetch, seated
        from .seat_player import PERSON_SEATS

        players.register(Competitor.Kind.PERSON, PERSON_SEATS)  # a person's move comes later

        auth_cache.connect()  # a user saved or deleted: their cached row is stale
        seated.connect()  # a person seated in a new game: the badge asks the database again
        pagecache.register_header_variant(header.header_variant)  # who may have a kept header
        # A signed-in page's user, "may a game wait" and header read with the page, at once.
        pagecache.register_signed_in_keys(prefetch.signed_in_keys)
        # Signing in reads both once, so every page after it costs the same.
        user_logged_in.connect(_signed_in, dispatch_uid="people-signed-in-warm")


def _signed_in(sender: object, request: object, user: object, **kwargs: object) -> None:
    """Read the user and their "may a game wait" into the cache at sign-in, from the database.

    Connected after Django's own ``update_last_login`` (the auth app is ready
    first), whose save has just made the cached user stale; so the first page
    after signing in is served like every later one.
    """
    from . import auth_cache, seated

    auth_cache.cached_user(user.pk)  # type: ignore[attr-defined]
    seated.may_wait(user)

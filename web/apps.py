"""App configuration for ``web``: where the web layer listens to the apps below it."""

from __future__ import annotations

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Web"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from games.referee import live_pages
        from web.cache import (
            auth_user,
            header,
            invalidation,
            owner_page,
            pagecache,
            seated,
            signed_in,
        )
        from web.sockets import broadcast

        # The referee publishes to live pages through this, never importing the web.
        live_pages.register(broadcast)
        # Rows whose names the public pages show, and the domain's signals, bump their cache.
        invalidation.connect()
        owner_page.connect()  # a bot, its alerts or its name written: its owner page reads afresh
        auth_user.connect()  # a user saved or deleted: their cached row is stale
        seated.connect()  # a person seated in a new game: the badge asks the database again
        pagecache.register_header_variant(header.header_variant)  # who may have a kept header
        # A signed-in page's user, "may a game wait" and header read with the page, at once.
        pagecache.register_signed_in_keys(signed_in.signed_in_keys)
        # Signing in reads both once, so every page after it costs the same.
        user_logged_in.connect(_signed_in, dispatch_uid="people-signed-in-warm")


def _signed_in(sender: object, request: object, user: object, **kwargs: object) -> None:
    """Read the user and their "may a game wait" into the cache at sign-in, from the database.

    Connected after Django's own ``update_last_login`` (the auth app is ready
    first), whose save has just made the cached user stale; so the first page
    after signing in is served like every later one.
    """
    from web.cache import auth_user, seated

    auth_user.cached_user(user.pk)  # type: ignore[attr-defined]
    seated.may_wait(user)

"""App configuration for ``web``: where the web layer listens to the apps below it."""

from __future__ import annotations

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Web"

    def ready(self) -> None:
        # Django's place for these: models and what imports them load once the apps are ready.
        from django.contrib.auth.signals import user_logged_in

        from games.referee import live_pages
        from web.cache import auth_user, invalidation, seated
        from web.sockets import broadcast

        # The referee publishes to live pages through this, never importing the web.
        live_pages.register(broadcast)
        # The domain's signals, and rows whose names the pages show, retire their fragments.
        invalidation.connect()
        auth_user.connect()  # a user saved or deleted: their cached row is stale
        seated.connect()  # a person seated in a new game: the badge asks the database again
        # Signing in reads both once, so every page after it costs the same.
        user_logged_in.connect(_signed_in, dispatch_uid="people-signed-in-warm")


def _signed_in(sender: object, request: object, user: object, **kwargs: object) -> None:
    """Read the user and their "may a game wait" into the cache at sign-in, from the database.

    Connected after Django's own ``update_last_login`` (the auth app is ready
    first), whose save has just made the cached user stale; so the first page
    after signing in is served like every later one.
    """
    # web.cache reads models: this module loads before the app registry is ready.
    from web.cache import auth_user, seated

    auth_user.cached_user(user.pk)  # type: ignore[attr-defined]
    seated.may_wait(user)

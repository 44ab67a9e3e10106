"""The signed-in user, read from Django's cache instead of the database (issue #16/#17).

Django's ``AuthenticationMiddleware`` asks the session's backend for the user
on every request that looks at ``request.user`` -- every page, for the header
-- and ``ModelBackend.get_user`` reads the row by primary key each time: a
query and its ORM work, a quarter of a signed-in page served from the page
cache (docs/architecture.md, "Signed in, warm"). :class:`CachedUserBackend`
keeps the user in Django's cache (:mod:`web.cache.versioned`: stored beside a
per-user token that every save or delete of the user replaces, at once and
after the commit) and reads the row only on a miss.

What must still hold, and why it does:

- *A password change signs out the person's other sessions.* Django checks
  the session's hash against ``user.get_session_auth_hash()`` (from the
  password) after ``get_user``; a password is changed by saving the user,
  which bumps the token, so the next request reads the new password from the
  database and the old sessions' hashes no longer match.
- *A deactivated user is signed out at once.* Deactivating is a save too; the
  fresh row's ``is_active`` is False and :meth:`CachedUserBackend.get_user`
  answers None, as ``ModelBackend`` does, for a cached user as well.
- *A deleted user* bumps on delete; the reload finds no row: None.
- A write that sends no signal (``QuerySet.update()`` on users; the project
  has none) is seen after at most :func:`seconds`.

Each request gets its own copy (the cache stores a pickle), so nothing one
request sets on its user leaks into another's. Libraries considered:
``django-cached-authentication-middleware`` (last release 2017, old-style
middleware) replaces the middleware and, on a hit, hands out the cached user
without Django's ``get_user`` -- so without the session hash check: a session
from before a password change stays signed in -- and deletes the entry on a
save, which lets a request that read the old row just before it store that
row again for the whole timeout. ``django-cachalot`` caches every ORM query of
the project, invalidated by table: far more than this needs. Here only the
backend's row read is cached, and Django's checks run as before.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.db.models.signals import post_delete, post_save

from web.cache import versioned

NAME = "auth-user"
DEFAULT_SECONDS = 300


def seconds() -> int:
    """How long a cached user is served at most (``AUTH_USER_CACHE_SECONDS``; 0: off)."""
    return int(getattr(settings, "AUTH_USER_CACHE_SECONDS", DEFAULT_SECONDS))


def _load(user_id: Any) -> Any:
    model = get_user_model()
    try:
        return model._default_manager.get(pk=user_id)
    except model.DoesNotExist:
        return None


def cached_user(user_id: Any) -> Any:
    """The user with primary key ``user_id`` (None if there is none), from the cache if current."""
    if seconds() <= 0:
        return _load(user_id)
    return versioned.read(NAME, user_id, lambda: _load(user_id), seconds())


class CachedUserBackend(ModelBackend):
    """The project's backend: Django's, whose ``get_user`` reads through the cache."""

    def get_user(self, user_id: Any) -> Any:
        user = cached_user(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None


def _changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    if instance.pk is not None:
        versioned.bump(NAME, instance.pk)


def connect() -> None:
    """Connect the receivers (``PeopleConfig.ready``): any save or delete of a user bumps it."""
    model = get_user_model()
    post_save.connect(_changed, sender=model, dispatch_uid="auth-cache-user-save")
    post_delete.connect(_changed, sender=model, dispatch_uid="auth-cache-user-delete")

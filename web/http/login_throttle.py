"""Password guessing is throttled per account and per address, on every login path.

Every login goes through Django's ``authenticate()``, and so through
:class:`ThrottledModelBackend`, the project's only authentication backend: the
admin's login form, the API's ``POST /api/v1/auth/token/``, and any sign-in
form added later, with nothing to remember. A login path that does not check
a password with ``authenticate()`` can use :func:`begin` directly.

One attempt:

1. :func:`begin` counts it, before any password is looked at, against the
   account (the username as typed, case-insensitively) and against the client's
   address (``common.client_address.throttle_ident``: ``X-Forwarded-For``
   only from trusted proxies). Counting first, with an atomic increment, means
   parallel guesses cannot all slip past one check.
2. If either count is over its limit for the current window, the attempt is
   refused without checking the password, so a refusal says nothing about
   whether the password was right. The refusal is put on the request
   (:func:`refusal`) for the view to answer with: the API a 429, the admin
   its form with a message.
3. Otherwise the password is checked. A failure stays counted. A success
   clears the account's count (its owner has proved themselves) and gives the
   address its attempt back: successful logins never count against an address
   (many people may share one), and logging in to one's own account does not
   clear a count run up guessing at others.

Counts live in Django's cache: Redis with servers (every server process sees
the same counts), this process's memory in the embedded mode. A window starts
with its first counted attempt and lasts ``LOGIN_THROTTLE_WINDOW_SECONDS``;
refused attempts are not counted, so they neither lengthen it nor, from an
address over its limit, run up the counts of the accounts they name. Limits:
``LOGIN_FAILURES_PER_ACCOUNT`` and ``LOGIN_FAILURES_PER_ADDRESS`` (settings).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied

from common.client_address import throttle_ident

log = logging.getLogger(__name__)

REFUSAL_ATTRIBUTE = "login_throttle_refusal"
"""Where :func:`begin` leaves a :class:`Refusal` on the request."""


@dataclass(frozen=True)
class Refusal:
    """An attempt refused unchecked; ``retry_after`` seconds until the window ends."""

    retry_after: int

    @property
    def message(self) -> str:
        return (
            "Too many failed logins for this account or from this address; "
            f"try again in {self.retry_after} seconds."
        )


class LoginThrottled(PermissionDenied):
    """Raised by the backend, so ``authenticate()`` stops without asking another backend."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


def account_key(username: str) -> str:
    """The account's counter key: the username case-folded (NFKC), hashed to a fixed length."""
    folded = unicodedata.normalize("NFKC", username).casefold()
    return "login-throttle:account:" + hashlib.sha256(folded.encode()).hexdigest()[:32]


def address_key(ident: str) -> str:
    return f"login-throttle:address:{ident}"


def _window() -> int:
    return int(settings.LOGIN_THROTTLE_WINDOW_SECONDS)


def _count(key: str) -> int:
    """Add one to ``key``'s count; the first count of a window starts its expiry."""
    window = _window()
    for _ in range(3):
        if cache.add(key, 1, timeout=window):
            cache.set(f"{key}:ends", time.time() + window, timeout=window)
            return 1
        try:
            return cache.incr(key)
        except ValueError:  # expired between add and incr: start afresh
            continue
    return cache.incr(key)


def _retry_after(key: str) -> int:
    ends = cache.get(f"{key}:ends")
    if ends is None:
        return _window()
    return max(1, math.ceil(ends - time.time()))


@dataclass
class Attempt:
    """One counted login attempt; say how it ended with :meth:`succeeded` or :meth:`failed`."""

    account: str
    address: str | None

    def succeeded(self) -> None:
        """Clear the account's count and take this attempt off the address's."""
        cache.delete_many([self.account, f"{self.account}:ends"])
        if self.address is not None:
            with contextlib.suppress(ValueError):  # its window ended meanwhile
                cache.decr(self.address)

    def failed(self) -> None:
        """A failure stays counted (nothing to do; here so callers can say what happened)."""


def begin(request: Any | None, username: str) -> Attempt:
    """Count an attempt at ``username`` from ``request``'s client, or refuse it.

    Raises :class:`LoginThrottled` (and marks the request, see :func:`refusal`)
    when the account or the address is over its limit. Without a request (a
    shell, a management command) only the account is counted.
    """
    keys = [(account_key(username), int(settings.LOGIN_FAILURES_PER_ACCOUNT))]
    address = None
    if request is not None:
        address = address_key(throttle_ident(request))
        keys.append((address, int(settings.LOGIN_FAILURES_PER_ADDRESS)))
    counted = [(key, limit, _count(key)) for key, limit in keys]
    over = [key for key, limit, count in counted if count > limit]
    if over:
        # A refused attempt is not counted: an address over its limit cannot go
        # on to run up the counts of accounts it names, nor the reverse.
        for key, _, _ in counted:
            with contextlib.suppress(ValueError):
                cache.decr(key)
        found = Refusal(retry_after=max(_retry_after(key) for key in over))
        if request is not None:
            setattr(request, REFUSAL_ATTRIBUTE, found)
        raise LoginThrottled(found)
    for key, limit, count in counted:
        if count == limit:
            log.warning("login throttle: %s reached its limit of %d failed logins", key, limit)
    return Attempt(account=keys[0][0], address=address)


def refusal(request: Any) -> Refusal | None:
    """The refusal :func:`begin` left on this request, if its login was throttled."""
    return getattr(request, REFUSAL_ATTRIBUTE, None)


class ThrottledModelBackend(ModelBackend):
    """Django's username-and-password backend, with every attempt counted by :func:`begin`.

    A refused attempt raises :class:`LoginThrottled`; ``authenticate()`` turns
    that into ``None`` (and a ``user_login_failed`` signal) without asking any
    other backend, and the password is never checked.
    """

    def authenticate(
        self,
        request: Any,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        attempt = begin(request, str(username))
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            attempt.failed()
        else:
            attempt.succeeded()
        return user

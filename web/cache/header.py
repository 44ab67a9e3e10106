"""What a signed-in person's site header depends on, for the page cache to keep it.

``web.cache.pagecache.site_header`` keeps a rendered header under the name
this gives (its CSRF token's value left out and put back per request). The
header shows the person's name, the admin link when they are staff, the sign-out
form and the games waiting for their move; the last is a query, and which games
it lists changes with every move, so the header is kept only for a person no
game can be waiting for (``seated.may_wait``: no seat of theirs in a game not
over, cached and bumped when they are seated). It is kept per person
(:func:`owner`, which the session alone names, so the page cache reads it with
the page: ``web.cache.signed_in``) beside the variant it was rendered for;
everything else it shows is in the variant: a new name or staff flag is a new
variant, never a stale header.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from web.cache import seated


def owner(user_id: Any) -> str:
    """Whose kept header it is: one per person."""
    return f"person:{user_id}"


def header_variant(request: HttpRequest) -> tuple[str, str] | None:
    """``(owner, variant)`` of this request's header, or None when it must be rendered."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or seated.may_wait(user):
        return None
    return owner(user.pk), f"person:{user.pk}:{int(user.is_staff)}:{user.get_username()}"

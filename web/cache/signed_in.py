"""The cache entries a signed-in request will read, named from its session alone.

A signed-in page served from the page cache reads, besides the page: the
user (``web.cache.auth_user``), whether a game may wait for them
(``web.cache.seated``) and their kept header (``web.cache.header``). Each is keyed
by the user id, which the session holds, so once the session is read the page
cache reads them all with the page in one round trip
(``web.cache.prefetch``) instead of one each. This names them; who
reads them checks them as before (the user's token and Django's session hash
check, the token of "may a game wait", the header's variant).
"""

from __future__ import annotations

from django.contrib.auth import SESSION_KEY, get_user_model
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from web.cache import auth_user as auth_cache
from web.cache import header, pagecache, seated, versioned


def signed_in_keys(request: HttpRequest) -> list[str]:
    """The keys of the user the session names, or none when it names no one.

    Reading ``request.session`` loads the session (Django's one cache read);
    the user id is taken as ``django.contrib.auth.get_user`` takes it.
    """
    session = getattr(request, "session", None)
    if session is None or SESSION_KEY not in session:
        return []
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
    except ValidationError:  # not a user id: Django signs it out, nothing to read
        return []
    keys: list[str] = []
    if auth_cache.seconds() > 0:
        keys += versioned.keys(auth_cache.NAME, user_id)
    if seated.seconds() > 0:
        keys += versioned.keys(seated.NAME, user_id)
    keys.append(pagecache.header_key(header.owner(user_id)))
    return keys

"""A versioned cache of the public result pages, for anonymous visitors only (issue #17).

Once the database work made every public page cost the same at any size, what
was left was the ORM building 20-50 rows and the templates rendering them on
every request. Most requests are anonymous and see the same bytes, so the
whole response is kept in Django's cache and served again until something it
shows changes.

*Keys.* A page's key is a hash of the method, the absolute URL with its query
string (the API's ``next`` links are absolute), the request headers the page
varies by (``Accept`` for the API) and the current *version tokens* of the page
(read with one ``get_many``). A write that changes what pages show replaces a
token (:func:`bump`, after the commit): every key made with the old one is
never asked for again and expires after ``PAGECACHE_SECONDS`` (60 s by
default), which is also the safety net for a change that bumps nothing.

*Tokens.* Few and broad, correctness before hit rate: :data:`RESULTS` (games
created or finished, ratings applied or recomputed, events and leagues) and
:data:`PEOPLE` (names and visibility of competitors, bots and people). A page
names the tokens it depends on; the public pages name both.

*Who.* Only anonymous GET/HEAD requests are served from or stored into the
cache: a signed-in person's header shows their name, a sign-out form with a
CSRF token and the games waiting for them. A response is stored only if
rendering it left nothing session-dependent behind: a 200, no cookie, no CSRF
token used (``CSRF_COOKIE_NEEDS_UPDATE``), no session change, no message read
or added, and no ``Cache-Control: private/no-store``.

*Where.* In Django's default cache: with ``REDIS_URL`` set that is Redis, shared
by every web process, so a bump in one process (or a worker finishing a
game) invalidates the pages of all; in the embedded mode (LocMemCache) tokens
and pages live in the one process's memory, which is also where every write
happens.
"""

from __future__ import annotations

import functools
import hashlib
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase

RESULTS = "results"
PEOPLE = "people"
PUBLIC = (RESULTS, PEOPLE)
DEFAULT_SECONDS = 60
_TOKEN_PREFIX = "pagecache:token:"
_PAGE_PREFIX = "pagecache:page:"
_HIT_HEADER = "X-Page-Cache"


def seconds() -> int:
    """How long a stored page lives at most (``settings.PAGECACHE_SECONDS``; 0: no cache)."""
    return int(getattr(settings, "PAGECACHE_SECONDS", DEFAULT_SECONDS))


def _new_token() -> str:
    return uuid.uuid4().hex


def tokens(names: Sequence[str]) -> list[str]:
    """The current tokens of ``names``, in order; a missing one is made (never reused).

    A token can disappear (the cache restarted or culled it): a fresh random
    one then replaces it, so pages stored under the lost one are never served.
    """
    keys = [_TOKEN_PREFIX + name for name in names]
    found = cache.get_many(keys)
    missing = [key for key in keys if key not in found]
    for key in missing:
        cache.add(key, _new_token(), timeout=None)
    if missing:
        found.update(cache.get_many(missing))
    return [str(found.get(key, "")) for key in keys]


def bump(*names: str) -> None:
    """Replace the tokens ``names`` now: every page depending on one is rendered afresh."""
    cache.set_many({_TOKEN_PREFIX + name: _new_token() for name in names}, timeout=None)


def bump_on_commit(*names: str) -> None:
    """Bump ``names`` once the current transaction commits (at once outside one).

    After the commit, so no request can render and store the old data under
    the new token.
    """
    transaction.on_commit(lambda: bump(*names))


def is_anonymous(request: HttpRequest) -> bool:
    """No signed-in user (session) and no API credentials on this request."""
    if request.META.get("HTTP_AUTHORIZATION"):
        return False
    user = getattr(request, "user", None)
    return user is None or not user.is_authenticated


def cacheable_request(request: HttpRequest) -> bool:
    return request.method in ("GET", "HEAD") and is_anonymous(request)


def page_key(request: HttpRequest, names: Sequence[str], vary: Iterable[str] = ()) -> str:
    """The cache key of this request's page under the current tokens of ``names``."""
    parts = [request.method or "", request.build_absolute_uri()]
    parts += [f"{header}={request.headers.get(header, '')}" for header in vary]
    parts += tokens(names)
    digest = hashlib.sha256("\n".join(parts).encode()).hexdigest()
    return _PAGE_PREFIX + digest


def storable(request: HttpRequest, response: HttpResponseBase) -> bool:
    """Whether ``response`` is the same for every anonymous visitor of this URL.

    Anything the session or the CSRF machinery put into it, or will add to it
    on the way out, makes it one visitor's.
    """
    if response.status_code != 200 or response.streaming or response.cookies:
        return False
    cache_control = response.get("Cache-Control", "")
    if "private" in cache_control or "no-store" in cache_control:
        return False
    if request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):  # a CSRF token was put in the page
        return False
    session = getattr(request, "session", None)
    if session is not None and session.modified:
        return False
    messages = getattr(request, "_messages", None)
    return messages is None or not (messages.used or messages._queued_messages)


def _freeze(response: HttpResponseBase) -> tuple[int, list[tuple[str, str]], bytes]:
    headers = [(k, v) for k, v in response.items() if k.lower() != _HIT_HEADER.lower()]
    return response.status_code, headers, response.content


def _thaw(stored: tuple[int, list[tuple[str, str]], bytes]) -> HttpResponse:
    status, headers, content = stored
    response = HttpResponse(content, status=status)
    for name, value in headers:
        response[name] = value
    response[_HIT_HEADER] = "hit"
    return response


def serve(
    request: HttpRequest,
    render: Callable[[], HttpResponseBase],
    names: Sequence[str] = PUBLIC,
    vary: Iterable[str] = (),
) -> HttpResponseBase:
    """The stored page for an anonymous request, else ``render()``'s, stored if storable."""
    if seconds() <= 0 or not cacheable_request(request):
        return render()
    vary = tuple(vary)
    key = page_key(request, names, vary)
    stored = cache.get(key)
    if stored is not None:
        return _thaw(stored)
    csrf_before = request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    response = render()

    def store(rendered: HttpResponseBase) -> None:
        if not csrf_before and storable(request, rendered):
            cache.set(key, _freeze(rendered), timeout=seconds())

    response[_HIT_HEADER] = "miss"
    if callable(getattr(response, "add_post_render_callback", None)) and not getattr(
        response, "is_rendered", True
    ):
        response.add_post_render_callback(store)  # a TemplateResponse or DRF's Response
    else:
        store(response)
    return response


def cached_page(
    *names: str, vary: Iterable[str] = ()
) -> Callable[[Callable[..., HttpResponseBase]], Callable[..., HttpResponseBase]]:
    """View decorator: :func:`serve` the view's page under the tokens ``names`` (default both)."""
    depends = names or PUBLIC

    def decorator(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            return serve(request, lambda: view(request, *args, **kwargs), depends, vary)

        return wrapped

    return decorator


def clear() -> None:
    """Forget every token (tests): pages stored under them are never served again."""
    bump(*PUBLIC)

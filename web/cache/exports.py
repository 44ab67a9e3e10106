"""Django's ``cache_page`` for the anonymous JSON exports, keyed by the versions they show.

The leaderboards' and the games' JSON pages are the same for every anonymous
caller of one URL and ``Accept`` header, so they are kept whole by Django's
own ``cache_page`` (its ``CacheMiddleware``: the key is the URL with its query,
and the headers the response varies by -- ``Accept``, which picks JSON or
CSV, is added with ``vary_on_headers``). Its ``key_prefix`` holds the
versions of what the answer shows (``web.cache.invalidation``), so a write
retires it as it retires the pages' fragments. A caller signed in by session
or by an ``Authorization`` header is answered afresh (throttles count them,
and what they see may be theirs). A CSV export is streamed, and
``cache_page`` does not keep streamed answers: it is written afresh each time.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from django.views.decorators.cache import cache_page
from django.views.decorators.vary import vary_on_headers

from web.cache import invalidation

View = Callable[..., HttpResponseBase]
HTTP_SECONDS = 60
"""At most this long: ``cache_page`` also tells HTTP caches (``Cache-Control: max-age``) to keep
the answer that long, which no version can retire."""


def _anonymous(request: HttpRequest) -> bool:
    if request.method not in ("GET", "HEAD") or request.META.get("HTTP_AUTHORIZATION"):
        return False
    user = getattr(request, "user", None)
    return user is None or not user.is_authenticated


def anonymous_cache_page(names_of: Callable[..., Sequence[str]]) -> Callable[[View], View]:
    """``cache_page`` for anonymous GETs of a view, under the versions ``names_of(**kwargs)``
    gives from the URL's arguments."""

    def decorate(view: View) -> View:
        varied = vary_on_headers("Accept")(view)

        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not _anonymous(request):
                return view(request, *args, **kwargs)
            versions = invalidation.fragments(*names_of(**kwargs))
            if versions.seconds <= 0:
                return view(request, *args, **kwargs)
            seconds = min(versions.seconds, HTTP_SECONDS)
            cached = cache_page(seconds, key_prefix=f"export:{versions.key}")(varied)
            return cached(request, *args, **kwargs)

        return wrapped

    return decorate

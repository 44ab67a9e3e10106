"""Project-level pages: the home page (with the recent games) and the health endpoint."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

import engines
from games.selectors import listings
from web.cache import invalidation
from web.cache.lazy import lazy
from web.health import run_checks

RECENT_GAMES_ON_HOME = 20


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """What Harbormaster is, the games it referees, and the latest games with their results.

    The newest games only, with an "older games" link to the game list's next page; read
    only when the ``{% cache %}`` fragment holding them is missing (lazy).
    """
    page = lazy(lambda: listings.games_page(listings.listed_games(), None, RECENT_GAMES_ON_HOME))
    return render(
        request,
        "home.html",
        {
            "engines": engines.all_engines(),
            "recent": lazy(lambda: page.games),
            "older": lazy(lambda: page.older),
            "fragments": invalidation.fragments(invalidation.RESULTS),
        },
    )


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database, channel layer and broker all answer; 503 naming the failures."""
    results = run_checks()
    failed = [name for name, result in results.items() if not result.ok]
    body: dict[str, object] = {name: result.as_dict() for name, result in results.items()}
    body["status"] = "fail" if failed else "ok"
    body["failed"] = failed
    return JsonResponse(body, status=503 if failed else 200)

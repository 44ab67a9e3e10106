"""Project-level pages: the home page (with the recent games) and the health endpoint."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

import engines
from games import listings
from web.cache import tokens as pagecache_tokens
from web.cache.pagecache import cached_page
from web.health import run_checks

RECENT_GAMES_ON_HOME = 20


@require_GET
@cached_page(depends=pagecache_tokens.lists)
def home(request: HttpRequest) -> HttpResponse:
    """What Harbormaster is, the games it referees, and the latest games with their results.

    The newest games only, with an "older games" link to the game list's next page.
    """
    page = listings.games_page(listings.listed_games(), None, RECENT_GAMES_ON_HOME)
    return render(
        request,
        "home.html",
        {"engines": engines.all_engines(), "recent": page.games, "older": page.older},
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

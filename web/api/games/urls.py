"""Routes of the game API, mounted at /api/v1/ by ``harbormaster/urls.py``."""

from __future__ import annotations

from django.urls import URLPattern
from rest_framework.routers import SimpleRouter

from web.api.games import arena, leaderboards
from web.api.games.events import TournamentViewSet
from web.api.games.views import GameViewSet
from web.cache import exports, invalidation

app_name = "games-api"

router = SimpleRouter(trailing_slash=True)
router.register("games", GameViewSet, basename="game")
router.register("tournaments", TournamentViewSet, basename="tournament")


def _kept(route: URLPattern) -> URLPattern:
    """The game list's route with an anonymous caller's pages kept (``web.cache.exports``)."""
    if route.name != "game-list":
        return route
    keep = exports.anonymous_cache_page(lambda **_: [invalidation.RESULTS])
    return URLPattern(route.pattern, keep(route.callback), route.default_args, route.name)


urlpatterns = [_kept(route) for route in router.urls]
urlpatterns += arena.urlpatterns  # leagues/{slug}/arena/
urlpatterns += leaderboards.urlpatterns  # leaderboards/{engine}/, leagues/{slug}/leaderboard/

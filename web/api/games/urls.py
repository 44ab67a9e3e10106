"""Routes of the game API, mounted at /api/v1/ by ``harbormaster/urls.py``."""

from __future__ import annotations

from rest_framework.routers import SimpleRouter

from web.api.games import arena, leaderboards
from web.api.games.events import TournamentViewSet
from web.api.games.views import GameViewSet

app_name = "games-api"

router = SimpleRouter(trailing_slash=True)
router.register("games", GameViewSet, basename="game")
router.register("tournaments", TournamentViewSet, basename="tournament")

urlpatterns = router.urls
urlpatterns += arena.urlpatterns  # leagues/{slug}/arena/
urlpatterns += leaderboards.urlpatterns  # leaderboards/{engine}/, leagues/{slug}/leaderboard/

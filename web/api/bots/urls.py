"""Routes of the bot API, mounted at /api/v1/ by ``harbormaster/urls.py``.

Bot ids are digits only, so ``bots/me/...`` stays free for the pull API and
``bots/open/...`` for the public listing of open bots.
"""

from __future__ import annotations

from django.urls import path
from rest_framework.routers import SimpleRouter

from web.api.bots import pull_views
from web.api.bots.open_views import OpenBotViewSet
from web.api.bots.views import BotViewSet, TokenView

app_name = "api"

router = SimpleRouter(trailing_slash=True)
router.register("bots/open", OpenBotViewSet, basename="open-bot")
router.register("bots", BotViewSet, basename="bot")

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    # Pull mode; the paths of the protocol, and the same with a trailing slash.
    path("bots/me/turns", pull_views.long_poll(pull_views.TurnsView), name="pull-turns"),
    path("bots/me/turns/", pull_views.long_poll(pull_views.TurnsSlashView)),
    path("games/<int:game_id>/moves", pull_views.MovesView.as_view(), name="pull-moves"),
    path("games/<int:game_id>/moves/", pull_views.MovesSlashView.as_view()),
    *router.urls,
]

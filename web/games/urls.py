"""Web pages of games, leaderboards, tournaments and leagues, included at the site root by
``harbormaster/urls.py``."""

from __future__ import annotations

from django.urls import path

from web.events import entry as event_entry
from web.events import exports as event_exports
from web.events import parts as event_parts
from web.events import printing as event_printing
from web.events import views as event_views
from web.games import (
    board as board_views,
)
from web.games import (
    play as play_views,
)
from web.games import (
    replay as replay_views,
)
from web.games import (
    verify as verify_views,
)
from web.games import (
    views,
)

app_name = "tournaments"

urlpatterns = [
    path("games/", views.games, name="games"),
    path("games/<int:pk>/", views.game_page, name="game"),
    path("games/<int:pk>/verify/", verify_views.verify_page, name="game-verify"),
    path("games/<int:pk>/boards.json", replay_views.game_boards, name="game-boards"),
    path("games/<int:pk>/play/", play_views.play_page, name="play"),
    path("boards/<slug:engine>/", board_views.board_preview, name="board-preview"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboards/<slug:engine>/", views.leaderboard, name="leaderboard"),
    path("tournaments/", event_views.tournament_list, name="tournaments"),
    path("tournaments/<int:pk>/", event_views.tournament_page, name="tournament"),
    path("tournaments/<int:pk>/enter/", event_entry.enter, name="enter"),
    path("tournaments/<int:pk>/withdraw/", event_entry.withdraw, name="withdraw"),
    path("tournaments/<int:pk>/check-in/", event_entry.check_in, name="check-in"),
    path("tournaments/<int:pk>/standings.csv", event_views.standings_csv, name="standings-csv"),
    path("tournaments/<int:pk>/results.csv", event_exports.results_csv, name="results-csv"),
    path("tournaments/<int:pk>/print/", event_printing.print_page, name="print"),
    path("tournaments/<int:pk>/standings/", event_parts.standings_page, name="standings"),
    path("tournaments/<int:pk>/crosstable/", event_parts.crosstable_page, name="crosstable"),
    path("tournaments/<int:pk>/entrants/", event_parts.entrants_page, name="entrants"),
    path("tournaments/<int:pk>/rounds/<int:number>/", event_parts.round_page, name="round"),
    path("leagues/<slug:slug>/", event_views.league_page, name="league"),
]

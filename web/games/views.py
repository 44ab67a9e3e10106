"""Server-rendered game pages: one game with its replay, and the leaderboards.

What may be shown is decided in :mod:`games.selectors.spectator` (no action,
chance's included, and no seed before a game is finished); these views only
gather it for the templates.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET

import engines
from games.models import Game, Seat
from games.records import replay
from games.selectors import cursor as game_cursor
from games.selectors import listings, seat_holders, spectator
from ratings import selectors as ratings_selectors
from tournaments.selectors import adjudications as event_adjudications
from tournaments.selectors import listings as event_listings
from web.cache import invalidation
from web.cache.lazy import lazy
from web.games import page_reads as game_page_reads
from web.games import ply_window, rating_effects, seat_texts
from web.leaderboards import pages as ladder_pages
from web.leaderboards import params as ladder_params
from web.leaderboards import ranking as leaderboards_

GAMES_PER_PAGE = 50
LEAGUES_ON_OVERVIEW = 20
"""The leaderboards overview links this many leagues' ladders (all: the tournaments page)."""


def _seats_held(game: Game, user: Any) -> frozenset[int]:
    """``seats_held_by`` with the seats and their competitors read in one query first.

    ``games_with_results`` leaves the seats unread (the page reads them as rows), and
    ``seats_held_by`` walks ``game.seats`` to each competitor: unprefetched, a signed-in
    viewer of a running game cost a query per seat more than an anonymous one.
    """
    if getattr(user, "is_authenticated", False):
        seats = Seat.objects.select_related("competitor").order_by("position")
        prefetch_related_objects([game], Prefetch("seats", seats))
    return seat_holders.seats_held_by(game, user)


@require_GET
def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Seats, and once public their results with the rating change the game caused; the seed
    commitment (the seed, a verify link and the record's download once public); the replay.

    Rendered on every view (no fragment: a first view of a finished game is the common
    case); before the record is public it moves with every ply and shows a seat
    holder their own seat, so it is marked ``private``.
    """
    game = get_object_or_404(listings.games_with_results(), pk=pk)
    withdrawn = game_page_reads.attach_seats(game)
    seats = spectator.public_seats(game)
    names = {seat.position: seat.competitor for seat in seats}
    rules = engines.get(game.engine)
    asked = request.GET.get("plies")
    shown, window = spectator.public_plies_between(
        game, lambda total: ply_window.requested(total, asked)
    )
    plies = [
        {
            "ply": ply,
            "who": "chance" if ply.is_chance else seat_texts.seat_label(ply.seat, names),
            "description": seat_texts.with_names(ply.description or "", names),
            "events": [
                seat_texts.with_names(spectator.event_text(rules, event), names)
                for event in ply.events
            ],
        }
        for ply in shown
    ]
    summary = listings.GameSummary(game, listings.engine_name(game.engine), seats)
    public = spectator.is_public(game)
    # The seat switcher: every seat once the record is public; before, the viewer's own.
    held = frozenset() if public else _seats_held(game, request.user)
    board = {
        "engine": rules.slug,
        "url": reverse("tournaments:game-boards", args=[game.pk]),
        "public": public,
        "positions": replay.replayable_positions(game),
        "seats": [
            {"seat": seat.position, "name": seat.competitor, "yours": seat.position in held}
            for seat in seats
            if public or seat.position in held
        ],
        "held": bool(held),
    }
    response = render(
        request,
        "tournaments/game.html",
        {
            "game": game,
            "summary": summary,
            "seats": seats,
            "seed": spectator.visible_seed(game),
            "finished": public,
            "ratings": rating_effects.game_ratings(game, seats, withdrawn),
            "board": board,
            "plies": plies,
            "ply_count": window.total,
            "ply_window": window,
            "current_version": rules.version,
            "adjudication": (
                event_adjudications.of_game(game)
                if game.status == game.Status.ABORTED and game.table_id
                else None
            ),
        },
    )
    if not public:
        patch_cache_control(response, private=True)
    return response


@require_GET
def games(request: HttpRequest) -> HttpResponse:
    """Every listed game, newest first, a page at a time ("older games" by cursor); the list
    is a fragment, read only when missing."""
    before = game_cursor.requested(request.GET)
    page = lazy(lambda: listings.games_page(listings.listed_games(), before, GAMES_PER_PAGE))
    here = reverse("tournaments:games")
    return render(
        request,
        "tournaments/game_list.html",
        {
            "games": lazy(lambda: page.games),
            "older": lazy(lambda: page.older),
            "older_url": here,
            "newest_url": here if before is not None else "",
            "before": before,
            "fragments": invalidation.fragments(invalidation.RESULTS),
        },
    )


@require_GET
def leaderboards(request: HttpRequest) -> HttpResponse:
    """Every engine's global ladder: its top few in the chosen system (a query each), linking
    to the full board in that system; and links to the leagues' own ladders. One fragment,
    read only when missing."""
    asked = ladder_params.from_query(request.GET)
    ladder = leaderboards_.Ladder(asked.ladder.system)
    boards = lazy(
        lambda: ladder_pages.overview(
            engines.all_engines(), ratings_selectors.global_ladders(), ladder
        )
    )
    leagues = lazy(lambda: event_listings.first_leagues(LEAGUES_ON_OVERVIEW))
    every_ladder = [invalidation.ladder(engine.slug) for engine in engines.all_engines()]
    return render(
        request,
        "tournaments/leaderboards.html",
        {
            "boards": boards,
            "leagues": lazy(lambda: leagues[0]),
            "more_leagues": lazy(lambda: leagues[1]),
            "query": request.META.get("QUERY_STRING", ""),
            "fragments": invalidation.fragments(*every_ladder, invalidation.EVENTS),
            "ladder": ladder,
            "systems": ladder_pages.system_links(None, ladder, with_kind=False),
            "notes": asked.ignored,
        },
    )


@require_GET
def leaderboard(request: HttpRequest, engine: str) -> HttpResponse:
    """One engine's global ladder, a page at a time, in the chosen system and kind
    (``web.leaderboards.pages``)."""
    try:
        rules = engines.get(engine)
    except engines.InvalidGame:
        raise Http404(f"no game called {engine!r}") from None
    query = request.GET
    board = lazy(lambda: ladder_pages.board(ratings_selectors.global_ladder(rules.slug), query))
    return render(
        request,
        "tournaments/leaderboard.html",
        {
            "engine": rules,
            "board": board,
            "export_url": reverse("games-api:leaderboard", args=[rules.slug]),
            "recent": lazy(lambda: listings.recent_games(10, engine=rules.slug)),
            "query": request.META.get("QUERY_STRING", ""),
            "fragments": invalidation.fragments(invalidation.ladder(rules.slug)),
            "recent_fragments": invalidation.fragments(invalidation.engine_games(rules.slug)),
        },
    )

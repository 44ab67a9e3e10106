"""Server-rendered pages of tournaments and leagues, and the standings as CSV.

What may be shown is decided in :mod:`tournaments.selectors.listings` (drafts are
not public, the event seed only once revealed) and the standings in
:mod:`tournaments.selectors.standings_table`; these views only gather it for the
templates.
"""

from __future__ import annotations

import csv

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from common.csv_text import spreadsheet_safe
from tournaments import events
from tournaments.events.history import settings_of
from tournaments.formats import standings as pure_standings
from tournaments.formats import tiebreaks
from tournaments.models import League
from tournaments.selectors import adjudications as event_adjudications
from tournaments.selectors import listings as event_listings
from tournaments.selectors import standings_table as event_standings
from tournaments.selectors.my_entry import my_entry
from web.cache import invalidation
from web.cache.lazy import lazy
from web.leaderboards import pages as ladder_pages

ARENA_GAMES_ON_LEAGUE_PAGE = 10


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    """Every public tournament, running ones first, and the leagues: one fragment, read only
    when missing."""

    def rows() -> list[dict]:
        return [
            {"tournament": t, "total_rounds": event_listings.total_rounds(t, t.entrant_count)}
            for t in event_listings.public_tournaments()
        ]

    return render(
        request,
        "tournaments/tournament_list.html",
        {
            "rows": lazy(rows),
            "leagues": League.objects.order_by("name"),
            "fragments": invalidation.fragments(invalidation.EVENT_LIST),
        },
    )


STANDINGS_SHOWN = 32
"""Standings rows on the event page; all of them are on its standings pages."""
CROSSTABLE_SHOWN = 16
"""The top of the standings against each other on the event page (16 x 16 cells)."""
TABLES_SHOWN = 16
"""Tables on the event page, newest round first; each round has its own pages."""
ENTRANTS_SHOWN = 32
"""Entrants on the event page, by seed; all of them are on its entrants pages."""
ADJUDICATIONS_SHOWN = 32
"""Adjudicated results listed on the event page (each is also on its game's page)."""


@require_GET
def tournament_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Status, settings, seed, and the top of the standings, rounds, crosstable and entrants.

    Each list shows a bounded head (``*_SHOWN``) with a link to the rest on
    pages of its own (:mod:`web.events.parts`), so the page costs the same for
    a club night and for an open of hundreds.

    The page below its title is one fragment (``tournament.html``) keyed by the event's
    versions: what it shows is read only when the fragment is missing (lazy).
    """
    tournament = event_listings.public_tournament(pk)
    if tournament is None:
        raise Http404("no such tournament")
    board = lazy(lambda: event_standings.board(tournament))
    entrants = lazy(lambda: board.entrants)

    return render(
        request,
        "tournaments/tournament.html",
        {
            "t": tournament,
            "settings": lazy(
                lambda: event_listings.settings_in_words(
                    tournament, len(entrants), event_listings.dropped_at_start(entrants)
                )
            ),
            "total_rounds": lazy(lambda: event_listings.total_rounds(tournament, len(entrants))),
            "seed": lazy(lambda: events.event_seed_revealed(tournament)),
            "entrant_count": lazy(lambda: len(entrants)),
            "entrants": lazy(lambda: entrants[:ENTRANTS_SHOWN]),
            "rounds": lazy(
                lambda: event_listings.first_tables(
                    tournament, entrants, board.history, TABLES_SHOWN
                )
            ),
            "standings": lazy(lambda: board.standings[:STANDINGS_SHOWN]),
            "crosstable": lazy(lambda: board.top_crosstable(CROSSTABLE_SHOWN)),
            "bye_points": lazy(lambda: pure_standings.bye_points(settings_of(tournament))),
            "adjudications": lazy(
                lambda: event_adjudications.of_event(tournament, ADJUDICATIONS_SHOWN)
            ),
            "fragments": invalidation.fragments(
                invalidation.event(tournament.pk), invalidation.EVENTS
            ),
            "my_entry": my_entry(tournament, request.user),
        },
    )


CSV_COLUMNS = ("rank", "entrant", "kind", "status", "points", "tables", "byes", "reason")
"""The standings CSV's fixed columns; the event's tie-breaks (by name, in its order) go
after ``points``."""


def number(value: float) -> str:
    """Up to six decimals, no trailing zeros: 6 -> "6", 24.666666666666664 -> "24.666667"."""
    return f"{value:.6f}".rstrip("0").rstrip(".")


@require_GET
def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings as CSV, one row per entrant in rank order, named after the tournament."""
    tournament = get_object_or_404(event_listings.public_tournaments(), pk=pk)
    name = slugify(tournament.slug or tournament.name) or "tournament"
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}-{tournament.pk}-standings.csv"'
    writer = csv.writer(response)
    rows = event_standings.standings(tournament)
    chosen = tiebreaks.check(tournament.tie_breaks or ())
    writer.writerow([*CSV_COLUMNS[:5], *chosen, *CSV_COLUMNS[5:]])
    for row in rows:
        writer.writerow(
            [
                row.rank,
                spreadsheet_safe(row.entrant.name),
                row.entrant.kind,
                row.entrant.status,
                number(row.points),
                *(number(tb.value) for tb in row.tie_breaks),
                row.tables,
                row.byes,
                spreadsheet_safe(row.entrant.reason),
            ]
        )
    return response


@require_GET
def league_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A league: its tournaments, its own leaderboard, its pool and its arena; all but its
    title one fragment, read only when missing."""
    league = get_object_or_404(League, slug=slug)
    tournaments = event_listings.public_tournaments().filter(league=league)
    query = request.GET
    board = lazy(
        lambda: ladder_pages.board(
            event_listings.league_scope(league),
            query,
            offer_kinds=league.pool == League.Pool.MIXED,
        )
    )
    return render(
        request,
        "tournaments/league.html",
        {
            "league": league,
            "tournaments": lazy(
                lambda: [
                    {
                        "tournament": t,
                        "total_rounds": event_listings.total_rounds(t, t.entrant_count),
                    }
                    for t in tournaments
                ]
            ),
            "board": board,
            "export_url": reverse("games-api:league-leaderboard", args=[league.slug]),
            "arena_players": lazy(lambda: league.arena_entries.filter(active=True).count()),
            "recent": lazy(lambda: event_listings.arena_games(league, ARENA_GAMES_ON_LEAGUE_PAGE)),
            "query": request.META.get("QUERY_STRING", ""),
            "fragments": invalidation.fragments(invalidation.RESULTS, invalidation.EVENTS),
            "arena_move_time": event_listings.seconds(league.arena_move_time_ms),
            "arena_time_bank": event_listings.seconds(league.arena_time_bank_ms),
        },
    )

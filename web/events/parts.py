"""An event's long lists on pages of their own: standings, crosstable, entrants, a round's tables.

The event page (:func:`web.events.views.tournament_page`) shows the head of
each list and links here; each of these pages shows one page of one list
(Django's paginator, read leniently as the leaderboards read ``?page=``: past
the end is the last page), so what a page renders is bounded by its page size,
not by the event. What may be shown is decided in
:mod:`tournaments.selectors.listings`, as for the event page.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournaments.events.rounds import settings_of
from tournaments.formats import standings as pure_standings
from tournaments.models import Tournament
from tournaments.selectors import listings as event_listings
from tournaments.selectors import standings_table as event_standings

STANDINGS_PER_PAGE = 64
MEETINGS_PER_PAGE = 32
ENTRANTS_PER_PAGE = 64
TABLES_PER_PAGE = 32


def _event(pk: int) -> Tournament:
    return get_object_or_404(event_listings.public_tournaments(), pk=pk)


def _part(request: HttpRequest, t: Tournament, heading: str, part: str, **context: Any):
    return render(
        request,
        "tournaments/tournament_part.html",
        {"t": t, "heading": heading, "part": part, **context},
    )


@require_GET
def standings_page(request: HttpRequest, pk: int) -> HttpResponse:
    """One page of the standings, best first."""
    t = _event(pk)
    board = event_standings.board(t)
    page = Paginator(board.standings, STANDINGS_PER_PAGE).get_page(request.GET.get("page"))
    return _part(
        request, t, "Standings", "tournaments/_standings.html",
        page=page, what="entrants", standings=page.object_list,
        bye_points=pure_standings.bye_points(settings_of(t)),
    )  # fmt: skip


@require_GET
def crosstable_page(request: HttpRequest, pk: int) -> HttpResponse:
    """One page of the crosstable's rows, each with only the entrants it met."""
    t = _event(pk)
    board = event_standings.board(t)
    page = Paginator(board.standings, MEETINGS_PER_PAGE).get_page(request.GET.get("page"))
    return _part(
        request, t, "Crosstable", "tournaments/_meetings.html",
        page=page, what="entrants",
        meetings=board.meetings(page.start_index() - 1, len(page.object_list)),
    )  # fmt: skip


@require_GET
def entrants_page(request: HttpRequest, pk: int) -> HttpResponse:
    """One page of the entrants, by seed."""
    t = _event(pk)
    entrants = event_listings.entrants_of(t)
    page = Paginator(entrants, ENTRANTS_PER_PAGE).get_page(request.GET.get("page"))
    return _part(
        request, t, "Entrants", "tournaments/_entrants.html",
        page=page, what="entrants", entrants=page.object_list,
    )  # fmt: skip


@require_GET
def round_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One page of a round's tables, in table order, with their games and results."""
    t = _event(pk)
    board = event_standings.board(t)
    found = event_listings.round_page(
        t, number, board.entrants, board.history, request.GET.get("page"), TABLES_PER_PAGE
    )
    if found is None:
        raise Http404("this tournament has no such round")
    round_, page = found
    return _part(
        request, t, f"Round {number}", "tournaments/_round.html",
        page=page, what="tables", round=round_,
        bye_points=pure_standings.bye_points(settings_of(t)),
    )  # fmt: skip

"""The event printed: standings, crosstable and each round's tables, one sheet per round.

A club pins the draw to the wall and hands out the standings: this page is
made for paper (``static/css/print.css``: A4, black on white, one round per
printed page, no site navigation), and reads on a screen too. It shows what
the event page shows -- the same selectors, so the same rules of what is
public -- but all of it: every standings row, every round's tables, and the
crosstable as a grid up to :data:`GRID_UP_TO` entrants (each entrant's
meetings beyond, which fit a page). ``?round=N`` prints round N alone.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from tournaments.events.history import settings_of
from tournaments.formats import standings as pure_standings
from tournaments.selectors import listings as event_listings
from tournaments.selectors import standings_table as event_standings

GRID_UP_TO = 16
"""Entrants a crosstable grid may have on an A4 page; beyond, each entrant's meetings."""


@require_GET
def print_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(event_listings.public_tournaments(), pk=pk)
    board = event_standings.board(tournament)
    rounds = event_listings.rounds_of(tournament, board.entrants, board.history)
    only = request.GET.get("round")
    if only is not None:
        rounds = [r for r in rounds if str(r.number) == only.strip()]
        if not rounds:
            raise Http404("this tournament has no such round")
    count = len(board.standings)
    return render(
        request,
        "tournaments/print.html",
        {
            "t": tournament,
            "rounds": rounds,
            "whole": only is None,
            "standings": board.standings,
            "crosstable": board.crosstable if count <= GRID_UP_TO else None,
            "meetings": board.meetings(0, count) if count > GRID_UP_TO else None,
            "bye_points": pure_standings.bye_points(settings_of(tournament)),
            "total_rounds": event_listings.total_rounds(tournament, count),
            "printed_at": timezone.now(),
        },
    )

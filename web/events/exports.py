"""The event's results as CSV: every game's seats, ranks and scores, beside ``standings.csv``.

Streamed (``common.csv_text.lines`` into a ``StreamingHttpResponse``, as
Django's "Streaming large CSV files" recipe does, and as the leaderboards
export), so an
open of hundreds never holds its tens of thousands of rows in memory. Cells
are written as the standings CSV writes them (``spreadsheet_safe`` names,
numbers without trailing zeros); what may be shown is the selector's rule
(:mod:`tournaments.selectors.results`).
"""

from __future__ import annotations

from django.http import HttpRequest, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from common import csv_text
from common.csv_text import spreadsheet_safe
from tournaments.selectors import listings as event_listings
from tournaments.selectors import results as event_results
from web.events.views import number

RESULTS_COLUMNS = (
    "round",
    "table",
    "game",
    "game_status",
    "result",
    "seat",
    "entrant",
    "kind",
    "rank",
    "score",
    "forfeited",
    "substituted",
)


def _cells(row: event_results.ResultRow) -> list[object]:
    return [
        row.round if row.round is not None else "",
        row.table if row.table is not None else "",
        row.game,
        row.game_status,
        row.result,
        row.seat,
        spreadsheet_safe(row.entrant),
        row.kind,
        row.rank if row.rank is not None else "",
        number(row.score) if row.score is not None else "",
        "yes" if row.forfeited else "",
        "yes" if row.substituted else "",
    ]


@require_GET
def results_csv(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    """Every game's seats as CSV, one row per seat, named after the tournament."""
    tournament = get_object_or_404(event_listings.public_tournaments(), pk=pk)
    name = slugify(tournament.slug or tournament.name) or "tournament"
    response = StreamingHttpResponse(
        csv_text.batched(
            csv_text.lines(RESULTS_COLUMNS, map(_cells, event_results.results_of(tournament)))
        ),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{name}-{tournament.pk}-results.csv"'
    return response

"""Every seat of every game of an event, for the results export (``results.csv``).

One row per seat, in round, table, game and seat order, read as tuples from
one query and streamed (an open of hundreds has tens of thousands of seats).
What may be shown follows the spectator's rule (``games.selectors.spectator``):
a seat's rank and score only once its game's record is public (finished, and
its duplicate set over), or from the organiser's adjudication of an aborted
game (``events.adjudication``), which is public on the game's page too.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.db.models import BooleanField, ExpressionWrapper

from games.models import Game, Seat
from games.selectors import spectator
from tournaments.models import Tournament


@dataclass(frozen=True)
class ResultRow:
    round: int | None
    table: int | None
    game: int
    game_status: str
    result: str
    """ "played", "adjudicated", or "" (no result to show yet, or none: aborted)."""
    seat: int
    """Counted from 1 (seat 1 moves first), as the pages number seats."""
    entrant: str
    kind: str
    rank: int | None
    score: float | None
    forfeited: bool
    substituted: bool


def results_of(tournament: Tournament, chunk_size: int = 2000) -> Iterator[ResultRow]:
    """The event's seats, one row each, read in chunks (``QuerySet.iterator``)."""
    rows = (
        Seat.objects.filter(game__tournament=tournament, game__table__isnull=False)
        .annotate(public=ExpressionWrapper(spectator.is_public_q("game__"), BooleanField()))
        .order_by("game__round_number", "game__table__number", "game_id", "position")
        .values_list(
            "game__round_number", "game__table__number", "game_id", "game__status", "position",
            "competitor__name", "competitor__kind", "forfeited", "substituted", "public",
            "game__outcome__ranks", "game__outcome__scores",
            "game__adjudication__ranks", "game__adjudication__scores",
        )
    )  # fmt: skip
    for (
        round_number, table, game, status, position, name, kind, forfeited, substituted,
        public, ranks, scores, judged_ranks, judged_scores,
    ) in rows.iterator(chunk_size=chunk_size):  # fmt: skip
        if public and ranks is not None:
            result, rank, score = "played", ranks[position], scores[position]
        elif status == Game.Status.ABORTED and judged_ranks is not None:
            result, rank, score = "adjudicated", judged_ranks[position], judged_scores[position]
        else:
            result, rank, score = "", None, None
        yield ResultRow(
            round=round_number,
            table=table,
            game=game,
            game_status=status,
            result=result,
            seat=position + 1,
            entrant=name,
            kind=kind,
            rank=rank,
            score=None if score is None else float(score),
            forfeited=forfeited,
            substituted=substituted,
        )

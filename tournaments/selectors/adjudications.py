"""The organiser's adjudicated results as the public pages show them (``events.adjudication``).

An adjudicated game stays aborted, so its record shows nothing more than
before; what is public is the organiser's result itself -- the ranks and
scores entered, who entered them and why -- which the event's standings
already count.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.models import Game
from tournaments.models import Adjudication, Tournament


@dataclass(frozen=True)
class AdjudicationView:
    game_id: int
    round_number: int | None
    table_number: int | None
    ranks: list[int]
    scores: list[float]
    reason: str
    by: str
    at: datetime


def _view(row: Adjudication, game: Game) -> AdjudicationView:
    return AdjudicationView(
        game_id=game.pk,
        round_number=game.round_number,
        table_number=game.table.number if game.table_id else None,
        ranks=list(row.ranks),
        scores=list(row.scores),
        reason=row.reason,
        by=row.by_name,
        at=row.updated_at,
    )


def of_game(game: Game) -> AdjudicationView | None:
    """The game's adjudication, if the organiser entered one (one query)."""
    row = Adjudication.objects.filter(game_id=game.pk).select_related("game__table").first()
    return _view(row, row.game) if row is not None else None


def of_event(tournament: Tournament, limit: int) -> list[AdjudicationView]:
    """The event's adjudications, in round and table order, at most ``limit`` (one query)."""
    rows = (
        Adjudication.objects.filter(game__tournament=tournament)
        .select_related("game__table")
        .order_by("game__round_number", "game__table__number", "game_id")[:limit]
    )
    return [_view(row, row.game) for row in rows]

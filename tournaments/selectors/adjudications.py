"""The organiser's adjudicated results as the public pages show them (``events.adjudication``).

An adjudicated game stays aborted, so its record shows nothing more than
before; what is public is the organiser's result itself -- the ranks and
scores entered, who entered them and why -- which the event's standings
already count.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.models import Game, Seat
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
    placings: list[tuple[str, int, float]]
    """(player's name, place, score) in seat order: what the pages say, whatever their seat
    numbering."""


def _names(game_ids: list[int]) -> dict[int, list[str]]:
    """Each game's players' names in seat order (one query)."""
    names: dict[int, list[str]] = {}
    rows = Seat.objects.filter(game_id__in=game_ids).order_by("game_id", "position")
    for game_id, name in rows.values_list("game_id", "competitor__name"):
        names.setdefault(game_id, []).append(name)
    return names


def _view(row: Adjudication, game: Game, names: list[str]) -> AdjudicationView:
    return AdjudicationView(
        game_id=game.pk,
        round_number=game.round_number,
        table_number=game.table.number if game.table_id else None,
        ranks=list(row.ranks),
        scores=list(row.scores),
        reason=row.reason,
        by=row.by_name,
        at=row.updated_at,
        placings=list(zip(names, row.ranks, row.scores, strict=False)),
    )


def of_game(game: Game) -> AdjudicationView | None:
    """The game's adjudication, if the organiser entered one (one query)."""
    row = Adjudication.objects.filter(game_id=game.pk).select_related("game__table").first()
    if row is None:
        return None
    return _view(row, row.game, _names([game.pk]).get(game.pk, []))


def of_event(tournament: Tournament, limit: int) -> list[AdjudicationView]:
    """The event's adjudications, in round and table order, at most ``limit`` (two queries)."""
    rows = (
        Adjudication.objects.filter(game__tournament=tournament)
        .select_related("game__table")
        .order_by("game__round_number", "game__table__number", "game_id")[:limit]
    )
    rows = list(rows)
    names = _names([row.game_id for row in rows])
    return [_view(row, row.game, names.get(row.game_id, [])) for row in rows]

"""What the tournament's change page shows besides its settings: standings, rounds, games.

For the template: the standings so far (read through ``events``), each round
with its tables in seat order, each table's games linked to their public pages.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse

from games.models import Game
from tournaments import events
from tournaments.models import Tournament


def public_page(tournament: Tournament) -> str:
    """The tournament's public page (``/tournaments/<id>/``)."""
    return f"/tournaments/{tournament.pk}/"


@dataclass
class GameView:
    pk: int
    url: str
    status: str
    ranks: list[int] | None
    adjudicable: bool = False
    """Aborted or not finished: the organiser may enter its result."""
    adjudicated: bool = False


@dataclass
class TableView:
    number: int
    seats: list[str]
    games: list[GameView]


@dataclass
class RoundView:
    number: int
    status: str
    byes: list[str]
    tables: list[TableView] = field(default_factory=list)


@dataclass
class StandingView:
    rank: int
    name: str
    points: float
    tablemates_points: float
    games: int
    byes: int
    active: bool


def standings_view(tournament: Tournament, names: dict[int, str]) -> list[StandingView]:
    """The standings so far (``events.standings_of``), once a round has been paired."""
    if tournament.current_round == 0:
        return []
    return [
        StandingView(
            row.rank,
            names.get(row.key, f"entrant {row.key}"),
            row.points,
            row.tablemates_points,
            row.games,
            row.byes,
            row.active,
        )
        for row in events.standings_of(tournament)
    ]


def game_view(game: Game) -> GameView:
    """A game's link, state and (once finished) ranks in seat order."""
    outcome = getattr(game, "outcome", None)
    judged = getattr(game, "adjudication", None)
    ranks = outcome.ranks if outcome is not None else judged.ranks if judged is not None else None
    return GameView(
        game.pk,
        reverse("tournaments:game", args=[game.pk]),
        game.get_status_display(),
        list(ranks) if ranks is not None else None,
        adjudicable=game.status != Game.Status.FINISHED,
        adjudicated=judged is not None,
    )


def rounds_view(tournament: Tournament, names: dict[int, str]) -> list[RoundView]:
    """Every round played so far; ``names`` maps entrant ids to what to show for them."""
    rounds = tournament.rounds_played.prefetch_related(
        "tables__games__outcome", "tables__games__adjudication"
    )
    shown = []
    for played in rounds:
        view = RoundView(
            played.number,
            played.get_status_display(),
            [names.get(key, f"entrant {key}") for key in played.byes],
        )
        for table in played.tables.all():
            seats = [names.get(key, f"entrant {key}") for key in table.seats]
            games = [game_view(game) for game in table.games.all()]
            view.tables.append(TableView(table.number, seats, games))
        shown.append(view)
    return shown

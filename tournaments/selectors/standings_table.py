"""Standings and crosstable of a tournament, from its rows: the database side of
``tournaments.formats.standings``.

The pure function ranks entrant keys from a :class:`formats.History`; this
adapter reads the history (``history_of``) and the entrants once, passes
everyone who took part (withdrawn and disqualified entrants keep the points
they earned and are marked), and hands back rows with names that the pages,
the CSV export and the API render as they are. Two queries for the entrants
and whatever ``history_of`` needs, the same for 9 entrants or 900: nothing
here queries per entrant, table or game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from tournaments import formats
from tournaments.events import history_of
from tournaments.events.history import settings_of
from tournaments.formats import standings as pure
from tournaments.formats import tiebreaks
from tournaments.models import Tournament
from tournaments.selectors import listings as event_listings
from tournaments.selectors.listings import EntrantView


@dataclass(frozen=True)
class TieBreakValue:
    """One of the event's tie-breaks on a standings line: a column of the pages and the CSV."""

    name: str
    """As docs/formats.md and the API name it (the CSV's column)."""
    heading: str
    narrow_heading: str
    label: str
    """In words, for a column's title."""
    value: float


@dataclass(frozen=True)
class StandingRow:
    """One entrant's line: rank, points and the tie-breaks, in the standings' order.

    ``tables`` counts the tables played, ``byes`` the rounds sat out;
    ``placings[i]`` the tables finished in place i+1. ``tie_breaks`` are the
    event's chosen tie-breaks in its order (the default three when it chose
    none): the columns the pages and the CSV show after the points.
    """

    rank: int
    entrant: EntrantView
    points: float
    tablemates_points: float
    game_score: float
    head_to_head: float
    tables: int
    byes: int
    placings: tuple[int, ...]
    tie_breaks: tuple[TieBreakValue, ...] = ()


@dataclass(frozen=True)
class CrossCell:
    """The row entrant's record against the column entrant over the tables they shared."""

    opponent_id: int
    meetings: int
    above: int
    below: int
    level: int
    score_difference: float

    @property
    def text(self) -> str:
        """ "2-1" with an en dash (placed above twice, below once); " =1" for a shared place."""
        shown = f"{self.above}\N{EN DASH}{self.below}"
        return shown + (f" ={self.level}" if self.level else "")


@dataclass(frozen=True)
class CrossRow:
    rank: int
    entrant: EntrantView
    cells: list[CrossCell | None]
    """One per column, in the columns' order; None on the diagonal and where they never met."""


@dataclass(frozen=True)
class Crosstable:
    """Rows and columns both in standings order (so the leader's row and column come first)."""

    columns: list[EntrantView]
    rows: list[CrossRow]


@dataclass(frozen=True)
class Meetings:
    """One entrant's record against each entrant it met, the others in standings order.

    ``against[i]`` is (the other's place in the standings, counted from 1; the
    other; the row entrant's record against it): the crosstable's row without
    its empty cells, so an event's row costs the meetings it holds, not its size.
    """

    place: int
    rank: int
    entrant: EntrantView
    against: list[tuple[int, EntrantView, CrossCell]]


@dataclass(frozen=True)
class Board:
    """Everything the tournament page needs about results, read once.

    The crosstables are computed when asked: the whole one (N x N cells) for
    the API, the top of it and a page of rows' meetings for the pages.
    """

    entrants: list[EntrantView]
    history: formats.History
    standings: list[StandingRow]

    @cached_property
    def crosstable(self) -> Crosstable:
        return _crosstable(self.standings, self.history)

    def top_crosstable(self, size: int) -> Crosstable:
        """The first ``size`` entrants of the standings against each other (size x size cells)."""
        return _crosstable(self.standings[:size], self.history)

    def meetings(self, first: int, count: int) -> list[Meetings]:
        """``count`` rows of the standings from row ``first`` (0-based), each with its meetings."""
        rows = self.standings[first : first + count]
        order = [row.entrant for row in self.standings]
        place = {entrant.id: n for n, entrant in enumerate(order, start=1)}
        wanted = {row.entrant.id for row in rows}
        theirs = tuple(r for r in self.history.results if wanted.intersection(r.seats))
        grid = pure.crosstable([_keyed(e) for e in order], formats.History(results=theirs))
        return [
            Meetings(
                place=place[row.entrant.id],
                rank=row.rank,
                entrant=row.entrant,
                against=sorted(
                    (
                        (place[other], order[place[other] - 1], _met(meeting))
                        for other, meeting in grid[row.entrant.id].items()
                    ),
                    key=lambda met: met[0],
                ),
            )
            for row in rows
        ]


def board(tournament: Tournament) -> Board:
    """Entrants, history and standings, from one read of the rows."""
    entrants = event_listings.entrants_of(tournament)
    history = history_of(tournament)
    return Board(entrants, history, _standings(tournament, entrants, history))


def standings(tournament: Tournament) -> list[StandingRow]:
    """The tournament's standings, best first, every entrant that took part listed."""
    return board(tournament).standings


def crosstable(tournament: Tournament) -> Crosstable:
    """Who placed above whom, pair by pair, in standings order."""
    return board(tournament).crosstable


def _standings(
    tournament: Tournament, entrants: list[EntrantView], history: formats.History
) -> list[StandingRow]:
    by_key = {entrant.id: entrant for entrant in entrants}
    lines = pure.standings(
        [formats.Entrant(key=entrant.id, seed=entrant.seed_order) for entrant in entrants],
        history,
        settings_of(tournament),
        inactive={entrant.id for entrant in entrants if entrant.left},
    )
    return [
        StandingRow(
            rank=line.rank,
            entrant=by_key[line.key],
            points=line.points,
            tablemates_points=line.tablemates_points,
            game_score=line.game_score,
            head_to_head=line.head_to_head,
            tables=line.games,
            byes=line.byes,
            placings=line.placings,
            tie_breaks=tuple(_tie_break(name, value) for name, value in line.tie_breaks),
        )
        for line in lines
    ]


def _tie_break(name: str, value: float) -> TieBreakValue:
    heading, narrow = tiebreaks.HEADINGS[name]
    return TieBreakValue(name, heading, narrow, tiebreaks.LABELS[name], value)


def _keyed(entrant: EntrantView) -> formats.Entrant:
    return formats.Entrant(key=entrant.id, seed=entrant.seed_order)


def _crosstable(rows: list[StandingRow], history: formats.History) -> Crosstable:
    order = [row.entrant for row in rows]
    grid = pure.crosstable([_keyed(e) for e in order], history)
    return Crosstable(
        columns=order,
        rows=[
            CrossRow(
                rank=row.rank,
                entrant=row.entrant,
                cells=[_cell(grid[row.entrant.id].get(other.id)) for other in order],
            )
            for row in rows
        ],
    )


def _cell(meeting: pure.Meeting | None) -> CrossCell | None:
    return None if meeting is None else _met(meeting)


def _met(meeting: pure.Meeting) -> CrossCell:
    return CrossCell(
        opponent_id=meeting.opponent,
        meetings=meeting.meetings,
        above=meeting.above,
        below=meeting.below,
        level=meeting.level,
        score_difference=meeting.score_difference,
    )

"""A competitor's statistics, each read by one query of a bounded number of rows.

What counts: a game the public may see in full (``spectator.is_public_q``:
finished, and its duplicate set over) and that public lists show
(``Game.listed``: local test games stay out, as on every list). Ranks and
scores come from the game's ``Outcome`` (seat order, forfeits ranked last),
and a page reads a fixed number of queries
(``tests/stats/test_queries.py`` counts them at two data sizes).

Results by seat and head to head are read from per-competitor tallies
(``stats.models``, kept by ``stats.tallies`` as games become counted), a few
rows per engine and opponent instead of every game; the aggregate queries they
replaced are kept in ``tests/stats/reference.py``, the oracle the tallies are
tested against.

The game list shows every listed game (running ones too), with results only
once public, like the home page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from itertools import groupby
from typing import Any, NamedTuple

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery

from games import listings, spectator
from games.models import Competitor, Game, Seat
from ratings.models import RatingScope

from . import history
from .filters import GameFilters
from .models import OPPONENT_SUMS, OpponentTally, SeatTally

HISTORY_POINTS = 500
"""The latest this many rated games per ladder and system are drawn.

A chart is a few hundred pixels wide: 500 points already crowd it, and the
page carries every point (about 80 bytes per point and system), so a longer
window only makes the page heavier. The chart says when it is cut, and the
games list and its export below it hold every game.
"""
OPPONENTS = 200
"""Head-to-head rows shown, the opponents met most often first."""
GAMES_PER_PAGE = 20
SYSTEM_NAMES = {"elo": "Elo", "trueskill": "TrueSkill", "openskill": "OpenSkill"}


def counted(path: str = "") -> Q:
    """The games statistics count: public in full and listed (``path`` leads to the game)."""
    return spectator.is_public_q(path) & Q(**{f"{path}listed": True})


# ------------------------------------------------------------ rating history
class HistoryPoint(NamedTuple):
    """One rated game: the rating after it (and sigma, and the leaderboard's score).

    A named tuple, not a frozen dataclass: a page makes thousands (the bench person
    1,878), and a frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``; the chart reads them back as columns (:meth:`LadderHistory.as_chart`).
    """

    number: int
    game_id: int
    finished: str | None
    """The game's ``finished_at`` in UTC, as ``datetime.isoformat`` writes it."""
    value: float
    sigma: float | None

    @property
    def score(self) -> float:
        """What the leaderboard sorts by: Elo itself, or mu - 3 sigma."""
        return self.value if self.sigma is None else self.value - 3 * self.sigma


@dataclass
class LadderHistory:
    """One rating scope's history, per system, oldest game first."""

    scope_id: int
    engine: str
    engine_name: str
    title: str
    is_global: bool
    systems: dict[str, list[HistoryPoint]]
    games: dict[str, int]
    """Per system, the competitor's rated games in this scope (``Rating.games``)."""
    limit: int
    """The window: at most this many latest rated games are drawn per system."""

    @property
    def rated(self) -> int:
        """Rated games in this scope (the most over the systems: they rate the same games)."""
        return max(self.games.values(), default=0)

    @property
    def cut(self) -> bool:
        """Older rated games than the window's exist (the chart says so)."""
        return self.rated > self.limit

    def as_chart(self) -> dict[str, Any]:
        """What ``static/stats/charts.js`` draws (embedded with ``json_script``).

        The systems rate the same games, so the game columns (number, id, day) are
        written once per ladder and each system adds its own values, ``null`` where
        it has no point for a game (a ladder being recomputed). Written three times
        over, with full timestamps and every float's last digit, they were two
        thirds of a busy competitor's page; the chart shows a day and two decimals.
        """
        games: dict[int, HistoryPoint] = {}
        for points in self.systems.values():
            for point in points:
                games.setdefault(point.game_id, point)
        order = sorted(games, key=lambda game_id: (games[game_id].number, game_id))
        return {
            "scope": self.scope_id,
            "engine": self.engine,
            "title": self.title,
            "number": [games[game_id].number for game_id in order],
            "game": order,
            "day": [_day(games[game_id].finished) for game_id in order],
            "systems": [
                _chart_system(system, points, order) for system, points in self.systems.items()
            ],
        }


CHART_DIGITS = 2
"""Decimals the chart's values keep: it shows Elo whole and the others to two."""


def _day(finished: str | None) -> str | None:
    """``YYYY-MM-DD`` of an ISO timestamp: all the chart's legend shows of it."""
    return None if finished is None else finished[:10]


def _chart_system(system: str, points: list[HistoryPoint], order: list[int]) -> dict[str, Any]:
    """One system's values and leaderboard scores, aligned with the ladder's games."""
    if len(points) == len(order) and all(
        p.game_id == g for p, g in zip(points, order, strict=True)
    ):
        aligned: list[HistoryPoint | None] = list(points)  # every game: the usual case
    else:
        at = {point.game_id: point for point in points}
        aligned = [at.get(game_id) for game_id in order]
    drawn_alone = all(point.sigma is None for point in points)  # Elo: its score is its value
    value = [None if p is None else round(p.value, CHART_DIGITS) for p in aligned]
    score = None
    if not drawn_alone:
        score = [None if p is None else round(p.score, CHART_DIGITS) for p in aligned]
    return {
        "system": system,
        "name": SYSTEM_NAMES.get(system, system),
        "value": value,
        "score": score,
    }


def rating_history(competitor: Competitor, limit: int | None = None) -> list[LadderHistory]:
    """The competitor's rating after each of its latest ``limit`` counted games, per ladder.

    ``limit`` defaults to :data:`HISTORY_POINTS`.

    One query (:func:`stats.history.latest_changes`), about ``limit`` rows per
    scope and system however long the history. Counted games are those with a
    :class:`~stats.models.CountedGame` mark (the same set as :func:`counted`,
    kept by ``stats.tallies``).

    ``number`` is the game's place among the competitor's rated games in that
    scope (1 = first): the ladder's last change is ``Rating.games`` (what the
    leaderboard shows as games) and each earlier one is one less. A rated game
    not counted yet (its duplicate set is still being played) keeps its number
    but is not drawn; when its set is over it fills that gap and no other
    point is renumbered.
    """
    limit = HISTORY_POINTS if limit is None else limit
    ladders: dict[int, LadderHistory] = {}
    rows = history.latest_changes(competitor.pk, limit)
    for (scope_id, system), group in groupby(rows, key=lambda row: (row.scope_id, row.system)):
        changes = list(group)
        first = changes[0]
        start = first.games - (len(changes) - 1)  # the first change's number
        points = [
            HistoryPoint(start + n, row.game_id, row.finished, row.value, row.sigma)
            for n, row in enumerate(changes)
            if row.shown
        ]
        if not points:
            continue
        ladder = ladders.get(scope_id)
        if ladder is None:
            name = listings.engine_name(first.engine)
            is_global = first.kind == RatingScope.Kind.GLOBAL
            where = "global ladder" if is_global else f"league {first.league}"
            ladder = ladders[scope_id] = LadderHistory(
                scope_id, first.engine, name, f"{name} — {where}", is_global, {}, {}, limit
            )
        ladder.systems[system] = points
        ladder.games[system] = first.games
    order = [*SYSTEM_NAMES]
    for ladder in ladders.values():
        ladder.systems = dict(
            sorted(ladder.systems.items(), key=lambda item: _place(order, item[0]))
        )
    return sorted(
        ladders.values(),
        key=lambda ladder: (ladder.engine_name, not ladder.is_global, ladder.title),
    )


def _place(order: list[str], name: str) -> int:
    return order.index(name) if name in order else len(order)


# ---------------------------------------------------------- results by seat
@dataclass(frozen=True)
class SeatResults:
    """How the competitor did from one seat of one engine at one table size."""

    engine: str
    engine_name: str
    players: int
    position: int
    games: int
    firsts: int
    average_rank: float | None
    average_score: float | None

    @property
    def first_share(self) -> float:
        return self.firsts / self.games if self.games else 0.0


def _average(total: float, count: int) -> float | None:
    return total / count if count else None


def results_by_seat(competitor: Competitor) -> list[SeatResults]:
    """Games, first places (shared ones count) and average rank per engine, table size and seat.

    Seat 0 moves first; whether that helps depends on the game and on how
    many sit at the table, hence the grouping. One query over the
    competitor's :class:`~stats.models.SeatTally` rows (a few per engine),
    however many games they played.
    """
    rows = SeatTally.objects.filter(competitor=competitor).order_by("engine", "players", "position")
    return [
        SeatResults(
            engine=row.engine,
            engine_name=listings.engine_name(row.engine),
            players=row.players,
            position=row.position,
            games=row.games,
            firsts=row.firsts,
            average_rank=_average(row.rank_sum, row.rank_count),
            average_score=_average(row.score_sum, row.score_count),
        )
        for row in rows
    ]


# -------------------------------------------------------------- head to head
class HeadToHead(NamedTuple):
    """The competitor against one opponent in one engine, over the games they shared.

    A named tuple, as :class:`HistoryPoint`: a page makes up to :data:`OPPONENTS`, and a
    frozen dataclass of twelve fields sets each through ``object.__setattr__``.
    """

    opponent_id: int
    opponent: str
    kind: str
    engine: str
    engine_name: str
    games: int
    my_average_rank: float | None
    their_average_rank: float | None
    ahead: int
    level: int
    behind: int
    score_difference: float | None
    """Average of (my score - their score) over the games."""


def head_to_head(competitor: Competitor, limit: int = OPPONENTS) -> list[HeadToHead]:
    """Every opponent met in a counted game, most games first (one query, ``limit`` rows).

    Each row compares the two seats of a game: "ahead" when the competitor
    ranked better, "level" on a shared rank. A game where either holds two
    seats compares every pair of seats, but counts once in ``games``. Read
    from the competitor's :class:`~stats.models.OpponentTally` rows (one per
    opponent and engine) through the index on (competitor, -games).
    """
    rows = (
        OpponentTally.objects.filter(competitor=competitor)
        .order_by("-games", "opponent__name", "opponent_id", "engine")
        .values_list(
            "opponent_id",
            "opponent__name",
            "opponent__kind",
            "engine",
            *OPPONENT_SUMS,
        )[:limit]
    )
    return [
        HeadToHead(
            opponent_id=opponent_id,
            opponent=name,
            kind=kind,
            engine=engine,
            engine_name=listings.engine_name(engine),
            games=games,
            my_average_rank=_average(my_sum, my_count),
            their_average_rank=_average(their_sum, their_count),
            ahead=ahead,
            level=level,
            behind=behind,
            score_difference=_average(difference, differences),
        )
        for (
            opponent_id,
            name,
            kind,
            engine,
            games,
            my_sum,
            my_count,
            their_sum,
            their_count,
            ahead,
            level,
            behind,
            difference,
            differences,
        ) in rows
    ]


# -------------------------------------------------------------------- games
def games_of(competitor: Competitor, filters: GameFilters) -> QuerySet[Game]:
    """The competitor's listed games, newest first, narrowed by ``filters`` (cursor included);
    :func:`game_rows` reads a page's seats."""
    holds = Seat.objects.filter(game=OuterRef("pk"), competitor=competitor)
    games = (
        listings.games_with_results()
        .select_related("tournament")
        .filter(Exists(holds), listed=True)
    )
    if filters.engine is not None:
        games = games.filter(engine=filters.engine)
    if filters.tournament is not None:
        games = games.filter(tournament_id=filters.tournament)
    if filters.rated is not None:
        games = games.filter(rated=filters.rated)
    if filters.opponent is not None:
        met = Seat.objects.filter(game=OuterRef("pk"), competitor_id=filters.opponent)
        games = games.filter(Exists(met))
    if filters.before is not None:
        cursor = Game.objects.filter(pk=filters.before).values("created_at")[:1]
        games = games.filter(
            Q(created_at__lt=Subquery(cursor))
            | Q(created_at=Subquery(cursor), pk__lt=filters.before)
        )
    return games.order_by("-created_at", "-id")


@dataclass(frozen=True)
class CompetitorGame:
    """One game of the list: its summary, and the competitor's own seat in it."""

    summary: listings.GameSummary
    seat: spectator.PublicSeat | None

    @property
    def game(self) -> Game:
        return self.summary.game


def game_rows(competitor: Competitor, games: list[Game]) -> list[CompetitorGame]:
    """The list's rows for a page of :func:`games_of`: their seats read as rows in one query
    (``spectator.attach_seat_rows``)."""
    rows = []
    for game in spectator.attach_seat_rows(list(games)):
        seats = spectator.public_seats(game)
        mine = next((s for s in seats if s.competitor_id == competitor.pk), None)
        rows.append(
            CompetitorGame(
                listings.GameSummary(game, listings.engine_name(game.engine), seats), mine
            )
        )
    return rows


@dataclass(frozen=True)
class GamesPage:
    rows: list[CompetitorGame]
    next_before: int | None
    """The cursor of the next (older) page, None on the last."""


def games_page(
    competitor: Competitor, filters: GameFilters, size: int = GAMES_PER_PAGE
) -> GamesPage:
    """One page of the list (two queries: the games, then their seats)."""
    games = list(games_of(competitor, filters)[: size + 1])
    more = len(games) > size
    games = games[:size]
    return GamesPage(game_rows(competitor, games), games[-1].pk if more else None)


@dataclass(frozen=True)
class FilterChoices:
    """What the filter form offers: the engines and tournaments of the competitor's games."""

    engines: list[tuple[str, str]]
    tournaments: list[tuple[int, str]]


def filter_choices(competitor: Competitor) -> FilterChoices:
    """One query: the distinct (engine, tournament) pairs of the competitor's listed games.

    A few rows (an event has one engine), split here into the engines played
    and the tournaments played in, newest first; one query instead of one for
    each, whose building was half of this section's CPU.
    """
    holds = Seat.objects.filter(game=OuterRef("pk"), competitor=competitor)
    pairs = (
        Game.objects.filter(Exists(holds), listed=True)
        .order_by()
        .values_list("engine", "tournament_id", "tournament__name", "tournament__created_at")
        .distinct()
    )
    slugs: set[str] = set()
    events: dict[int, tuple[datetime, str]] = {}
    for slug, event, name, created_at in pairs:
        slugs.add(slug)
        if event is not None:
            events[event] = (created_at, name)
    newest_first = sorted(events.items())  # by id, then (a stable sort) newest first
    newest_first.sort(key=lambda item: item[1][0], reverse=True)
    return FilterChoices(
        engines=sorted(((s, listings.engine_name(s)) for s in slugs), key=lambda e: e[1]),
        tournaments=[(pk, name) for pk, (_, name) in newest_first],
    )

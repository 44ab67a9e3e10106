"""What the web pages list: recent games with their results, and per-engine leaderboards.

Everything here is built from :mod:`tournaments.spectator`'s rules (results,
seeds and actions only once a game is finished) and from stored ratings;
views only render it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

import engines
from ratings.models import Rating, RatingScope

from . import spectator
from .models import Game, Seat

LEADERBOARD_SYSTEMS = ("elo", "trueskill")


@dataclass(frozen=True)
class GameSummary:
    """One line of a game list: engine, players in seat order, status, results once finished."""

    game: Game
    engine_name: str
    seats: list[spectator.PublicSeat]

    @property
    def finished(self) -> bool:
        return spectator.is_public(self.game)

    @property
    def standings(self) -> list[spectator.PublicSeat]:
        """The seats best rank first (seat order while unfinished)."""
        if not self.finished:
            return self.seats
        return sorted(self.seats, key=lambda seat: (seat.rank or 0, seat.position))


def games_with_seats() -> QuerySet[Game]:
    seats = Seat.objects.select_related("competitor").order_by("position")
    games = Game.objects.select_related("outcome").prefetch_related(Prefetch("seats", seats))
    return spectator.annotate_set_open(games)


def engine_name(slug: str) -> str:
    try:
        return engines.get(slug).name
    except engines.InvalidGame:  # a game of an engine no longer installed
        return slug


def recent_games(limit: int = 20, engine: str | None = None) -> list[GameSummary]:
    """The newest games, with seats and public results; unlisted (local test) games left out."""
    games = games_with_seats().filter(listed=True).order_by("-created_at", "-id")
    if engine is not None:
        games = games.filter(engine=engine)
    return [
        GameSummary(game, engine_name(game.engine), spectator.public_seats(game))
        for game in games[:limit]
    ]


@dataclass(frozen=True)
class LeaderboardRow:
    """A competitor's global ratings for one engine: Elo and TrueSkill side by side."""

    competitor_id: int
    competitor: str
    kind: str
    games: int
    elo: float | None
    trueskill_mu: float | None
    trueskill_sigma: float | None
    trueskill_score: float | None


def leaderboard(engine: str, order_by: str = "trueskill") -> list[LeaderboardRow]:
    """The engine's global ladder, best first by TrueSkill mu - 3 sigma (or by Elo).

    Games played is the most any system counted (they count the same games).
    """
    scope = RatingScope.objects.filter(kind=RatingScope.Kind.GLOBAL, engine=engine).first()
    return scope_leaderboard(scope, order_by)


def scope_leaderboard(
    scope: RatingScope | None, order_by: str = "trueskill"
) -> list[LeaderboardRow]:
    """One rating scope's ladder (an engine's global one, or a league's), best first."""
    if scope is None:
        return []
    ratings = Rating.objects.filter(scope=scope, system__in=LEADERBOARD_SYSTEMS).select_related(
        "competitor"
    )
    by_competitor: dict[int, dict[str, Rating]] = {}
    for rating in ratings:
        by_competitor.setdefault(rating.competitor_id, {})[rating.system] = rating
    rows = []
    for systems in by_competitor.values():
        any_rating = next(iter(systems.values()))
        elo, true = systems.get("elo"), systems.get("trueskill")
        rows.append(
            LeaderboardRow(
                competitor_id=any_rating.competitor_id,
                competitor=any_rating.competitor.name,
                kind=any_rating.competitor.kind,
                games=max(r.games for r in systems.values()),
                elo=elo.value if elo else None,
                trueskill_mu=true.value if true else None,
                trueskill_sigma=true.sigma if true else None,
                trueskill_score=true.score if true else None,
            )
        )
    return sorted(rows, key=lambda row: _rank_key(row, order_by))


def _rank_key(row: LeaderboardRow, order_by: str) -> tuple[float, str]:
    value = row.elo if order_by == "elo" else row.trueskill_score
    return (-(value if value is not None else float("-inf")), row.competitor)

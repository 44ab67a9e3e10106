"""What the web pages list: recent games with their results, a page at a time.

Everything here is built from :mod:`games.spectator`'s rules (results,
seeds and actions only once a game is finished); lists are paged by cursor
(:mod:`games.cursor`), and leaderboards ranked in the database
(:mod:`web.leaderboards.ranking`). Views only render it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

import engines
from games import cursor as game_cursor
from games import spectator
from games.models import Game, Seat


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


def games_with_results() -> QuerySet[Game]:
    """Games with their outcome and whether their duplicate set is open, seats not read: for
    lists, which read a page's seats as rows (``spectator.attach_seat_rows``) once it is cut."""
    return spectator.annotate_set_open(Game.objects.select_related("outcome"))


def listed_games(engine: str | None = None) -> QuerySet[Game]:
    """Listed games with results (unlisted local test games left out), unordered; their seats
    are read by :func:`games_page`."""
    games = games_with_results().filter(listed=True)
    if engine is not None:
        games = games.filter(engine=engine)
    return games


def summaries(games: list[Game]) -> list[GameSummary]:
    return [
        GameSummary(game, engine_name(game.engine), spectator.public_seats(game)) for game in games
    ]


@dataclass(frozen=True)
class GameList:
    """A page of a game list, and the ``?before=`` cursor of the older page, if any."""

    games: list[GameSummary]
    older: str | None


def games_page(
    games: QuerySet[Game], before: game_cursor.Cursor | None = None, size: int = 20
) -> GameList:
    """``size`` of ``games`` newest first after ``before``: two queries, whatever the depth
    (the games, then their seats as rows)."""
    window = game_cursor.newest(games, before, size)
    return GameList(summaries(spectator.attach_seat_rows(window.games)), window.older)


def recent_games(limit: int = 20, engine: str | None = None) -> list[GameSummary]:
    """The newest listed games, with seats and public results."""
    return games_page(listed_games(engine), None, limit).games

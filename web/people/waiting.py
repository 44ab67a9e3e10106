"""Which running games wait for a person's move: the "game waiting" badge on every page.

A game waits for a user when a seat held by their *person* competitor is to
move in it and has not forfeited (a forfeited seat's defaults are the
referee's). A bot the user owns does not count: its moves come from the bot.

Who is to move is the referee's state (``games.referee.statecache``), rebuilt
from the move log, so the badge can never disagree with the play page. The
cost is fixed whatever the person plays: one query for their running seats
(at most :data:`MAX_GAMES` of them) and at most one for the moves the state
cache has not seen yet, done together for every game. A person with no seat
in a game that is not over -- most people on most pages -- costs no query at
all: :func:`web.cache.seated.may_wait` answers that from the cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.urls import reverse

import engines
from games.listings import engine_name
from games.models import Competitor, Game, Seat
from games.referee import statecache
from web.cache import seated

MAX_GAMES = 20
"""Running games looked at per person: a person plays a few at once; this bounds a page's work."""


@dataclass(frozen=True)
class WaitingGame:
    """A running game in which one of the person's seats is to move."""

    id: int
    engine: str
    engine_name: str
    since: datetime | None
    url: str

    @property
    def label(self) -> str:
        return f"{self.engine_name} #{self.id}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "engine": self.engine,
            "engine_name": self.engine_name,
            "label": self.label,
            "url": self.url,
            "since": self.since.isoformat() if self.since else None,
        }


def games_waiting_for(user: Any) -> list[WaitingGame]:
    """The running games where a seat of ``user``'s person is to move, longest waiting first.

    Anonymous users get an empty list without a query, and so do people with no
    seat in a game not over, once :mod:`web.cache.seated` has it cached.
    """
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    if not seated.may_wait(user):
        return []
    installed = engines.all_engines()
    most_seats = max(rules.max_players for rules in installed)
    seats = (
        Seat.objects.filter(
            game__status=Game.Status.RUNNING,
            game__engine__in=[rules.slug for rules in installed],
            competitor__kind=Competitor.Kind.PERSON,
            competitor__user=user,
            forfeited=False,
        )
        .select_related("game")
        .order_by("game__last_progress_at", "game_id", "position")[: MAX_GAMES * most_seats]
    )
    held: dict[int, set[int]] = {}
    games: dict[int, Game] = {}
    for seat in seats:
        if seat.game_id not in games and len(games) >= MAX_GAMES:
            break
        games.setdefault(seat.game_id, seat.game)
        held.setdefault(seat.game_id, set()).add(seat.position)
    if not games:
        return []
    states = statecache.load_states(list(games.values()))
    waiting = []
    for game_id, game in games.items():
        if held[game_id] & set(states[game_id].to_move):
            waiting.append(
                WaitingGame(
                    id=game.pk,
                    engine=game.engine,
                    engine_name=engine_name(game.engine),
                    since=game.last_progress_at or game.started_at,
                    url=reverse("tournaments:play", args=[game.pk]),
                )
            )
    return waiting

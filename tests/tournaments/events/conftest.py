"""Fixtures for the event scheduler's tests: a fake format, events of people or pull bots.

People and pull bots are waited for by the referee (nothing answers for
them), so a test decides when each game moves and ends
(``tests.tournaments.played.play_as_people``).
"""

from __future__ import annotations

import random
import sys

import pytest

from games.models import Competitor, Game
from people import services as person_services
from tests.factories import BotFactory, UserFactory
from tests.tournaments.events import fake_format
from tournaments import formats
from tournaments.models import Tournament


@pytest.fixture(autouse=True)
def fake_format_registered(monkeypatch):
    """``format="fake"`` names :mod:`fake_format` for this test."""
    monkeypatch.setitem(formats.registry.FORMAT_NAMES, "fake", "fake (tests)")
    monkeypatch.setitem(sys.modules, "tournaments.formats.fake", fake_format)
    fake_format.FAIL_ROUNDS.clear()
    fake_format.CALLS.clear()
    yield fake_format
    fake_format.FAIL_ROUNDS.clear()


def make_event(**fields) -> Tournament:
    values = {
        "name": "Club night",
        "engine": "manila",
        "format": "fake",
        "table_size": 3,
        "min_table_size": 3,
        "rounds": 2,
        "move_time_ms": 60_000,
    }
    values.update(fields)
    return Tournament.objects.create(**values)


def people(count: int, *, consent: bool = True) -> list[Competitor]:
    """People, each with their own account (so each may enter themselves).

    ``consent``: whether they accept bot opponents in rated games, which a
    rated event where bots may play needs (``people.seating``).
    """
    made = []
    for _ in range(count):
        user = UserFactory(password=None)
        made.append(person_services.set_consent(user, consent).competitor)
    return made


def pull_bots(count: int, **fields):
    """Pull bots playing manila: the referee waits for them like for people."""
    return [BotFactory(mode="pull", endpoint_url="", **fields) for _ in range(count)]


def running_games(event: Tournament, number: int | None = None) -> list[Game]:
    games = Game.objects.filter(tournament=event, status=Game.Status.RUNNING)
    if number is not None:
        games = games.filter(table__round__number=number)
    return list(games.order_by("pk"))


def play_out(games, seed: int = 0) -> None:
    """Play each game to its end with random legal moves for every seat."""
    from tests.tournaments.played import play_as_people

    rng = random.Random(seed)
    for game in games:
        play_as_people(game, rng)


def complete_log(game: Game, seed: int = 0) -> None:
    """Write the rest of ``game``'s move log (random legal moves, chance from its seed).

    The game is left running with a log that is over, as it is just before
    the referee's ``finish``: the test then finishes it (or races two finishes).
    Much faster than playing each move through ``submit``.
    """
    from engines import CHANCE, Dealer
    from games.models import Move
    from games.referee.statecache import load_state

    game.refresh_from_db()
    state = load_state(game)
    dealer, rng = Dealer(game.seed), random.Random(seed)
    moves, ply = [], game.next_ply
    while not state.is_over:
        seat = state.to_move[0]
        action = dealer.choose(state) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        source = Move.Source.CHANCE if seat == CHANCE else Move.Source.PERSON
        moves.append(Move(game=game, ply=ply, seat=seat, action=action, source=source))
        ply += 1
    Move.objects.bulk_create(moves)
    Game.objects.filter(pk=game.pk).update(next_ply=ply)


def finish_games(games, seed: int = 0) -> None:
    """Complete each game's log and let the referee finish it (outcome, ratings, the hook)."""
    from games.referee import steps as referee

    for game in games:
        complete_log(game, seed)
        assert referee.finish(game.pk)

"""Nothing published to a game's channel group carries a secret.

Every message the referee sends to a game's group during whole games of all
four engines is captured and checked against an independent replay of the
move log: a move's view must be exactly the spectator view (``view(None)``) at
that ply and its events exactly the engine's public events of that move; no
message may hold a "private" or "hidden" key, a chance action, or the seed
before the game is over.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engines
from games.models import Game
from games.services import create_game
from tests.factories import CompetitorFactory
from tests.tournaments.played import play_as_people
from web.sockets import broadcast

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_referee"),
]
ENGINES = ["manila", "batavia", "cargo_noir", "grog_island"]
SECRET_KEYS = {"private", "hidden", "seed"}
MOVE_KEYS = {"type", "game", "ply", "seat", "view", "events", "default"}
TURN_KEYS = {"type", "game", "ply", "seat"}
FINISH_KEYS = {"type", "game", "outcome", "seed"}


@pytest.fixture
def published(monkeypatch) -> list[dict[str, Any]]:
    """Every message sent to a game group, as the channel layer would serialise it."""
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(broadcast, "maybe_watched", lambda game_id: True)
    monkeypatch.setattr(
        broadcast,
        "publish_many",
        lambda game_id, messages: sent.extend(json.loads(json.dumps(m)) for m in messages),
    )
    return sent


def keys_anywhere(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_anywhere(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_anywhere(v)}
    return set()


@pytest.mark.parametrize("slug", ENGINES)
def test_every_published_message_is_public(slug, published) -> None:
    n = min(4, engines.get(slug).max_players)
    people = CompetitorFactory.create_batch(n, kind="person")
    game = create_game(slug, people, seed=f"{slug}-leak")
    play_as_people(game, random.Random(slug))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    state = engines.get(slug).new_game(n, game.options)
    expected: dict[int, tuple[dict, list]] = {}
    for move in game.moves.order_by("ply"):
        seen = len(state.events)
        state.apply(move.seat, move.action)
        expected[move.ply] = (state.view(None), state.events[seen:])

    moves = [m for m in published if m["type"] == "game.move"]
    assert sorted(m["ply"] for m in moves) == list(range(game.next_ply)), "one message per ply"
    for message in published:
        assert message["game"] == game.pk
        if message["type"] == "game.finished":
            assert set(message) == FINISH_KEYS and message is published[-1]
            continue
        assert not keys_anywhere(message) & SECRET_KEYS, f"secret key in {message['type']}"
        if message["type"] == "game.turn":
            assert set(message) == TURN_KEYS
            continue
        assert message["type"] == "game.move" and set(message) == MOVE_KEYS
        view, events = expected[message["ply"]]
        assert message["view"] == view, f"ply {message['ply']}: not the spectator view"
        assert message["events"] == events, f"ply {message['ply']}: not the public events"
        assert message["default"] is None  # the people chose every move
    assert sum(m["type"] == "game.finished" for m in published) == 1

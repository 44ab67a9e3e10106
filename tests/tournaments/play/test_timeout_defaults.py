"""Safe defaults through the referee, and the mark on every move it played (issue #32, point 2).

A person whose clock runs out in Manila's auction passes (it used to bid the
lowest raise); a pull bot that does not answer gets the same default, a push
bot that cannot be reached too. Each such move says so wherever a move is
shown: ``default`` ("timeout" or "fault") on the game API's plies, the
record's moves, the board replay's move blocks, the live ``game.move``
message and the socket frame's ``defaults``, and the words on the game page.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from rest_framework.test import APIClient

from engines import CHANCE
from games.models import Game, Move
from games.referee import steps as referee
from games.referee.decisions import Decision
from games.referee.statecache import load_state
from games.services import create_game
from tests.factories import BotFactory
from tests.tournaments.test_house_bot import expire_clock

from .conftest import Socket, people

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def auction_seat(game: Game) -> int:
    """The seat to move, which must be bidding in Manila's first auction, and can afford bids."""
    game.refresh_from_db()
    state = load_state(game)
    seat = state.to_move[0]
    kinds = {a["type"] for a in state.legal_actions(seat)}
    assert seat != CHANCE and "bid" in kinds and "pass" in kinds, kinds
    assert state.legal_actions(seat)[0]["type"] == "bid"  # the old default: the lowest raise
    return seat


def test_a_person_who_times_out_in_the_auction_passes_and_the_move_is_marked() -> None:
    players = people(3)
    game = create_game("manila", players, seed="timeout-auction", move_time_ms=1000)
    absent = auction_seat(game)
    ply = Game.objects.get(pk=game.pk).next_ply

    expire_clock(game)
    referee.advance(game.pk)

    move = Move.objects.get(game=game, ply=ply)
    assert (move.seat, move.action, move.source, move.fault_kind) == (
        absent,
        {"type": "pass"},
        "default",
        "timeout",
    )
    api = APIClient().get(f"/api/v1/games/{game.pk}/").json()
    marks = {entry["ply"]: entry["default"] for entry in api["moves"]}
    assert marks[ply] == "timeout"
    assert [p for p, mark in marks.items() if mark] == [ply]  # no other ply is marked
    page = APIClient().get(f"/games/{game.pk}/").content.decode()
    assert page.count('data-default="timeout"') == 1
    assert "timed out: the default action was played" in page
    boards = APIClient().get(f"/games/{game.pk}/boards.json?start={ply}&count=1").json()
    assert boards["positions"][0]["move"]["default"] == "timeout"

    async def frame() -> dict:
        socket = Socket(game.pk)
        opened = await socket.open()
        await socket.close()
        return opened

    assert async_to_sync(frame)()["defaults"] == {str(ply): "timeout"}


def test_a_silent_pull_bot_passes_too() -> None:
    bots = [BotFactory(mode="pull", endpoint_url="") for _ in range(3)]
    game = create_game("manila", [b.competitor for b in bots], seed="pull-auction")
    absent = auction_seat(game)
    ply = Game.objects.get(pk=game.pk).next_ply

    expire_clock(game)
    referee.advance(game.pk)

    move = Move.objects.get(game=game, ply=ply)
    assert (move.seat, move.action, move.fault_kind) == (absent, {"type": "pass"}, "timeout")


def test_an_unreachable_push_bot_passes_and_its_moves_are_marked_as_faults() -> None:
    """Three push bots nobody answers for: every auction of theirs is passed, never bid."""
    bots = [BotFactory() for _ in range(3)]  # http://127.0.0.1:9/: connection refused
    game = create_game("manila", [b.competitor for b in bots], seed="push-auction")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED  # defaults, then forfeits' defaults, to the end
    seats = {m.seat for m in Move.objects.filter(game=game).exclude(seat=CHANCE)}
    assert seats == {0, 1, 2}
    bids = Move.objects.filter(game=game, action__type="bid")
    assert not bids.exists(), "a default bid money"
    players = Move.objects.filter(game=game).exclude(seat=CHANCE)
    assert not players.exclude(source="default").exists()
    record = APIClient().get(f"/api/v1/games/{game.pk}/record/").json()
    marks = {m["default"] for m in record["moves"] if m["seat"] != CHANCE}
    assert marks == {"fault"}
    assert all(m["default"] is None for m in record["moves"] if m["seat"] == CHANCE)


def test_a_move_a_person_chose_is_not_marked() -> None:
    players = people(3)
    game = create_game("manila", players, seed="chosen", move_time_ms=1000)
    seat = auction_seat(game)
    ply = Game.objects.get(pk=game.pk).next_ply
    referee.submit(game.pk, ply, seat, Decision({"type": "pass"}))
    api = APIClient().get(f"/api/v1/games/{game.pk}/").json()
    assert all(entry["default"] is None for entry in api["moves"])
    assert "data-default" not in APIClient().get(f"/games/{game.pk}/").content.decode()

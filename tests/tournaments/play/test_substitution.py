"""What a substituted seat's person, the other players and spectators are shown and allowed.

The person's three timeouts are played through the referee as in
``tests/tournaments/test_house_bot.py`` (their clock run out, then
``advance``); the sockets then show the seat as substituted, keep showing the
person their own seat's view without controls, and refuse their acts.
"""

from __future__ import annotations

import json
import random

import pytest
from asgiref.sync import async_to_sync
from rest_framework.test import APIClient

from games.models import Game, Move, Seat
from games.referee import steps as referee
from games.referee.decisions import Decision
from games.referee.statecache import load_state
from games.services import create_game
from tests.tournaments.test_house_bot import expire_clock

from .conftest import Socket, people

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def written(game: Game) -> tuple:
    game.refresh_from_db()
    seats = list(Seat.objects.filter(game=game).values_list("forfeited", "substituted"))
    return game.next_ply, Move.objects.filter(game=game).count(), game.status, seats


def time_out_until_substituted(game: Game, absent: int, rng: random.Random) -> None:
    """The others move at random; ``absent``'s clock runs out each turn, until it is substituted."""
    while not Seat.objects.get(game=game, position=absent).substituted:
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING
        state = load_state(game)
        seat = state.to_move[0]
        if seat == absent:
            expire_clock(game)
            referee.advance(game.pk)
        else:
            action = rng.choice(state.legal_actions(seat))
            referee.submit(game.pk, game.next_ply, seat, Decision(action))


def test_a_substituted_seat_is_shown_everywhere_and_its_person_can_no_longer_act() -> None:
    players = people(3)
    game = create_game("manila", players, seed="substituted-frames", move_time_ms=1000)
    game.refresh_from_db()
    absent = load_state(game).to_move[0]
    time_out_until_substituted(game, absent, random.Random(2))
    game.refresh_from_db()
    before = written(game)
    other = next(p for p in range(3) if p != absent)

    async def scenario():
        person, spectator, player = (
            Socket(game.pk, players[absent].user),
            Socket(game.pk),
            Socket(game.pk, players[other].user),
        )
        frames = [await person.open(), await spectator.open(), await player.open()]
        await person.send_json({"type": "act", "ply": frames[0]["ply"], "index": 0})
        refused = await person.error()
        redrawn = await person.state()
        await person.send_json({"type": "resign"})
        resign = await person.error()
        for s in (person, spectator, player):
            await s.close()
        return frames, refused, redrawn, resign

    (mine, public, theirs), refused, redrawn, resign = async_to_sync(scenario)()
    for frame in (mine, public, theirs):
        assert frame["substituted"] == [absent] and absent in frame["forfeited"]
        assert frame["substitutions"] == [{"seat": absent, "reason": "timeouts"}]
    state = load_state(game)
    assert mine["seat"] == absent and mine["seats"] == [absent]
    assert mine["model"]["view"] == json.loads(json.dumps(state.view(absent)))
    assert not mine["yourTurn"] and mine["model"]["legal"] == []
    assert not {c["seat"]: c for c in mine["clocks"]["seats"]}[absent]["running"]
    assert refused["code"] == "substituted" and "house bot" in refused["detail"]
    assert redrawn["ply"] == mine["ply"]
    assert resign["code"] == "nothing_to_resign"
    assert written(game) == before


def test_an_act_of_a_seat_substituted_on_its_own_turn_is_refused_and_writes_nothing() -> None:
    """The race: the seat is substituted while it is to move, before the house bot has played."""
    players = people(3)
    game = create_game("manila", players, seed="substituted-race")
    game.refresh_from_db()
    mover = load_state(game).to_move[0]
    Seat.objects.filter(game=game, position=mover).update(forfeited=True, substituted=True)
    before = written(game)

    async def scenario():
        socket = Socket(game.pk, players[mover].user)
        opened = await socket.open()
        await socket.send_json({"type": "act", "ply": opened["ply"], "index": 0})
        error = await socket.error()
        await socket.close()
        return opened, error

    opened, error = async_to_sync(scenario)()
    assert opened["seat"] == mover and not opened["yourTurn"] and opened["model"]["legal"] == []
    assert opened["substitutions"] == [{"seat": mover, "reason": "resigned"}]
    assert error["code"] == "substituted"
    assert written(game) == before


def test_the_game_page_the_api_and_the_replay_mark_the_substituted_seat() -> None:
    players = people(3)
    game = create_game("manila", players, seed="substituted-page", move_time_ms=1000)
    game.refresh_from_db()
    absent = load_state(game).to_move[0]
    rng = random.Random(6)
    time_out_until_substituted(game, absent, rng)

    client = APIClient()
    running_page = client.get(f"/games/{game.pk}/").content.decode()
    assert running_page.count(">substituted</span>") == 1  # public while the game runs
    running = client.get(f"/api/v1/games/{game.pk}/").json()
    assert [s["substituted"] for s in running["seats"]] == [p == absent for p in range(3)]

    game.refresh_from_db()
    while game.status == Game.Status.RUNNING:  # the others play on; nobody waits for absent
        state = load_state(game)
        seat = state.to_move[0]
        assert seat != absent
        action = rng.choice(state.legal_actions(seat))
        referee.submit(game.pk, game.next_ply, seat, Decision(action))
        game.refresh_from_db()

    page = client.get(f"/games/{game.pk}/").content.decode()
    assert page.count(">substituted</span>") == 1 and "(left the game: ranked last)" in page
    record = client.get(f"/api/v1/games/{game.pk}/").json()
    seat = record["seats"][absent]
    assert seat["substituted"] and seat["forfeited"] and seat["rank"] == 3
    house = Move.objects.filter(game=game, seat=absent, source="house").order_by("ply").first()
    body = client.get(f"/games/{game.pk}/boards.json?start={house.ply}&count=1").json()
    assert body["positions"][0]["move"]["source"] == "house"

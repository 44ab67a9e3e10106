"""Games played by people through their sockets from the start to the end, and no frame showing
what it may not.

Every seat holder and a spectator open a socket at the game's first turn and
play its opening; the seat to move picks a random legal control from its own
frame and sends it. Then the middle of the game is logged without sockets
(``fast_forward``: the same random people, the seed's chance, the referee's
own write), and fresh sockets of every seat holder and a spectator, joining
the running game, play its last stretch to the end. Afterwards every frame
each socket received is checked against an independent replay of the move
log at the frame's ply, and the game log the frames brought (the whole history
on a socket's first frame, then what came since) against the replay's events,
with a seat's own moves described for that seat only. A seat's board model
holds exactly ``state.view(seat)`` (so nothing of another seat's hidden part), its legal
actions only on its own turn and exactly the engine's; a spectator's holds
exactly ``state.view(None)`` and no actions.

Why not every ply through the sockets: a socket's frame is built the same way
at every ply (``person_moves.frame``: ``board_model`` of the state for the
socket's seat), and the socket part costs some 35 queries a ply; the opening
(the first deals), the last rounds and the end (the outcome) are where a
frame's content changes in kind. That a board model never depends on another
seat's secrets, at positions drawn from whole games, is
``tests/tournaments/boards/test_board_models.py``'s claim, and every message
the referee publishes during whole games is checked in
``tests/tournaments/test_published_no_leak.py``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

import engines
from games.models import Game
from games.selectors.boards import legal_entries
from games.services import create_game
from tests.tournaments.played import fast_forward
from web.sockets import consumers

from .conftest import Socket, people

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]
ENGINES = ["manila", "batavia", "cargo_noir", "grog_island"]
OPENING = 10
"""Person moves played through the first sockets, from the game's first frame."""
ENDING = 30
"""Person moves played through the second sockets, to the end."""


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


async def play_through_sockets(
    game: Game, sockets: list[Socket], rng: random.Random, moves: int | None = None
) -> int:
    """Act for whoever's frame says it is their turn, until every socket saw the game end
    (or ``moves`` moves were sent); the moves sent.

    After each move every socket waits for the frame of the position the
    referee stopped at (the next person's turn, or the end): the database says
    which ply that is.
    """
    seats = sockets[:-1]
    for socket in sockets:
        await socket.open()
    for sent in range(5000):
        if all(s.latest["status"] != "running" for s in sockets) or sent == moves:
            return sent
        movers = [s for s in seats if s.latest["yourTurn"]]
        assert len(movers) == 1, [s.latest["yourTurn"] for s in seats]
        mover = movers[0]
        ply = mover.latest["ply"]
        entry = rng.choice(mover.latest["model"]["legal"])
        await mover.send_json({"type": "act", "ply": ply, "index": entry["index"]})
        await mover.until(ply + 1)  # the referee went on to the next person's turn
        now = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        for socket in sockets:
            while (socket.latest["ply"], socket.latest["status"]) != (now.next_ply, now.status):
                await socket.state()
    raise AssertionError("the game did not end")


def replayed_log(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """The game log ``seat`` (None: a spectator) should be shown, from a replay of the moves:
    each ply's new public events, and the seat's own action described on its own plies only."""
    rules = engines.get(game.engine)
    state = rules.new_game(game.num_players, game.options)
    log = []
    for move in game.moves.order_by("ply"):
        before = len(state.events)
        state.apply(move.seat, move.action)
        entry: dict[str, Any] = {
            "ply": move.ply,
            "seat": move.seat,
            "texts": [rules.describe_event(e) for e in state.events[before:]],
        }
        if seat is not None and move.seat == seat:
            entry["mine"] = rules.describe(move.action)
        log.append(entry)
    return log


def received_log(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log a page keeps from its frames: the first brings it whole, each next one continues
    it where the last stopped (a frame never skips or repeats plies)."""
    log: list[dict[str, Any]] = []
    for frame in frames:
        part = frame["log"]
        assert part["from"] == len(log), (part["from"], len(log))
        assert part["to"] == frame["ply"] == part["from"] + len(part["entries"])
        log += part["entries"]
    return [
        {"ply": e["ply"], "seat": e["seat"], "texts": [x["text"] for x in e["events"]]}
        | ({"mine": e["mine"]} if "mine" in e else {})
        for e in log
    ]


def replayed_states(game: Game) -> dict[int, engines.State]:
    """The state after every number of moves of the finished game's log."""
    state = engines.get(game.engine).new_game(game.num_players, game.options)
    states = {0: state.clone()}
    for move in game.moves.order_by("ply"):
        state.apply(move.seat, move.action)
        states[move.ply + 1] = state.clone()
    return states


@pytest.mark.parametrize("slug", ENGINES)
def test_whole_game_through_the_sockets_shows_each_socket_only_its_own_view(
    slug, monkeypatch
) -> None:
    monkeypatch.setattr(consumers, "RATE_PER_S", 1000.0)  # a test plays faster than a person
    n = engines.get(slug).min_players  # the fewest sockets that make a whole game: fast
    players = people(n, prefix=f"{slug}-")
    game = create_game(slug, players, seed=f"{slug}-sockets")
    rng = random.Random(slug)

    def sockets() -> list[Socket]:
        return [Socket(game.pk, p.user) for p in players] + [Socket(game.pk)]

    async def play(group: list[Socket], moves: int | None) -> int:
        sent = await play_through_sockets(game, group, rng, moves)
        for socket in group:
            await socket.close()
        return sent

    opening, ending = sockets(), sockets()
    first_ply = Game.objects.get(pk=game.pk).next_ply  # after the chance that opens the game
    assert async_to_sync(play)(opening, OPENING) == OPENING
    skipped = fast_forward(game, rng, leave=ENDING)
    resumed_at = Game.objects.get(pk=game.pk).next_ply
    assert async_to_sync(play)(ending, None) == ENDING

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert skipped > 0 and game.moves.filter(source="person").count() > OPENING + ENDING
    assert not game.moves.exclude(source__in=["person", "chance"]).exists()
    states = replayed_states(game)
    for position, (first, last) in enumerate(zip(opening, ending, strict=True)):
        seat = None if position == n else position
        assert first.frames[0]["ply"] == first_ply and last.frames[0]["ply"] == resumed_at
        frames = [f for f in first.frames + last.frames if f["type"] == "state"]
        expected_log = replayed_log(game, seat)
        for socket in (first, last):  # each socket's log: the whole story, its own moves only
            shown = received_log([f for f in socket.frames if f["type"] == "state"])
            assert shown == expected_log[: len(shown)], f"seat {seat}"
        assert len(received_log([f for f in last.frames if f["type"] == "state"])) == len(
            expected_log
        )
        assert frames[-1]["status"] == "finished" and frames[-1]["outcome"]
        assert not [f for f in first.frames + last.frames if f["type"] == "error"]
        for frame in frames:
            state = states[frame["ply"]]
            model = frame["model"]
            assert frame["seat"] == seat and model["seat"] == seat
            assert model["view"] == plain(state.view(seat)), f"seat {seat} ply {frame['ply']}"
            expected = plain(legal_entries(state, seat)) if frame["status"] == "running" else []
            assert model["legal"] == expected
            assert frame["yourTurn"] == bool(expected)

"""The embedded mode serves at once and plays in the background, on Celery's own worker and beat.

``manage.py demo_serve`` runs in a child process on a SQLite file, as ``make
demo`` runs it (``tests/foundation/demo_server.py``): no Redis, so its Celery
worker and beat run in threads beside the site (``harbormaster.embedded_celery``).
A request only queues the referee's work; it must not wait for it.

To see that, the games seat "gated" push bots, served by this test process:
while the gate is closed, a bot asked to move holds its answer (at most
``HOLD_S``, well inside its move time, so it is never at fault). A request
that played the game on inline could not answer before the gate opens (it
would wait at least ``HOLD_S``, past the client's timeout); served right, it
answers while the game is still where the request left it, then the worker
asks the gated bot (the gate sees it waiting), and once the gate opens the
game plays to its end. No assertion is about how fast: only about what has
not happened yet when the answer comes.

Clocks are ``check_clock`` countdown tasks the worker holds until due, and
beat's stalled-game recovery runs in the same process: a pull bot that never
polls and a person who never moves get their timeout defaults on time.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import httpx
import pytest
from harbormaster_bot import Turn, serve_in_background
from websockets.sync.client import connect

from games.referee.turns import GRACE_MS
from tests.foundation.demo_server import DemoServer, demo_server, moves, status, wait_for

pytestmark = pytest.mark.slow

GATED_SECRET = "hms_gated-test-secret"
HOLD_S = 20.0
"""Longest a gated bot holds an answer (then it answers anyway)."""
CLIENT_TIMEOUT_S = 10.0
"""A request that has not answered by then was waiting for the game (less than ``HOLD_S``)."""
MOVE_TIME_MS = 60_000
"""The games with gated bots: longer than any hold, so no one faults."""
SHORT_MOVE_TIME_MS = 400
"""The clock tests' time control."""

SETUP = """
import json
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from rest_framework.authtoken.models import Token
from botapi.services import bots as services
from botapi.models import Bot
from harbormaster.demo import ensure_demo_person

users = get_user_model().objects
owner = users.create_user("owner", "owner@example.com")
found = {"token": Token.objects.create(user=owner).key, "pull": {}, "gated": []}
for name in ("puller", "silent"):
    bot, credentials = services.register_bot(owner, name=name, engines=["manila"], mode="pull")
    found["pull"][name] = {"id": bot.pk, "token": credentials.pull_token}
for name in ("gated-a", "gated-b"):
    bot, _ = services.register_bot(owner, name=name, engines=["manila"], endpoint_url="__URL__")
    Bot.objects.filter(pk=bot.pk).update(signing_secret="__SECRET__")
    found["gated"].append(bot.pk)
found["examples"] = {
    bot.name: bot.pk for bot in Bot.objects.filter(owner__username="examples")
}
ensure_demo_person()
visitor = users.get(username="visitor")
session = SessionStore()
session["_auth_user_id"] = str(visitor.pk)
session["_auth_user_backend"] = settings.AUTHENTICATION_BACKENDS[0]
session["_auth_user_hash"] = visitor.get_session_auth_hash()
session.create()
found["session"] = session.session_key
print(json.dumps(found))
"""

PERSON_GAME = """
import json
from datetime import timedelta
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from botapi.models import Bot
from games.services import create_game
from games.models import Game
from people.services import ensure_person

settings.CELERY_TASK_ALWAYS_EAGER = __EAGER__  # True: this process plays up to the person's turn
visitor = ensure_person(get_user_model().objects.get(username="visitor")).competitor
bots = [Bot.objects.get(pk=pk).competitor for pk in __BOTS__]
game = create_game("manila", [visitor, *bots], rated=False, move_time_ms=__MOVE_TIME_MS__)
if __STALLED__:  # as if its process had died long ago: only beat's recovery will find it
    Game.objects.filter(pk=game.pk).update(last_progress_at=timezone.now() - timedelta(hours=1))
print(json.dumps({"game": game.pk}))
"""


class Gate:
    """The gated bots' handler: random legal moves, held while the gate is closed."""

    def __init__(self) -> None:
        self.opened = threading.Event()
        self.opened.set()
        self.waiting = threading.Event()
        self.rng = random.Random(5)

    def close(self) -> None:
        self.waiting.clear()
        self.opened.clear()

    def open(self) -> None:
        self.opened.set()

    def act(self, turn: Turn) -> int:
        if not self.opened.is_set():
            self.waiting.set()
            self.opened.wait(HOLD_S)
        return self.rng.randrange(len(turn.legal_actions))


class Site:
    """The served demo and what the setup made there."""

    def __init__(self, server: DemoServer, gate: Gate, found: dict[str, Any]) -> None:
        self.server = server
        self.gate = gate
        self.found = found
        self.http = httpx.Client(base_url=server.url, timeout=CLIENT_TIMEOUT_S)

    def new_game(self, bots: list[int], move_time_ms: int) -> httpx.Response:
        """``POST /api/v1/games/`` as the owner: a Manila game seating ``bots``."""
        body = {
            "engine": "manila",
            "seats": [{"bot": bot} for bot in bots],
            "move_time_ms": move_time_ms,
            "rated": False,
        }
        headers = {"Authorization": f"Token {self.found['token']}"}
        return self.http.post("/api/v1/games/", json=body, headers=headers)

    def pull_turn(self, bot: str, game: int, timeout: float = 30) -> dict[str, Any] | None:
        """The pull bot's next turn in ``game`` (long polls), or None once the game is over."""
        headers = {"Authorization": f"Bot {self.found['pull'][bot]['token']}"}

        def turn() -> dict[str, Any] | bool:
            if status(self.server, game) != "running":
                return True
            answer = self.http.get("/api/v1/bots/me/turns", params={"wait": 2}, headers=headers)
            assert answer.status_code == 200, answer.text
            mine = [t for t in answer.json() if t["game"]["id"] == game]
            return mine[0] if mine else False

        found = wait_for(turn, f"a turn of {bot} in game {game}", self.server, timeout)
        return None if found is True else found

    def post_move(self, bot: str, turn: dict[str, Any]) -> httpx.Response:
        headers = {"Authorization": f"Bot {self.found['pull'][bot]['token']}"}
        body = {"ply": turn["ply"], "action_index": 0, "request_id": turn["request_id"]}
        path = f"/api/v1/games/{turn['game']['id']}/moves"
        return self.http.post(path, json=body, headers=headers)

    def finished(self, game: int, timeout: float = 90) -> None:
        wait_for(lambda: status(self.server, game) == "finished", f"game {game} over",
                 self.server, timeout)  # fmt: skip

    def seat_row(self, game: int, position: int) -> tuple:
        return self.server.rows(
            "SELECT forfeited, substituted, fault_count FROM tournaments_seat "
            "WHERE game_id = ? AND position = ?",
            game,
            position,
        )[0]

    def made_at(self, game: int, ply: int) -> datetime:
        """When ply ``ply`` was recorded (the game's start for ply 0)."""
        if ply == 0:
            row = self.server.rows("SELECT started_at FROM tournaments_game WHERE id = ?", game)
        else:
            row = self.server.rows(
                "SELECT created_at FROM tournaments_move WHERE game_id = ? AND ply = ?",
                game,
                ply - 1,
            )
        return datetime.fromisoformat(row[0][0])

    def recorded_at(self, game: int, ply: int) -> datetime:
        row = self.server.rows(
            "SELECT created_at FROM tournaments_move WHERE game_id = ? AND ply = ?", game, ply
        )
        return datetime.fromisoformat(row[0][0])


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    gate = Gate()
    bots = serve_in_background(gate, secret=GATED_SECRET, name="gated")
    try:
        with demo_server(tmp_path_factory.mktemp("embedded-celery")) as server:
            setup = SETUP.replace("__URL__", bots.url).replace("__SECRET__", GATED_SECRET)
            yield Site(server, gate, server.shell(setup))
    finally:
        gate.open()
        bots.stop()


def bot_moves_after(site: Site, game: int, ply: int, seats: set[int]) -> list[tuple]:
    return [m for m in moves(site.server, game) if m[0] > ply and m[1] in seats and m[2] == "bot"]


def test_a_pull_bots_move_is_answered_before_the_game_plays_on(site: Site) -> None:
    created = site.new_game([site.found["pull"]["puller"]["id"], *site.found["gated"]],
                            MOVE_TIME_MS)  # fmt: skip
    assert created.status_code == 201, created.text
    game = created.json()["id"]
    # Post the pull bot's moves with the gate closed until one hands the game to a
    # gated bot (its next decision may be the pull bot's own again).
    while True:
        turn = site.pull_turn("puller", game)
        assert turn is not None, "the game ended before a gated bot was to move"
        site.gate.close()
        answer = site.post_move("puller", turn)  # on the old code: waits for the gate, times out
        assert answer.status_code == 201, answer.text
        assert status(site.server, game) == "running"
        assert bot_moves_after(site, game, turn["ply"], {1, 2}) == [], "not yet played on"
        if site.gate.waiting.wait(5):  # the worker asked a gated bot after the answer
            break
        site.gate.open()
    assert bot_moves_after(site, game, turn["ply"], {1, 2}) == []
    site.gate.open()
    while (turn := site.pull_turn("puller", game)) is not None:
        answer = site.post_move("puller", turn)
        assert answer.status_code == 201, answer.text
    site.finished(game)
    pulled = [m for m in moves(site.server, game) if m[1] == 0]
    assert pulled and all(m[2] == "bot" and not m[3] for m in pulled), pulled


def test_a_new_game_is_answered_at_once_and_played_in_the_background(site: Site) -> None:
    site.gate.close()
    created = site.new_game([*site.found["gated"], site.found["examples"]["random-1"]],
                            MOVE_TIME_MS)  # fmt: skip  # the old code played it inline, to the gate
    assert created.status_code == 201, created.text
    game = created.json()["id"]
    assert status(site.server, game) == "running"
    assert bot_moves_after(site, game, -1, {0, 1}) == [], "not yet played"
    assert site.gate.waiting.wait(30), "the worker went on to ask a gated bot"
    site.gate.open()
    site.finished(game)
    assert {m[1] for m in moves(site.server, game) if m[2] == "bot"} == {0, 1, 2}


def test_a_resignation_is_acknowledged_at_once_and_the_house_bot_plays_on(site: Site) -> None:
    code = (
        PERSON_GAME.replace("__EAGER__", "True")
        .replace("__STALLED__", "False")
        .replace("__BOTS__", json.dumps(site.found["gated"]))
        .replace("__MOVE_TIME_MS__", str(MOVE_TIME_MS))
    )
    game = site.server.shell(code)["game"]  # up to the person's turn, played in that process
    socket_url = site.server.url.replace("http://", "ws://") + f"/ws/games/{game}/"
    headers = {"Cookie": f"sessionid={site.found['session']}", "Origin": site.server.url}
    with connect(socket_url, additional_headers=headers, open_timeout=10) as socket:
        frame = json.loads(socket.recv(timeout=10))
        assert frame["yourTurn"], frame
        site.gate.close()
        socket.send(json.dumps({"type": "resign"}))
        ack = json.loads(socket.recv(timeout=CLIENT_TIMEOUT_S))  # the old code: after the game
        assert ack["type"] == "state", ack
        assert ack["status"] == "running" and not ack["yourTurn"], ack
        assert status(site.server, game) == "running"
        resigned_at = max(m[0] for m in moves(site.server, game))
        assert site.seat_row(game, 0)[:2] == (1, 1)  # forfeited, substituted
        assert site.gate.waiting.wait(30), "the house bot played on, up to a gated bot"
        site.gate.open()
        site.finished(game)
        # The page hears of it: the worker's messages reach the socket in this process.
        assert wait_for(lambda: json.loads(socket.recv(timeout=30)).get("status") == "finished",
                        "the finished frame", site.server, 30)  # fmt: skip
    house = [m for m in moves(site.server, game) if m[0] > resigned_at and m[1] == 0]
    assert house and all(m[2] == "house" for m in house), house


def test_a_silent_pull_bots_clock_runs_out_on_time(site: Site) -> None:
    examples = site.found["examples"]
    seats = [site.found["pull"]["silent"]["id"], examples["random-2"], examples["random-3"]]
    created = site.new_game(seats, SHORT_MOVE_TIME_MS)
    assert created.status_code == 201, created.text
    game = created.json()["id"]
    site.finished(game)
    timeouts = [m for m in moves(site.server, game) if m[1] == 0 and m[3] == "timeout"]
    assert len(timeouts) == 3 and all(m[2] == "default" for m in timeouts), timeouts
    assert site.seat_row(game, 0)[0] == 1  # forfeited after its third
    assert_on_time(site, game, timeouts[0][0])


def test_a_person_who_never_moves_times_out_after_beat_finds_the_game(site: Site) -> None:
    """The game's first task was lost with the process that made it: beat's recovery finds it."""
    examples = site.found["examples"]
    code = (
        PERSON_GAME.replace("__EAGER__", "False")
        .replace("__STALLED__", "True")
        .replace("__BOTS__", json.dumps([examples["random-4"], examples["random-5"]]))
        .replace("__MOVE_TIME_MS__", str(SHORT_MOVE_TIME_MS))
    )
    game = site.server.shell(code)["game"]
    assert moves(site.server, game) == []
    site.finished(game, timeout=120)  # beat's recovery runs every 15 s
    timeouts = [m for m in moves(site.server, game) if m[1] == 0 and m[3] == "timeout"]
    assert len(timeouts) == 3 and all(m[2] == "default" for m in timeouts), timeouts
    forfeited, substituted, _ = site.seat_row(game, 0)
    assert (forfeited, substituted) == (1, 1)  # the house bot finished the person's seat
    assert_on_time(site, game, timeouts[1][0])


def assert_on_time(site: Site, game: int, ply: int) -> None:
    """The timeout default of ``ply`` came once the move time and grace were up, not much later."""
    waited = (site.recorded_at(game, ply) - site.made_at(game, ply)).total_seconds()
    limit = (SHORT_MOVE_TIME_MS + GRACE_MS) / 1000
    assert limit <= waited < limit + 10, waited

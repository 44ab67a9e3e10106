"""``manage.py demo_serve``: the example bots answer for as long as the demo serves.

The command runs in a child process, as ``make demo`` runs it
(``tests/foundation/demo_server.py``: the embedded defaults on a temporary
SQLite file). The test then checks what a visitor relies on: the example bots
are active and answer a signed ping; in a game of the demo person against
three example bots, the person's move (sent over the play page's socket)
makes the served process's Celery worker run the referee, which asks the
three bots over loopback HTTP from the same process (no deadlock), and a
clock that runs out is played there by its countdown task; after SIGTERM the
bots are suspended again, saying why.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from botapi.client import default_client
from harbormaster.demo import EXAMPLE_BOTS, SUSPENDED_REASON
from tests.foundation.demo_server import DemoServer, demo_server, moves, wait_for

pytestmark = pytest.mark.slow

MOVE_TIME_MS = 4000
"""Long enough to send the person's first move; short enough to watch the next clock run out."""

CREATE_GAME = """
import json
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from botapi.models import Bot
from harbormaster.demo import ensure_demo_person
from people.services import ensure_person
from games.services import create_game
from django.contrib.auth import get_user_model

# This process runs no Celery worker: it plays the game up to the person's turn itself.
settings.CELERY_TASK_ALWAYS_EAGER = True
ensure_demo_person()
user = get_user_model().objects.get(username="visitor")
bots = {bot.name: bot for bot in Bot.objects.filter(owner__username="examples")}
opponents = [bots[name].competitor for name in ("greedy", "random-1", "random-2")]
players = [ensure_person(user).competitor, *opponents]
game = create_game("manila", players, rated=False, move_time_ms=MOVE_TIME_MS)
session = SessionStore()
session["_auth_user_id"] = str(user.pk)
session["_auth_user_backend"] = settings.AUTHENTICATION_BACKENDS[0]
session["_auth_user_hash"] = user.get_session_auth_hash()
session.create()
print(json.dumps({"game": game.pk, "session": session.session_key}))
""".replace("MOVE_TIME_MS", str(MOVE_TIME_MS))


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[DemoServer]:
    with demo_server(tmp_path) as server:
        yield server


def example_bots(server: DemoServer) -> list[tuple]:
    return server.rows(
        "SELECT b.name, b.status, b.status_reason, b.endpoint_url, b.signing_secret "
        "FROM botapi_bot b JOIN auth_user u ON u.id = b.owner_id "
        "WHERE u.username = 'examples' ORDER BY b.name"
    )


def test_the_example_bots_answer_while_the_demo_serves_and_are_suspended_after(demo) -> None:
    bots = example_bots(demo)
    assert [bot[0] for bot in bots] == sorted(EXAMPLE_BOTS)
    client = default_client(["loopback"])
    for name, status, _, endpoint, secret in bots:
        assert status == "active", name
        pong = client.ping(endpoint, secret)
        assert pong.ok and pong.reply["name"] == name, (name, pong.detail)
    client.close()
    assert "Serving the example bots from this process" in demo.log()

    # A game of the demo person against three example bots (made with the ORM in
    # another process on the same file); its first person move goes through the server.
    created = demo.shell(CREATE_GAME)
    game = created["game"]
    socket_url = demo.url.replace("http://", "ws://") + f"/ws/games/{game}/"
    headers = {"Cookie": f"sessionid={created['session']}", "Origin": demo.url}
    with connect(socket_url, additional_headers=headers, open_timeout=10) as socket:
        frame = json.loads(socket.recv(timeout=10))
        assert frame["type"] == "state" and frame["seats"] == [0], frame
        assert frame["yourTurn"], f"the referee stopped at the person's turn (frame {frame})"
        first_ply = frame["ply"]
        socket.send(json.dumps({"type": "act", "ply": first_ply, "index": 0}))
        answer = json.loads(socket.recv(timeout=10))
    # Accepted (a frame past it); or, on a slow machine, the first clock ran out and
    # the server played the default at once. Either way the served process goes on.
    assert answer["type"] == "state" or answer.get("code") == "deadline_passed", answer

    def bots_answered() -> list[tuple]:
        after = [move for move in moves(demo, game) if move[0] > first_ply]
        return after if {move[1] for move in after if move[2] == "bot"} >= {1, 2, 3} else []

    wait_for(bots_answered, "the three example bots to answer after the person", demo, 20)
    first = next(move for move in moves(demo, game) if move[0] == first_ply)
    assert first[1] == 0 and first[2] in ("person", "default"), first

    # The person's next clock is a countdown task held by the served process's worker:
    # nobody moves, so its default is played there when the move time runs out.
    def next_default() -> list[tuple]:
        return [
            m for m in moves(demo, game) if m[0] > first_ply and m[1] == 0 and m[2] == "default"
        ]

    timed_out = wait_for(next_default, "the person's clock to run out", demo, 20)
    assert timed_out[0][3] == "timeout", timed_out

    assert demo.stop() == 0, demo.log()
    assert "example bots are suspended again" in demo.log()
    assert {(bot[1], bot[2]) for bot in example_bots(demo)} == {("suspended", SUSPENDED_REASON)}

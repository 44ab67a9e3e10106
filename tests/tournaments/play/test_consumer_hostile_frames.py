"""Frames the play page's socket cannot parse are a ``bad_frame`` error, never a crash.

1,000 ``[`` fit in a frame (1,024 characters) but made Python's parser raise
``RecursionError``, which the consumer did not catch: the socket died.
``1e400`` became ``inf``. Each must be refused, change nothing, and leave the
socket working.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from games.services import create_game

from .conftest import Socket, people
from .test_consumer import to_move, written

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]

HOSTILE_FRAMES = {
    "deep": "[" * 1000 + "]" * 20,
    "deep object": '{"type": "act", "ply": ' + "[" * 990 + "]",
    "overflow": '{"type": "act", "ply": 1e400, "index": 0}',
    "long integer": '{"type": "act", "ply": 0, "index": ' + "9" * 400 + "}",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_FRAMES))
def test_an_unparsable_frame_is_a_bad_frame_and_the_socket_lives_on(name: str) -> None:
    players = people(3)
    game = create_game("manila", players, seed="hostile-frames")
    mover = to_move(game)
    before = written(game)

    async def scenario():
        seat = Socket(game.pk, players[mover].user)
        await seat.open()
        await seat.comm.send_to(text_data=HOSTILE_FRAMES[name])
        error = await seat.error()
        await seat.comm.send_json_to({"type": "sync"})
        frame = await seat.state()
        await seat.close()
        return error, frame

    error, frame = async_to_sync(scenario)()
    assert error["code"] == "bad_frame"
    assert "JSON" in error["detail"]
    assert frame["ply"] == before[0]
    assert written(game) == before

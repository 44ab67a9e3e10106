"""Through the Redis channel layer (servers mode): a move reaches another socket's page.

The referee publishes through ``broadcast``'s background sender into Redis; the
spectator's consumer, on the same layer, turns the cue into its own frame.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.creation import create_game
from games.models import Move
from games.referee.statecache import load_state
from web.sockets import broadcast

from .conftest import Socket, people

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_referee"),
    pytest.mark.redis,
]


@pytest.fixture
def redis_layer(settings, monkeypatch):
    """The project's Redis channel layer, on a prefix of this test's own."""
    from harbormaster import env

    layers = env.channel_layers({"REDIS_URL": settings.REDIS_URL})
    layers["default"]["CONFIG"]["prefix"] = f"hm-play-test-{id(layers)}"
    settings.CHANNEL_LAYERS = layers
    monkeypatch.setattr(broadcast, "WATCH_CHECK_S", 0.0)
    return get_channel_layer()


def test_a_move_reaches_the_spectator_through_redis(redis_layer) -> None:
    players = people(3)
    game = create_game("manila", players, seed="through-redis")
    game.refresh_from_db()
    mover = load_state(game).to_move[0]
    ply = game.next_ply

    async def scenario():
        seat, spectator = Socket(game.pk, players[mover].user), Socket(game.pk)
        await seat.open()
        await spectator.open()
        await seat.send_json({"type": "act", "ply": ply, "index": 0})
        mine = await seat.until(ply + 1)
        seen = await spectator.until(ply + 1)
        await seat.close()
        await spectator.close()
        return mine, seen

    mine, seen = async_to_sync(scenario)()
    assert Move.objects.get(game=game, ply=ply).source == "person"
    assert seen["seat"] is None and seen["ply"] > ply and seen["model"]["legal"] == []
    assert mine["seat"] == mover

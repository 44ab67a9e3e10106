"""Live-page messages reach a game's channel group through a real channel layer, in order,
and nothing is sent for a game nobody watches."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from web.sockets import broadcast

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def moves(game_id: int, plies: range) -> list[dict]:
    return [broadcast.move_message(game_id, ply, 0, {"ply": ply}, []) for ply in plies]


async def receive_all(layer, channel: str, count: int) -> list[dict]:
    return [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(count)]


def test_in_memory_a_watcher_gets_every_message_in_order(settings) -> None:
    settings.CHANNEL_LAYERS = IN_MEMORY
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(broadcast.group_name(7), channel)

    broadcast.publish_many(7, moves(7, range(3)))
    broadcast.publish_finish(7, {"ranks": [1, 2]}, "seed")

    received = async_to_sync(receive_all)(layer, channel, 4)
    assert [m.get("ply") for m in received] == [0, 1, 2, None]
    assert received[-1]["type"] == "game.finished"


def test_in_memory_nothing_is_sent_to_a_game_nobody_watches(settings, monkeypatch) -> None:
    settings.CHANNEL_LAYERS = IN_MEMORY
    layer = get_channel_layer()
    sent = []
    monkeypatch.setattr(layer, "group_send", lambda *args: sent.append(args))
    broadcast.publish_many(8, moves(8, range(2)))
    assert sent == []


@pytest.fixture
def redis_layer(settings):
    """The project's Redis channel layer, on a prefix of this test's own."""
    layer_settings = {key: dict(value) for key, value in settings.CHANNEL_LAYERS.items()}
    config = dict(layer_settings["default"]["CONFIG"])
    config["prefix"] = f"hm-test-{id(config)}"
    layer_settings["default"]["CONFIG"] = config
    settings.CHANNEL_LAYERS = layer_settings
    return get_channel_layer()


@pytest.mark.redis
def test_through_redis_a_watcher_gets_every_message_in_order(redis_layer, monkeypatch) -> None:
    monkeypatch.setattr(broadcast, "WATCH_CHECK_S", 0.0)
    channel = async_to_sync(redis_layer.new_channel)()
    async_to_sync(redis_layer.group_add)(broadcast.group_name(9), channel)

    broadcast.publish_many(9, moves(9, range(3)))
    broadcast.publish_many(9, moves(9, range(3, 5)))
    assert broadcast.flush()

    received = async_to_sync(receive_all)(redis_layer, channel, 5)
    assert [m["ply"] for m in received] == [0, 1, 2, 3, 4]
    assert all(m["type"] == "game.move" and m["game"] == 9 for m in received)


@pytest.mark.redis
def test_through_redis_an_unwatched_game_sends_nothing_and_asks_rarely(
    redis_layer, monkeypatch
) -> None:
    handed = []
    monkeypatch.setattr(
        broadcast._BackgroundSender, "send", lambda self, group, messages: handed.append(group)
    )
    watchers = broadcast._watchers(redis_layer)
    asked = []
    count = watchers.count
    monkeypatch.setattr(watchers, "count", lambda group: asked.append(group) or count(group))

    for ply in range(50):
        broadcast.publish_many(10, moves(10, range(ply, ply + 1)))
    assert handed == []
    assert asked == [broadcast.group_name(10)], "one look per WATCH_CHECK_S, not one per move"

    # A watcher that joins is seen once the last look is older than WATCH_CHECK_S.
    channel = async_to_sync(redis_layer.new_channel)()
    async_to_sync(redis_layer.group_add)(broadcast.group_name(10), channel)
    monkeypatch.setattr(broadcast, "WATCH_CHECK_S", 0.0)
    broadcast.publish_many(10, moves(10, range(50, 51)))
    assert handed == [broadcast.group_name(10)]

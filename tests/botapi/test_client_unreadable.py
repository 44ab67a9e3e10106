"""A check of ours that raises on a bot's parsed reply is that reply's fault, not a crash.

The client promises never to raise because of a bot; the protocol's checks
run on whatever JSON the bot sent, so one that breaks (a bug of ours) must
still end as a fault the owner can read, with the game going on.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from botapi import protocol
from botapi.client import BotClient, Fault
from tests.botapi.servers import MisbehavingServer
from tests.botapi.test_client import SECRET, act_request


@pytest.fixture
def server() -> Iterator[MisbehavingServer]:
    running = MisbehavingServer().start()
    yield running
    running.stop()


def test_a_check_that_raises_on_a_reply_is_an_unreadable_reply_fault(
    server: MisbehavingServer, monkeypatch
) -> None:
    def broken(*args, **kwargs):
        raise OverflowError("injected: int too large to convert to float")

    monkeypatch.setattr(protocol, "parse_act_reply", broken)
    monkeypatch.setattr(protocol, "parse_ping_reply", broken)
    client = BotClient(allow=["loopback"])
    try:
        act = client.act(server.url("/action"), SECRET, act_request())
        ping = client.ping(server.url("/ping"), SECRET)
    finally:
        client.close()
    for result in (act, ping):
        assert result.fault == Fault.UNREADABLE_REPLY
        assert "OverflowError: injected" in result.detail
        assert result.reply_excerpt  # the reply is kept for the owner
        json.dumps(result.to_record())

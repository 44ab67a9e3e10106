"""Fixtures for referee tests: bots served by the SDK on loopback, registered as Bots."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from harbormaster_bot import serve_in_background

from botapi.models import Bot
from tests.factories import BotFactory

BOT_SECRET = "hms_loopback-test-secret"


@pytest.fixture
def serve_bots() -> Iterator[Callable[[str, list], list[Bot]]]:
    """``serve_bots(engine, handlers)``: one SDK server per handler, each a registered Bot."""
    running = []

    def start(slug: str, handlers: list) -> list[Bot]:
        bots = []
        for i, handler in enumerate(handlers):
            server = serve_in_background(handler, secret=BOT_SECRET, name=f"bot{i}")
            running.append(server)
            bots.append(
                BotFactory(endpoint_url=server.url, signing_secret=BOT_SECRET, engines=[slug])
            )
        return bots

    yield start
    for server in running:
        server.stop()

"""Registering a push bot whose first ping answers something hostile (POST /api/v1/bots/).

The registration pings the new bot at once. Whatever the bot answers, the
owner gets the bot and its secret with the ping's fault as health; if the
server itself fails, nothing is created. Run it on PostgreSQL (``make test``),
whose text columns refuse what Python strings allow (NUL, lone surrogates).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from rest_framework.test import APIClient

from botapi.models import Bot
from botapi.services import bots as services
from games.models import Competitor
from tests.botapi.servers import MisbehavingServer

pytestmark = pytest.mark.django_db

BOTS = "/api/v1/bots/"


@pytest.fixture(scope="module")
def server() -> Iterator[MisbehavingServer]:
    running = MisbehavingServer().start()
    yield running
    running.stop()


def register(api: APIClient, url: str):
    return api.post(BOTS, {"name": "hostile", "engines": ["manila"], "endpoint_url": url}, "json")


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/deep", "nested 10001 levels deep"),
        ("/surrogate", "surrogate"),
        ("/nul", None),
        ("/latin1", "UTF-8"),
    ],
)
def test_a_hostile_ping_reply_is_health_and_the_secret_is_shown(
    api: APIClient, server: MisbehavingServer, path: str, words: str | None
) -> None:
    response = register(api, server.url(path))
    assert response.status_code == 201, response.content[:500]
    body = response.json()
    bot = Bot.objects.get(pk=body["id"])
    assert body["signing_secret"] == bot.signing_secret
    assert len(server.requests_to(path)) >= 1, "the new bot was pinged"
    if words is None:  # NUL in the name is kept, as U+FFFD
        assert body["health"]["last_ping_ok"] is True
        assert "nul\ufffdbot" in bot.last_ping_detail
    else:
        assert body["health"]["last_ping_ok"] is False
        assert bot.last_ping_detail.startswith("invalid_json: ")
        assert words in bot.last_ping_detail
    assert body["health"]["last_ping_detail"] == bot.last_ping_detail


def test_a_server_failure_during_the_first_ping_creates_nothing(
    api: APIClient, server: MisbehavingServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Never a bot whose secret its owner did not see: our own error rolls it all back."""

    def broken_ping(bot: Bot, client: object = None) -> None:
        raise RuntimeError("the server broke while pinging")

    monkeypatch.setattr(services, "ping_bot", broken_ping)
    api.raise_request_exception = False
    response = register(api, server.url("/ping"))
    assert response.status_code == 500
    assert response.json()["code"] == "server_error"
    assert not Bot.objects.exists()
    assert not Competitor.objects.exists()
    # and the owner can simply try again under the same name
    monkeypatch.undo()
    again = register(api, server.url("/ping"))
    assert again.status_code == 201, again.json()
    assert again.json()["health"]["last_ping_ok"] is True

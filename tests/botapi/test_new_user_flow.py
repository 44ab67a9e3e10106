"""Issue 8's "done when", tried as a new user would.

The bot is the ``my_bot.py`` example of ``sdk/python/README.md``, taken from
the README itself (so the docs and this test cannot drift apart). It is
started on loopback, registered through the REST API with a user's token,
restarted with the signing secret the registration shows once (as the README
says), answers a ping, then plays a full game of each engine against the
example bots with ``manage.py play``.
"""

from __future__ import annotations

import io
import re
import types
from pathlib import Path

import pytest
from django.core.management import call_command
from harbormaster_bot import serve_in_background
from rest_framework.test import APIClient

import engines
from botapi.client import default_client
from botapi.services import bots as services
from games.models import Game
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
README = Path(__file__).resolve().parents[2] / "sdk" / "python" / "README.md"


def readme_bot_module() -> types.ModuleType:
    """The README's ``my_bot.py``, executed as a module (not as ``__main__``: no serve())."""
    text = README.read_text(encoding="utf-8")
    after = text.split("Create `my_bot.py`:", 1)[1]
    code = re.search(r"```python\n(.*?)```", after, re.DOTALL)
    assert code, "the README lost its my_bot.py example"
    module = types.ModuleType("my_bot")
    exec(compile(code.group(1), "README:my_bot.py", "exec"), module.__dict__)
    return module


def test_the_readme_bot_registers_and_plays_every_engine_with_manage_py_play(settings) -> None:
    settings.BOT_ENDPOINT_ALLOW = ["loopback"]  # what DEBUG allows on a developer's machine
    my_bot = readme_bot_module()
    user = UserFactory()
    api = APIClient()
    token = api.post(
        "/api/v1/auth/token/", {"username": user.username, "password": DEFAULT_PASSWORD}
    ).json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    # Start it (no secret yet), register its URL, restart it with the secret shown once.
    with serve_in_background(my_bot.MyBot(), secret="not-yet", name="my-bot") as first:
        url, port = first.url, first.port
        slugs = [engine.slug for engine in engines.all_engines()]
        response = api.post(
            "/api/v1/bots/",
            {"name": "my-bot", "engines": slugs, "endpoint_url": url},
            format="json",
        )
    assert response.status_code == 201, response.json()
    registered = response.json()
    secret = registered["signing_secret"]
    assert registered["health"]["last_ping_ok"] is False  # it did not know its secret yet
    # A stopped RunningBot's handler threads may still serve the referee's pooled
    # keep-alive connection with the old secret; a real restart ends the process.
    default_client(services.endpoint_policy()).close()

    with serve_in_background(my_bot.MyBot(), port=port, secret=secret, name="my-bot") as bot:
        ping = api.post(f"/api/v1/bots/{registered['id']}/ping/").json()
        assert ping["ok"] is True and ping["reply"]["name"] == "my-bot", ping
        for slug in slugs:
            out = io.StringIO()
            call_command(
                "play", slug, f"{bot.url}#{secret}", "greedy", "random",
                seed=f"new-user-{slug}", time_ms=3000, stdout=out,
            )  # fmt: skip
            game = Game.objects.filter(engine=slug).latest("id")
            assert game.status == Game.Status.FINISHED, out.getvalue()
            moves = list(game.moves.order_by("ply"))
            assert [m.ply for m in moves] == list(range(len(moves))), "gaps in the move log"
            mine = game.seats.get(competitor__bot__endpoint_url=bot.url).position
            own = [m for m in moves if m.seat == mine]
            assert own, f"{slug}: the README bot never moved"
            assert all(m.source == "bot" and not m.fault_kind for m in own), [
                (m.ply, m.source, m.fault_kind, m.fault_detail) for m in own if m.fault_kind
            ]
            final = engines.replay(slug, 3, game.options, [(m.seat, m.action) for m in moves])
            assert final.is_over and final.outcome()["scores"] == game.outcome.scores

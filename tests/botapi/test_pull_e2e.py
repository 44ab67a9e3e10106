"""A pull bot plays a whole game against example push bots, over the REST API.

The pull bot is registered through the API in pull mode and runs in its own
thread: it long-polls ``/api/v1/bots/me/turns`` with its token and answers
each turn with ``POST /api/v1/games/{id}/moves`` (the greedy heuristic picks
the action), until the game is over. The push bots are SDK servers on
loopback; the referee runs eagerly, so each posted move carries the game on
to the pull bot's next turn.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from harbormaster_bot import Turn, serve_in_background
from harbormaster_bot.examples.greedy import greedy_bot
from harbormaster_bot.examples.random_bot import RandomBot
from rest_framework.test import APIClient

import engines
from games.models import Competitor, Game
from games.services import create_game
from tests.factories import BotFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
SECRET = "hms_pull-e2e"


class PullPlayer(threading.Thread):
    """The bot's program: poll, choose with the greedy heuristic, post, until told to stop."""

    def __init__(self, token: str, game_ready: threading.Event) -> None:
        super().__init__(name="pull-bot", daemon=True)
        self.token = token
        self.game_ready = game_ready
        self.stop = threading.Event()
        self.played: list[dict] = []
        self.errors: list[object] = []
        self.empty_polls = 0

    def run(self) -> None:
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Bot {self.token}")
        chooser = greedy_bot()
        self.game_ready.wait(30)
        try:
            while not self.stop.is_set():
                response = api.get("/api/v1/bots/me/turns", {"wait": 2})
                if response.status_code != 200:
                    self.errors.append(response.json())
                    return
                turns = response.json()
                if not turns:
                    self.empty_polls += 1
                    if not Game.objects.filter(status=Game.Status.RUNNING).exists():
                        return
                for turn in turns:
                    index = chooser.act(Turn(request=turn, answer_by=float("inf")))
                    body = {"ply": turn["ply"], "action_index": index,
                            "request_id": turn["request_id"]}  # fmt: skip
                    answer = api.post(f"/api/v1/games/{turn['game']['id']}/moves", body)
                    if answer.status_code != 201:
                        self.errors.append(answer.json())
                        return
                    self.played.append(turn)
        finally:
            connection.close()


@pytest.mark.parametrize("slug", ["manila", "grog_island"])
def test_a_pull_bot_plays_a_whole_game_against_push_bots(settings, slug) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.BOT_ENDPOINT_ALLOW = ["loopback"]
    api = APIClient()
    api.force_authenticate(UserFactory(password=None))
    registered = api.post(
        "/api/v1/bots/", {"name": "puller", "engines": [slug], "mode": "pull"}, format="json"
    ).json()
    token = registered["pull_token"]
    assert token
    servers = [serve_in_background(h, secret=SECRET) for h in (greedy_bot(slug), RandomBot(3))]
    ready = threading.Event()
    player = PullPlayer(token, ready)
    player.start()
    try:
        pushers = [BotFactory(endpoint_url=s.url, signing_secret=SECRET) for s in servers]
        puller = registered["competitor"]
        seats = [pushers[0].competitor, Competitor.objects.get(pk=puller), pushers[1].competitor]
        game = create_game(slug, seats, seed=f"pull-{slug}", move_time_ms=30_000)
        ready.set()
        player.join(timeout=120)
        assert not player.is_alive(), "the pull bot did not finish"
    finally:
        player.stop.set()
        for server in servers:
            server.stop()
    assert player.errors == []
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    moves = list(game.moves.order_by("ply"))
    assert [m.ply for m in moves] == list(range(len(moves)))
    pulled = [m for m in moves if m.seat == 1]
    assert len(pulled) == len(player.played) > 0
    assert all(m.source == "bot" and not m.fault_kind for m in pulled)
    assert [m.ply for m in pulled] == [t["ply"] for t in player.played]
    assert all(m.source in ("bot", "chance") and not m.fault_kind for m in moves)
    # Every event reached the pull bot exactly once, in order.
    final = engines.replay(slug, 3, game.options, [(m.seat, m.action) for m in moves])
    sent = [event for turn in player.played for event in turn["events"]]
    assert sent == final.events[: len(sent)]

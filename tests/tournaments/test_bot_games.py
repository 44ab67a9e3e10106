"""Whole games between example bots served over HTTP on loopback, refereed in-process.

(Real Celery workers and crash recovery are tested in test_workers.py.)
"""

from __future__ import annotations

import pytest
from harbormaster_bot import serve_in_background
from harbormaster_bot.examples.greedy import greedy_bot
from harbormaster_bot.examples.random_bot import RandomBot

import engines
from botapi.models import Bot
from games.models import Game, Seat
from games.referee import steps as referee
from games.services import create_game
from ratings.models import RatingChange
from tests.botapi.servers import MisbehavingServer
from tests.factories import BotFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]
SECRET = "hms_example-secret"


@pytest.fixture
def example_bots(serve_bots):
    """``example_bots(engine, n)``: a greedy bot and n-1 random bots on loopback."""

    def start(slug: str, count: int) -> list[Bot]:
        return serve_bots(slug, [greedy_bot(slug), *(RandomBot(seed=i) for i in range(1, count))])

    return start


@pytest.mark.parametrize("slug", ["manila", "batavia", "cargo_noir", "grog_island"])
def test_a_full_game_between_http_bots(slug, example_bots) -> None:
    n = min(4, engines.get(slug).max_players)
    bots = example_bots(slug, n)
    game = create_game(slug, [b.competitor for b in bots], seed=f"{slug}-seed", move_time_ms=3000)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, f"stopped at ply {game.next_ply}"
    moves = list(game.moves.order_by("ply"))
    assert [m.ply for m in moves] == list(range(len(moves)))
    assert {m.source for m in moves} == {"bot", "chance"}
    assert not [m for m in moves if m.fault_kind], "an example bot faulted"
    bot_moves = [m for m in moves if m.source == "bot"]
    assert all(m.latency_ms is not None and m.request_excerpt for m in bot_moves)
    final = engines.replay(slug, n, game.options, [(m.seat, m.action) for m in moves])
    assert final.is_over and final.outcome()["scores"] == game.outcome.scores
    assert RatingChange.objects.filter(game=game).count() == n * 3
    for bot in bots:
        bot.refresh_from_db()
        assert bot.consecutive_faulty_games == 0


def test_a_faulty_bot_gets_defaults_then_forfeits_and_ranks_last(example_bots) -> None:
    good = example_bots("manila", 2)
    broken = MisbehavingServer().start()
    try:
        bad = BotFactory(endpoint_url=broken.url("/garbage"), signing_secret=SECRET)
        game = create_game(
            "manila", [bad.competitor, *(b.competitor for b in good)], move_time_ms=2000
        )
    finally:
        broken.stop()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    seat = Seat.objects.get(game=game, position=0)
    assert seat.forfeited and seat.fault_count == 3
    faults = list(game.moves.filter(seat=0).exclude(fault_kind="").order_by("ply"))
    assert [m.fault_kind for m in faults[:3]] == ["invalid_json"] * 3
    assert all(m.source == "default" for m in faults)
    assert {m.fault_kind for m in faults[3:]} <= {"forfeited"}
    kinds = [r.json["kind"] for r in broken.received]
    assert kinds.count("act") == 3, "a forfeited bot is not asked again"
    assert kinds[0] == "start" and kinds[-1] == "finish"
    assert game.outcome.ranks[0] == 3
    bad.refresh_from_db()
    assert bad.consecutive_faulty_games == 1


def test_a_bot_sending_nul_gets_its_fault_stored(example_bots) -> None:
    """PostgreSQL text cannot hold NUL: the bot's reply is stored with U+FFFD instead."""
    good = example_bots("manila", 2)
    broken = MisbehavingServer().start()
    try:
        bad = BotFactory(endpoint_url=broken.url("/nul"), signing_secret=SECRET)
        game = create_game(
            "manila", [bad.competitor, *(b.competitor for b in good)], move_time_ms=2000
        )
    finally:
        broken.stop()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    fault = game.moves.filter(seat=0, fault_kind="invalid_json").first()
    assert fault is not None and "\ufffd" in fault.reply_excerpt


def test_a_pull_bot_is_waited_for() -> None:
    bots = [BotFactory(mode="pull", endpoint_url="") for _ in range(3)]
    game = create_game("manila", [b.competitor for b in bots])
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.next_ply > 0
    assert referee.advance(game.pk) == "waiting"


class Recorder:
    """A random bot that remembers every message kind it was sent, in order."""

    def __init__(self) -> None:
        self.inner = RandomBot(seed=5)
        self.kinds: list[str] = []
        self.finish_request: dict | None = None

    def start(self, request: dict) -> None:
        self.kinds.append("start")

    def act(self, turn):
        self.kinds.append("act")
        return self.inner.act(turn)

    def finish(self, request: dict) -> None:
        self.kinds.append("finish")
        self.finish_request = request


def test_push_bots_hear_start_first_and_finish_with_the_outcome(example_bots) -> None:
    others = example_bots("manila", 2)
    recorder = Recorder()
    server = serve_in_background(recorder, secret=SECRET, name="recorder")
    try:
        bot = BotFactory(endpoint_url=server.url, signing_secret=SECRET)
        game = create_game("manila", [bot.competitor, *(b.competitor for b in others)])
    finally:
        server.stop()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert recorder.kinds[0] == "start" and recorder.kinds[-1] == "finish"
    assert set(recorder.kinds[1:-1]) == {"act"}
    sent = recorder.finish_request
    assert sent["game"]["id"] == game.pk and sent["game"]["seat"] == 0
    assert sent["outcome"] == {"scores": game.outcome.scores, "ranks": game.outcome.ranks}

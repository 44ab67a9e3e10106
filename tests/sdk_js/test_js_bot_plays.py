"""The JavaScript random bot plays a game of each engine through ``manage.py play``.

``node sdk/js/bots/random.js`` is started as a bot author would start it, on
a free loopback port with a secret, and given to ``manage.py play`` by URL
(``http://127.0.0.1:PORT/#SECRET``) against the Python example bots. Every
game must finish with all of the JavaScript bot's decisions its own (no
fault, no default move) and no fault anywhere, and the bot must have been
told of the game's start and finish (its log says so).
"""

from __future__ import annotations

import io
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command

import engines
from games.models import Game
from tests.sdk_js.node import KIT, node_or_skip

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
SECRET = "js-kit-end-to-end"


@pytest.fixture
def js_bot(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The JS random bot's URL and its output; the process is stopped afterwards."""
    node = node_or_skip()
    log = tmp_path / "random-js.log"
    with log.open("w") as output:
        process = subprocess.Popen(
            [node, "bots/random.js", "--port", "0", "--secret", SECRET, "--seed", "20"],
            cwd=KIT,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        url = None
        for _ in range(200):
            found = re.search(r"listening on (http://\S+)", log.read_text())
            if found or process.poll() is not None:
                url = found and found[1]
                break
            time.sleep(0.05)
        assert url, f"the JS bot did not start:\n{log.read_text()}"
        yield url, log
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize("slug", [engine.slug for engine in engines.all_engines()])
def test_the_js_random_bot_plays_every_engine(js_bot: tuple[str, Path], slug: str) -> None:
    url, log = js_bot
    out = io.StringIO()
    call_command(
        "play", slug, f"{url}#{SECRET}", "greedy", "random",
        seed=f"js-kit-{slug}", time_ms=3000, stdout=out,
    )  # fmt: skip
    report = out.getvalue()
    game = Game.objects.filter(engine=slug).latest("id")
    assert game.status == Game.Status.FINISHED, report
    seat = game.seats.get(competitor__bot__endpoint_url=url)
    assert seat.competitor.bot.name == "random-js", "named after its ping reply"
    moves = list(game.moves.order_by("ply"))
    assert [m.ply for m in moves] == list(range(len(moves))), "gaps in the move log"
    faults = [(m.ply, m.seat, m.fault_kind, m.fault_detail) for m in moves if m.fault_kind]
    assert not faults, faults
    own = [m for m in moves if m.seat == seat.position]
    assert own, f"{slug}: the JS bot never moved"
    assert all(m.source == "bot" for m in own)
    assert not seat.forfeited and seat.fault_count == 0
    final = engines.replay(slug, 3, game.options, [(m.seat, m.action) for m in moves])
    assert final.is_over and final.outcome()["scores"] == game.outcome.scores
    told = [
        f"game {game.pk} of {slug} begins; I am seat {seat.position}",
        f"game {game.pk} over; my rank: {game.outcome.ranks[seat.position]}",
    ]
    assert all(line in log.read_text() for line in told), (told, log.read_text())

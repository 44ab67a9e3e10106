"""``bench.mix``'s background play: games between HTTP bots, played by the referee's workers.

    .venv/bin/python -m bench.mix_player --ids FILE [--live 6] [--think-ms 20]

Run by ``bench.mix`` with the server's environment (the copy's database, the
broker). It serves ``bench.mix_site``'s player bots (random example bots that
think ``--think-ms`` per move) on loopback ports, points their endpoints at
them, and keeps ``--live`` rated games of three of them running: each made by
``create_game`` and played by the Celery worker ``bench.mix`` starts, as
docker-compose's worker plays every game (the referee asks the bots over
HTTP, finishes the game, applies its ratings, bumps the page cache and tells
the live pages). It writes the running games' ids to ``--ids`` (one per line,
rewritten every half second: the mix's live game pages), and on SIGTERM prints
how many games finished and moves were played while it ran.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import threading
import time
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harbormaster.settings")
django.setup()

from harbormaster_bot import serve_in_background  # noqa: E402
from harbormaster_bot.examples.random_bot import RandomBot  # noqa: E402

from bench.mix_site import PLAYER, PLAYER_SECRET  # noqa: E402

ENGINES = ("manila", "batavia", "manila", "cargo_noir")
"""Shorter games more often (Manila about 140 bot moves at three players, Batavia 215)."""


class ThinkingBot:
    """A random bot that takes ``think_s`` over each move, as a bot that computes does."""

    def __init__(self, seed: int, think_s: float) -> None:
        self.inner = RandomBot(seed)
        self.think_s = think_s

    def act(self, turn) -> int:
        time.sleep(self.think_s)
        return self.inner.act(turn)


def _write(path: Path, ids: list[int]) -> None:
    partial = path.with_suffix(".partial")
    partial.write_text("".join(f"{pk}\n" for pk in ids))
    partial.replace(path)  # wrk's script never reads half a list


def main(argv: list[str] | None = None) -> None:
    from botapi.models import Bot
    from games.models import Game, Move
    from games.services import create_game

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ids", type=Path, required=True)
    parser.add_argument("--live", type=int, default=6, help="games kept running at once")
    parser.add_argument("--think-ms", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)

    bots = list(Bot.objects.filter(owner__username__startswith=f"{PLAYER}-"))
    servers = []
    for n, bot in enumerate(bots):
        server = serve_in_background(
            ThinkingBot(n, args.think_ms / 1000), secret=PLAYER_SECRET, name=bot.name
        )
        servers.append(server)
        Bot.objects.filter(pk=bot.pk).update(endpoint_url=server.url)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    rng = random.Random(args.seed)
    competitors = [bot.competitor for bot in Bot.objects.filter(pk__in=[b.pk for b in bots])]
    first = (Game.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
    began, made, running = time.monotonic(), 0, []
    try:
        while not stop.is_set():
            running = list(
                Game.objects.filter(pk__in=running, status=Game.Status.RUNNING).values_list(
                    "pk", flat=True
                )
            )
            while len(running) < args.live:
                game = create_game(
                    ENGINES[made % len(ENGINES)],
                    rng.sample(competitors, 3),
                    rated=True,
                    enforce_capacity=False,
                )
                running.append(game.pk)
                made += 1
            _write(args.ids, running)
            stop.wait(0.5)
    finally:
        elapsed = time.monotonic() - began
        played = Game.objects.filter(pk__gte=first)
        finished = played.filter(status=Game.Status.FINISHED).count()
        moves = Move.objects.filter(game__in=played, source=Move.Source.BOT).count()
        print(
            f"background play: {made} games started, {finished} finished, {moves} bot moves "
            f"in {elapsed:.0f} s ({moves / elapsed:.0f} bot moves/s, a game finished every "
            f"{elapsed / max(finished, 1):.1f} s)",
            flush=True,
        )
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()

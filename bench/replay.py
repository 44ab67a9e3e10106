"""The game page's board replay: the cost of one ``boards.json`` page, per engine.

    .venv/bin/python -m bench.replay [--seed 1]

For a whole seeded game of each engine (random legal moves, the minimum and
maximum player counts): its plies, and for the spectator and for seat 0 the
milliseconds to build the first and the last page of ``replay.MAX_PAGE``
positions (``tournaments.replay.replay_positions``: replaying the log and a
``board_model`` per position; no database, no HTTP) and the size of that page
as JSON. Not a test: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harbormaster.settings")

import django

django.setup()

import engines  # noqa: E402
from engines import CHANCE, Dealer  # noqa: E402
from tournaments.models import Move  # noqa: E402
from tournaments.replay import MAX_PAGE, replay_positions  # noqa: E402


def game_log(slug: str, players: int, seed: int) -> list[Move]:
    """The moves of a whole seeded game, as unsaved Move rows."""
    state = engines.get(slug).new_game(players)
    dealer, rng = Dealer(seed), random.Random(seed)
    moves = []
    while not state.is_over:
        mover = state.to_move[0]
        action = dealer.choose(state) if mover == CHANCE else rng.choice(state.legal_actions(mover))
        moves.append(Move(ply=len(moves), seat=mover, action=action))
        state.apply(mover, action)
    return moves


def page(slug: str, players: int, moves: list[Move], seat: int | None, start: int):
    began = time.perf_counter()
    total, positions = replay_positions(
        engines.get(slug).new_game(players),
        moves,
        seat,
        start,
        MAX_PAGE,
        public=True,
        names={i: f"Seat {i}" for i in range(players)},
        bot_seats=set(range(players)),
        strict=True,
    )
    elapsed = (time.perf_counter() - began) * 1000
    return elapsed, len(json.dumps(positions)), total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"page = {MAX_PAGE} positions; ms is the median of 3 builds")
    print(f"{'engine':12} {'pl':>2} {'plies':>5} {'viewer':>9} {'page':>5} {'ms':>7} {'KiB':>7}")
    for rules in engines.all_engines():
        for players in sorted({rules.min_players, rules.max_players}):
            moves = game_log(rules.slug, players, args.seed)
            last = (len(moves) // MAX_PAGE) * MAX_PAGE
            for seat in (None, 0):
                for start in (0, last):
                    runs = [page(rules.slug, players, moves, seat, start) for _ in range(3)]
                    ms = statistics.median(r[0] for r in runs)
                    size = runs[0][1] / 1024
                    who = "spectator" if seat is None else f"seat {seat}"
                    print(
                        f"{rules.slug:12} {players:>2} {len(moves):>5} {who:>9} "
                        f"{'first' if start == 0 else 'last':>5} {ms:7.1f} {size:7.1f}"
                    )


if __name__ == "__main__":
    main()

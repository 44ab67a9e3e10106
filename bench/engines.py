"""Random full games per second, per engine and player count, on one core.

    .venv/bin/python -m bench.engines [--seconds 3] [--engine manila] [--players 4]

Chance is drawn by ``Dealer`` and players pick uniformly at random, exactly as
the generic tests play; the figure is what tournaments and tree-searching bots
can expect from the bare rules. Prints a table; not a test.
"""

from __future__ import annotations

import argparse
import random
import time

import engines
from engines import CHANCE, Dealer


def play_random(engine: engines.Engine, num_players: int, seed: int) -> int:
    """Play one random game; return the number of steps (chance included)."""
    state = engine.new_game(num_players)
    dealer = Dealer(seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        seat = state.to_move[0]
        action = dealer.choose(state) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        steps += 1
    return steps


def measure(engine: engines.Engine, num_players: int, seconds: float) -> tuple[int, int, float]:
    """(games, steps, elapsed) over about ``seconds`` of play."""
    games = steps = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        steps += play_random(engine, num_players, seed=games)
        games += 1
    return games, steps, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per engine and count")
    parser.add_argument("--engine", action="append", help="slug (repeatable); default all")
    parser.add_argument("--players", type=int, action="append", help="player count(s)")
    args = parser.parse_args()
    chosen = [engines.get(s) for s in args.engine] if args.engine else engines.all_engines()
    print(f"{'engine':<12} {'players':>7} {'games/s':>9} {'steps/s':>10} {'steps/game':>10}")
    for engine in chosen:
        counts = args.players or range(engine.min_players, engine.max_players + 1)
        for n in counts:
            if not engine.min_players <= n <= engine.max_players:
                continue
            games, steps, elapsed = measure(engine, n, args.seconds)
            print(
                f"{engine.slug:<12} {n:>7} {games / elapsed:>9.1f} {steps / elapsed:>10.0f}"
                f" {steps / max(games, 1):>10.0f}"
            )


if __name__ == "__main__":
    main()

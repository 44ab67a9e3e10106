"""Random full games per second, per engine and player count, on one core.

    .venv/bin/python -m bench.engines [--seconds 3] [--engine manila] [--players 4]
        [--openspiel-game python_team_dominoes] [--no-openspiel] [--chance rng]
        [--openspiel-checked]

Chance is drawn by ``Dealer`` and players pick uniformly at random, exactly as
the generic tests play; the figure is what tournaments and tree-searching bots
can expect from the bare rules. ``Dealer`` hashes the seed with a key naming
each chance event (sha256: the referee's verifiable dice); OpenSpiel's side
draws one ``random.Random`` number per event instead. ``--chance rng`` draws
ours the same way as theirs (:func:`rng_choice`), so that both sides pay the
same for sampling and the ratio compares the rules alone; ``--openspiel-
checked`` makes OpenSpiel check each action's legality, as our ``apply``
always does. Time is the process's CPU time, not the wall clock, so that other
work on a shared machine does not count against the engines (it still slows
them a little through shared caches: compare figures of the same run). When
OpenSpiel is installed (the optional ``bench`` extra) the same run times its
Python-implemented games the same way (:mod:`bench.openspiel_games`) and
prints each engine's steps/s as a multiple of each of theirs (issue #17's
yardstick). Prints a table; not a test.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import engines
from engines import CHANCE, Dealer

from . import openspiel_games


def rng_choice(state: engines.State, rng: random.Random) -> engines.Action:
    """A chance outcome drawn as ``bench.openspiel_games`` draws OpenSpiel's: one uniform number."""
    outcomes = state.chance_outcomes()
    u = rng.random()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if u < total:
            return action
    return outcomes[-1][0]


def play_random(engine: engines.Engine, num_players: int, seed: int, chance: str = "dealer") -> int:
    """Play one random game; return the number of steps (chance included).

    ``chance`` is ``"dealer"`` (the referee's ``Dealer``) or ``"rng"`` (:func:`rng_choice`).
    """
    state = engine.new_game(num_players)
    dealer = Dealer(seed)
    rng = random.Random(seed)
    by_rng = chance == "rng"
    steps = 0
    while not state.is_over:
        seat = state.to_move[0]
        if seat != CHANCE:
            action = rng.choice(state.legal_actions(seat))
        elif by_rng:
            action = rng_choice(state, rng)
        else:
            action = dealer.choose(state)
        state.apply(seat, action)
        steps += 1
    return steps


def measure_games(play: Callable[[int], int], seconds: float) -> tuple[int, int, float]:
    """(games, steps, CPU seconds) of ``play(seed)`` for seeds 0, 1, ... over about ``seconds``."""
    games = steps = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        steps += play(games)
        games += 1
    return games, steps, elapsed


def measure(
    engine: engines.Engine, num_players: int, seconds: float, chance: str = "dealer"
) -> tuple[int, int, float]:
    """(games, steps, CPU seconds) of random games of ``engine`` over about ``seconds``."""
    return measure_games(lambda seed: play_random(engine, num_players, seed, chance), seconds)


def _row(name: str, players: int | str, games: int, steps: int, elapsed: float) -> str:
    return (
        f"{name:<22} {players:>7} {games / elapsed:>9.1f} {steps / elapsed:>10.0f}"
        f" {steps / max(games, 1):>10.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per engine and count")
    parser.add_argument("--engine", action="append", help="slug (repeatable); default all")
    parser.add_argument("--players", type=int, action="append", help="player count(s)")
    parser.add_argument(
        "--openspiel-game",
        action="append",
        help="OpenSpiel Python game (repeatable); default "
        + ", ".join(openspiel_games.DEFAULT_GAMES),
    )
    parser.add_argument("--no-openspiel", action="store_true", help="skip OpenSpiel's games")
    parser.add_argument(
        "--openspiel-checked",
        action="store_true",
        help="OpenSpiel checks each action's legality, as our apply does (default: it does not)",
    )
    parser.add_argument(
        "--chance",
        choices=("dealer", "rng"),
        default="dealer",
        help="draw our chance events with Dealer (sha256, default) or as OpenSpiel's side does",
    )
    args = parser.parse_args()
    chosen = [engines.get(s) for s in args.engine] if args.engine else engines.all_engines()
    print(f"{'engine':<22} {'players':>7} {'games/s':>9} {'steps/s':>10} {'steps/game':>10}")
    ours: list[tuple[str, float]] = []
    for engine in chosen:
        counts = args.players or range(engine.min_players, engine.max_players + 1)
        for n in counts:
            if not engine.min_players <= n <= engine.max_players:
                continue
            games, steps, elapsed = measure(engine, n, args.seconds, args.chance)
            print(_row(engine.slug, n, games, steps, elapsed), flush=True)
            ours.append((f"{engine.slug} {n}p", steps / elapsed))
    if args.no_openspiel:
        return
    missing = openspiel_games.available()
    if missing:
        print(f"OpenSpiel: {missing}")
        return
    theirs: list[tuple[str, float]] = []
    for name in args.openspiel_game or openspiel_games.DEFAULT_GAMES:
        game = openspiel_games.load(name)
        games, steps, elapsed = measure_games(
            lambda seed, game=game: openspiel_games.play_random(game, seed, args.openspiel_checked),
            args.seconds,
        )
        print(_row(name, game.num_players(), games, steps, elapsed), flush=True)
        theirs.append((name, steps / elapsed))
    _print_ratios(ours, theirs)


def _print_ratios(ours: list[tuple[str, float]], theirs: list[tuple[str, float]]) -> None:
    """Each engine's steps/s as a multiple of each OpenSpiel game's (2.0 = twice as fast)."""
    if not ours or not theirs:
        return
    short = [name.removeprefix("python_") for name, _ in theirs]
    print("\nsteps/s as a multiple of OpenSpiel's Python games (same run, same method):")
    print(f"{'':<22} " + " ".join(f"{name:>14}" for name in short))
    for name, rate in ours:
        print(f"{name:<22} " + " ".join(f"{rate / other:>13.2f}x" for _, other in theirs))


if __name__ == "__main__":
    main()

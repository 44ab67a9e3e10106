"""Arena matchmaking: how fast a pass is, and how fast arena play sorts bots by strength.

    .venv/bin/python -m bench.arena [--games 300] [--runs 8] [--engine manila] [--skip-speed]

1. **Speed.** Milliseconds per ``tournaments.formats.matchmaking.match`` pass over
   100, 1,000 and 10,000 candidates (ratings spread like a league's
   TrueSkill mu, half as many owners as bots so the owner rule bites, mixed
   waiting times), the median of a few passes, and how the time grows per
   tenfold.
2. **Which engine.** For every engine: milliseconds per in-process game of
   one greedy example bot against random ones, and the greedy bot's win
   rate. The convergence runs use the fastest engine whose greedy bot wins
   at least ``CLEAR_WIN`` of its games (``--engine`` overrides).
3. **Convergence.** Eight bots of known, graded strength: the greedy bot
   that plays a uniformly random legal action with probability p = 0, 0.15,
   0.3, 0.45, 0.6, 0.75, 0.9, 1 (the last is the random bot), so the true
   order is by p. They play in-process (the engine API and the bots' ``act``,
   as in ``bench.bots``: no HTTP, no database) in passes, every bot free in
   every pass, tables of 4: once seated by the arena (``match`` on their
   TrueSkill mu) and once at random tables, the same number of games, game
   ``g`` of both on the same deal seed. TrueSkill (``ratings.systems``) is
   fed every result. Printed: Kendall's tau between the leaderboard order
   (mu - 3 sigma) and the true order after every 50 games (mean over the
   runs), and per run the games each needed to reach tau >= 0.9 first, and
   to stay there for the rest of the run.

Not a test: nothing here asserts a speed or a result.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from harbormaster_bot import Turn
from harbormaster_bot.examples.greedy import CHOOSERS, greedy_bot
from harbormaster_bot.examples.random_bot import RandomBot

import engines
from bench.bots import play_game
from ratings.systems import TRUESKILL_DEFAULTS, conservative_score, trueskill_rate
from tournaments.formats.matchmaking import Candidate, match
from tournaments.formats.sizes import table_sizes

SIZES = (100, 1_000, 10_000)
NOISE = (0.0, 0.15, 0.3, 0.45, 0.6, 0.75, 0.9, 1.0)
"""Probability of a random action per bot; the true order is this order."""
TABLE, MIN_TABLE = 4, 3
CLEAR_WIN = 0.95
"""A greedy bot 'beats random clearly' when it wins this share of 4-seat games (random: 1/4)."""
TARGET_TAU = 0.9
REPORT_EVERY = 50


# ---------------------------------------------------------------- 1. speed


def candidates(count: int, seed: int) -> list[Candidate]:
    """A league-like pool: mu around 25, half as many owners as bots, a few sharing."""
    rng = random.Random(seed)
    return [
        Candidate(
            key=key,
            rating=rng.gauss(25.0, 8.0),
            owner=rng.randrange(max(1, count // 2)),
            waiting=rng.uniform(0, 30),
            games_played=rng.randrange(100),
            capacity=1,
            shares=rng.random() < 0.1,
        )
        for key in range(count)
    ]


def pass_speed(repeats: int = 7) -> None:
    print(f"1. matchmaking pass (tables of {TABLE}, smallest {MIN_TABLE}), best and median of "
          f"{repeats}, CPU time (wall time suffers on a busy machine)")  # fmt: skip
    print(f"{'candidates':>10} {'best ms':>8} {'median ms':>10} {'wall ms':>8} {'us/cand.':>9} "
          f"{'tables':>7} {'seated':>7} {'growth':>7}")  # fmt: skip
    previous = None
    for count in SIZES:
        pool = candidates(count, seed=count)
        cpu, wall, tables = [], [], []
        for n in range(repeats):
            started, started_wall = time.process_time(), time.perf_counter()
            tables = match(pool, TABLE, MIN_TABLE, f"bench-{n}")
            cpu.append(time.process_time() - started)
            wall.append(time.perf_counter() - started_wall)
        best, ms = 1000 * min(cpu), 1000 * statistics.median(cpu)
        growth = f"x{best / previous:.1f}" if previous else ""
        seated = sum(len(t) for t in tables)
        print(f"{count:>10,} {best:>8.2f} {ms:>10.2f} {1000 * statistics.median(wall):>8.2f} "
              f"{1000 * best / count:>9.2f} {len(tables):>7} {seated:>7} {growth:>7}",
              flush=True)  # fmt: skip
        previous = best
    print("   (growth: best time of this size / of the size before, for ten times the bots)")


def measure_arena(count: int, options):  # (int, bench.pairing.Options) -> bench.pairing.Timing
    """One pass over ``count`` waiting bots, for ``bench.pairing``'s MEASUREMENTS table.

    Median CPU time of ``options.runs`` passes, tables of ``options.table_size``.
    """
    from bench.pairing import Timing

    pool = candidates(count, seed=options.seed)
    low = max(2, options.table_size - 1)
    times, tables = [], []
    for n in range(options.runs):
        started = time.process_time()
        tables = match(pool, options.table_size, low, f"{options.seed}-{n}")
        times.append(time.process_time() - started)
    seated = sum(len(t) for t in tables)
    return Timing(1000 * statistics.median(times), f"{len(tables)} tables, {seated} seated")


# ---------------------------------------------------------------- 2. engine


class NoisyGreedy:
    """The greedy example bot, except that with probability ``p`` it plays a random action."""

    def __init__(self, engine: str, p: float, seed: int) -> None:
        self.greedy = greedy_bot(engine)
        self.p = p
        self.rng = random.Random(seed)

    def act(self, turn: Turn) -> int:
        if self.rng.random() < self.p:
            return self.rng.randrange(len(turn.legal_actions))
        return self.greedy.act(turn)


@dataclass
class EngineFigures:
    slug: str
    ms_per_game: float
    greedy_win_rate: float


def measure_engines(games: int = 40) -> list[EngineFigures]:
    """Greedy against three random bots, four seats, the greedy seat rotating."""
    figures = []
    for engine in engines.all_engines():
        if engine.slug not in CHOOSERS:
            continue
        players = max(engine.min_players, min(engine.max_players, TABLE))
        wins, started = 0, time.process_time()
        for index in range(games):
            seat = index % players
            bots = [
                greedy_bot(engine.slug) if s == seat else RandomBot(seed=index * 7 + s)
                for s in range(players)
            ]
            wins += play_game(engine.slug, bots, seed=index).ranks[seat] == 1
        ms = 1000 * (time.process_time() - started) / games
        figures.append(EngineFigures(engine.slug, ms, wins / games))
    return figures


def choose_engine(figures: Sequence[EngineFigures]) -> str:
    clear = [f for f in figures if f.greedy_win_rate >= CLEAR_WIN]
    return min(clear or figures, key=lambda f: f.ms_per_game).slug


# ---------------------------------------------------------------- 3. convergence


def kendall_tau(scores: Sequence[float], truth: Sequence[float]) -> float:
    """Kendall's tau-b between two orders given as scores (higher is better); 0 if undefined."""
    concordant = discordant = tied_a = tied_b = 0
    for i in range(len(scores)):
        for j in range(i + 1, len(scores)):
            a = scores[i] - scores[j]
            b = truth[i] - truth[j]
            if a == 0 and b == 0:
                continue
            if a == 0:
                tied_a += 1
            elif b == 0:
                tied_b += 1
            elif (a > 0) == (b > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((concordant + discordant + tied_a) * (concordant + discordant + tied_b))
    return (concordant - discordant) / denominator if denominator else 0.0


Seating = Callable[
    [list[tuple[float, float]], list[int], random.Random, int], list[tuple[int, ...]]
]


def arena_tables(ratings, played, rng, pass_no) -> list[tuple[int, ...]]:
    """The arena's pass: every bot free, rating = TrueSkill mu, fewest games seed first."""
    pool = [
        Candidate(key=i, rating=mu, owner=i, games_played=played[i])
        for i, (mu, _sigma) in enumerate(ratings)
    ]
    return match(pool, TABLE, MIN_TABLE, f"{rng.random()}:{pass_no}")


def random_tables(ratings, played, rng, pass_no) -> list[tuple[int, ...]]:
    """Random tables of the same sizes as the arena would make."""
    keys = list(range(len(ratings)))
    rng.shuffle(keys)
    sizes, _ = table_sizes(len(keys), TABLE, MIN_TABLE)
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(keys[start : start + size]))
        start += size
    return tables


@dataclass
class Run:
    """One mode's run: tau after every game."""

    taus: list[float] = field(default_factory=list)

    def first_reach(self) -> int | None:
        return next((g + 1 for g, tau in enumerate(self.taus) if tau >= TARGET_TAU), None)

    def stays_from(self) -> int | None:
        """Games after which tau never fell below the target again in this run."""
        for g in range(len(self.taus) - 1, -1, -1):
            if self.taus[g] < TARGET_TAU:
                return g + 2 if g + 1 < len(self.taus) else None
        return 1


def converge(slug: str, seating: Seating, games: int, run_seed: int) -> Run:
    rng = random.Random(f"{run_seed}:{seating.__name__}")
    bots = [NoisyGreedy(slug, p, seed=run_seed * 100 + i) for i, p in enumerate(NOISE)]
    truth = [-p for p in NOISE]
    ratings = [(TRUESKILL_DEFAULTS["mu"], TRUESKILL_DEFAULTS["sigma"])] * len(bots)
    played = [0] * len(bots)
    run, game_no, pass_no = Run(), 0, 0
    while game_no < games:
        for table in seating(ratings, played, rng, pass_no):
            if game_no >= games:
                break
            result = play_game(slug, [bots[i] for i in table], seed=run_seed * 100_000 + game_no)
            new = trueskill_rate([ratings[i] for i in table], result.ranks)
            for i, rating in zip(table, new, strict=True):
                ratings[i] = rating
                played[i] += 1
            game_no += 1
            run.taus.append(kendall_tau([conservative_score(r) for r in ratings], truth))
        pass_no += 1
    return run


def convergence(slug: str, games: int, runs: int) -> None:
    print(f"\n3. ratings convergence on {slug}: {len(NOISE)} bots, random action with p = "
          f"{', '.join(f'{p:g}' for p in NOISE)}; tables of {TABLE}; {games} games per mode "
          f"and run, {runs} runs")  # fmt: skip
    results: dict[str, list[Run]] = {"arena": [], "random": []}
    started = time.perf_counter()
    for run_seed in range(runs):
        results["arena"].append(converge(slug, arena_tables, games, run_seed))
        results["random"].append(converge(slug, random_tables, games, run_seed))
        print(f"   run {run_seed + 1}/{runs} done ({time.perf_counter() - started:.0f} s)",
              flush=True)  # fmt: skip
    print(f"\n{'games':>6} {'arena tau':>10} {'random tau':>11}   (mean over the runs)")
    for g in range(REPORT_EVERY, games + 1, REPORT_EVERY):
        arena_tau = statistics.mean(run.taus[g - 1] for run in results["arena"])
        random_tau = statistics.mean(run.taus[g - 1] for run in results["random"])
        print(f"{g:>6} {arena_tau:>10.3f} {random_tau:>11.3f}")
    print(f"\ngames to reach tau >= {TARGET_TAU} (first time / for good), per run:")
    for mode, runs_of_mode in results.items():
        first = [run.first_reach() for run in runs_of_mode]
        good = [run.stays_from() for run in runs_of_mode]
        print(f"   {mode:<7} first: {_list(first)}   median {_median(first)}")
        print(f"   {'':<7} good:  {_list(good)}   median {_median(good)}")
    print("   (- : not within the run)")


def _list(values: list[int | None]) -> str:
    return " ".join(f"{v:>5}" if v is not None else "    -" for v in values)


def _median(values: list[int | None]) -> str:
    """Median counting a miss as later than any hit; '-' when that median is a miss."""
    ordered = sorted(values, key=lambda v: math.inf if v is None else v)
    middle = ordered[(len(ordered) - 1) // 2] if ordered else None
    return "-" if middle is None else str(middle)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per mode and run")
    parser.add_argument("--runs", type=int, default=8, help="independent runs per mode")
    parser.add_argument("--engine", help="engine slug (default: chosen by measurement)")
    parser.add_argument("--skip-speed", action="store_true", help="skip the pass timings")
    args = parser.parse_args(argv)
    if not args.skip_speed:
        pass_speed()
    slug = args.engine
    if slug is None:
        print("\n2. engines: one greedy bot against random ones, in-process")
        print(f"{'engine':<12} {'CPU ms/game':>12} {'greedy wins':>12}")
        figures = measure_engines()
        for f in figures:
            print(f"{f.slug:<12} {f.ms_per_game:>12.1f} {f.greedy_win_rate:>11.0%}")
        slug = choose_engine(figures)
        print(f"   -> {slug}: the fastest whose greedy bot wins >= {CLEAR_WIN:.0%}")
    convergence(slug, args.games, args.runs)


if __name__ == "__main__":
    main()

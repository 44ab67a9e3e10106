"""Fairness of the formats: who meets whom, who sits where, and what duplicate play buys.

    .venv/bin/python -m bench.fairness [--entrants 16] [--table-size 4] [--games 600] [--noise 0.25]

(a) A round robin of ``--entrants`` in tables of ``--table-size`` (16 in 4:
the affine plane AG(2, 4), 5 rounds) played out with
``tournaments.formats.round_robin``: the pair-meeting matrix, a histogram of
how often each pair met (min/max), and each entrant's seat counts per
position. Then the same summary for fields the designs do not cover (the
local search): 16 with a withdrawal after round 2, 20 in 4, 12 in 3, 13 in 4.

(b) Duplicate against ordinary play in Manila, 3 players, played in-process
as ``bench.bots`` does: the greedy example bot against two random bots (the
match-up the issue names), then against two greedy bots that play a random
action ``--noise`` of the time (a closer match, where luck weighs more).
Ordinary: ``--games`` games, each on a fresh deal, the greedy bot's seat
rotating with the game (as balanced seating would give it). Duplicate: the
same number of games as sets of three, each deal played in all three seat
rotations (``formats.duplicate.rotations``, one ``deal_key`` per set). For
both, the score difference greedy minus its opponents' mean: its mean, the
variance per game, and the variance of the event's mean difference (per
game / games for ordinary, per set / sets for duplicate); their ratio (with
a bootstrap interval) says how many times fewer games duplicate needs for
the same precision, and the correlation of the differences within a set
says why: duplicate gains only when a deal favours seats, not players.
Defaults take about a minute of CPU (two on a busy machine). Not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from harbormaster_bot import Turn
from harbormaster_bot.examples.greedy import greedy_bot
from harbormaster_bot.examples.random_bot import RandomBot

from bench.bots import play_game
from tournaments.formats import Bye, Entrant, History, Result, Settings, duplicate, round_robin

ENGINE = "manila"
PLAYERS = 3


# --------------------------------------------------------------------- (a) round robin


def play_round_robin(
    n: int, k: int, smallest: int, withdraw_after: int | None = None, seed: str = "fairness"
) -> tuple[History, list[int], float]:
    """Play a round robin to its end: (history, keys still active, seconds spent pairing)."""
    active = [Entrant(key=i, seed=i + 1) for i in range(n)]
    config = Settings(table_size=k, min_table_size=smallest)
    history = History()
    spent = 0.0
    for number in range(1, 100):
        if withdraw_after is not None and number == withdraw_after + 1:
            active = active[1:]  # entrant 0 withdraws
        started = time.perf_counter()
        rnd = round_robin.next_round(active, history, config, number, seed)
        spent += time.perf_counter() - started
        if rnd is None:
            break
        results = tuple(
            Result(number, t.seats, tuple(range(1, len(t.seats) + 1)), (0.0,) * len(t.seats))
            for t in rnd.tables
        )
        byes = tuple(Bye(number, key) for key in rnd.byes)
        history = History(history.results + results, history.byes + byes)
    return history, [e.key for e in active], spent


def meeting_counts(history: History, keys: list[int]) -> dict[frozenset[int], int]:
    met: Counter[frozenset[int]] = Counter()
    for result in history.results:
        for a, b in combinations(result.seats, 2):
            met[frozenset((a, b))] += 1
    return {frozenset(p): met[frozenset(p)] for p in combinations(keys, 2)}


def seat_table(history: History, keys: list[int], k: int) -> dict[int, list[int]]:
    counts = {key: [0] * k for key in keys}
    for result in history.results:
        for position, key in enumerate(result.seats):
            if key in counts:
                counts[key][position] += 1
    return counts


def report_round_robin(n: int, k: int, smallest: int, full: bool, withdraw_after=None) -> None:
    history, keys, spent = play_round_robin(n, k, smallest, withdraw_after)
    rounds = len({r.round for r in history.results})
    met = meeting_counts(history, keys)
    histogram = Counter(met.values())
    seats = seat_table(history, keys, k)
    spreads = [max(c) - min(c) for c in seats.values()]
    title = f"{n} entrants in tables of {k} (smallest {smallest})"
    if withdraw_after is not None:
        title += f", one withdraws after round {withdraw_after}"
    print(f"\n{title}: {rounds} rounds, pairing {1000 * spent:.0f} ms in all")
    print(
        "  pairs by meetings: "
        + ", ".join(f"{times}x: {count}" for times, count in sorted(histogram.items()))
        + f"   (min {min(met.values())}, max {max(met.values())}, {len(met)} pairs)"
    )
    print(
        "  seat spread (most - least used seat) per entrant: "
        + ", ".join(f"{s}: {c}" for s, c in sorted(Counter(spreads).items()))
    )
    if not full:
        return
    print("  pair-meeting matrix:")
    print("       " + "".join(f"{key:>3}" for key in keys))
    for a in keys:
        row = "".join("  ." if a == b else f"{met[frozenset((a, b))]:>3}" for b in keys)
        print(f"    {a:>3}{row}")
    print("  seat counts per entrant (seat 1 moves first):")
    print("    entrant " + "".join(f"{'seat ' + str(p + 1):>8}" for p in range(k)))
    for key in keys:
        print(f"    {key:>7} " + "".join(f"{c:>8}" for c in seats[key]))


# --------------------------------------------------------------------- (b) duplicate


class NoisyGreedy:
    """The greedy example bot that plays a uniformly random action with probability ``noise``."""

    def __init__(self, noise: float, seed: int) -> None:
        self.greedy = greedy_bot(ENGINE)
        self.random = RandomBot(seed=seed)
        self.noise = noise
        self.rng = random.Random(seed)

    def act(self, turn: Turn) -> int:
        if self.rng.random() < self.noise:
            return self.random.act(turn)
        return self.greedy.act(turn)


def score_difference(scores: list[float], greedy_seat: int) -> float:
    """The greedy bot's score minus the mean of its opponents' scores."""
    others = [s for seat, s in enumerate(scores) if seat != greedy_seat]
    return scores[greedy_seat] - sum(others) / len(others)


def play(order: Sequence[str], deal: str, salt: int, noise: float) -> float:
    """One game, seats in ``order`` ("G" the greedy bot, others opponents): greedy's difference."""
    bots = [
        greedy_bot(ENGINE)
        if who == "G"
        else (RandomBot(seed=salt * 7 + i) if noise >= 1 else NoisyGreedy(noise, salt * 7 + i))
        for i, who in enumerate(order)
    ]
    result = play_game(ENGINE, bots, seed=deal)
    return score_difference([float(s) for s in result.scores], list(order).index("G"))


TABLE = ("G", "O1", "O2")


def ordinary(games: int, noise: float) -> list[float]:
    """Fresh deal each game, the greedy seat rotating with the game number."""
    orders = duplicate.rotations(TABLE)
    return [play(orders[g % PLAYERS], f"ordinary-{g}", g, noise) for g in range(games)]


def duplicate_sets(sets: int, noise: float) -> list[list[float]]:
    """Each deal played in every rotation of the seats: one list of differences per set."""
    out = []
    for s in range(sets):
        deal = f"duplicate-{duplicate.deal_key(1, s + 1)}"
        out.append(
            [
                play(order, deal, 100_000 + s * PLAYERS + j, noise)
                for j, order in enumerate(duplicate.rotations(TABLE))
            ]
        )
    return out


def bootstrap_ratio(
    plain: list[float], set_means: list[float], draws: int = 1000
) -> tuple[float, float]:
    """A 90% bootstrap interval of (var of the ordinary mean) / (var of the duplicate mean)."""
    rng = random.Random(0)
    games, sets = len(plain), len(set_means)
    ratios = []
    for _ in range(draws):
        a = [plain[rng.randrange(games)] for _ in range(games)]
        b = [set_means[rng.randrange(sets)] for _ in range(sets)]
        ratios.append((statistics.variance(a) / games) / (statistics.variance(b) / sets))
    ratios.sort()
    return ratios[int(0.05 * draws)], ratios[int(0.95 * draws)]


def report_duplicate(games: int, noise: float) -> None:
    sets = games // PLAYERS
    games = sets * PLAYERS
    against = "two random bots" if noise >= 1 else f"two greedy bots playing {noise:.0%} at random"
    print(
        f"\n  greedy against {against}: {games} ordinary games, {sets} duplicate sets of {PLAYERS}"
    )
    started = time.perf_counter()
    plain = ordinary(games, noise)
    dup = duplicate_sets(sets, noise)
    elapsed = time.perf_counter() - started
    set_means = [sum(s) / len(s) for s in dup]
    flat = [d for s in dup for d in s]
    plain_var = statistics.variance(plain)
    game_var = statistics.variance(flat)
    set_var = statistics.variance(set_means)
    plain_mean_var = plain_var / games
    dup_mean_var = set_var / sets
    # Var(set mean) = v/3 * (1 + 2r) for games of a set with variance v and correlation r.
    correlation = (set_var * PLAYERS / game_var - 1) / (PLAYERS - 1)
    print(f"    {'':<26}{'mean diff':>10}{'var/game':>10}{'var/set':>10}{'var of mean':>13}")
    print(
        f"    {'ordinary (fresh deals)':<26}{statistics.mean(plain):>10.2f}{plain_var:>10.1f}"
        f"{'':>10}{plain_mean_var:>13.4f}"
    )
    print(
        f"    {'duplicate (rotated sets)':<26}{statistics.mean(flat):>10.2f}"
        f"{game_var:>10.1f}{set_var:>10.1f}{dup_mean_var:>13.4f}"
    )
    low, high = bootstrap_ratio(plain, set_means)
    print(
        f"    variance of the mean, ordinary / duplicate: {plain_mean_var / dup_mean_var:.2f}"
        f" (90% bootstrap interval {low:.2f}-{high:.2f}; above 1: duplicate needs that many"
        f" times fewer games)"
    )
    print(
        f"    correlation of the differences within a set: {correlation:+.2f}"
        f"  ({2 * games} games in {elapsed:.0f} s)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=16)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument(
        "--games", type=int, default=600, help="games per mode and match-up (0: skip (b))"
    )
    parser.add_argument(
        "--noise", type=float, default=0.25, help="random-action share of the closer opponents"
    )
    args = parser.parse_args(argv)
    k = args.table_size
    print(f"(a) round robin of {args.entrants} in tables of {k}")
    report_round_robin(args.entrants, k, k, full=True)
    print("\nlocal search (no design fits):")
    report_round_robin(16, 4, 3, full=False, withdraw_after=2)
    report_round_robin(20, 4, 4, full=False)
    report_round_robin(12, 3, 3, full=False)
    report_round_robin(13, 4, 4, full=False)
    if args.games:
        print(f"\n(b) duplicate against ordinary play, {ENGINE}, {PLAYERS} players")
        report_duplicate(args.games, noise=1.0)
        report_duplicate(args.games, noise=args.noise)


if __name__ == "__main__":
    main()

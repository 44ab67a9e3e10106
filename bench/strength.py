"""How strong is the search example bot? It against two greedy bots, in duplicate sets.

    .venv/bin/python -m bench.strength [--engine manila ...] [--deals 20] [--budgets 0,8,32]
        [--first-deal 0] [--players 3] [--cpu-seconds S]

Per engine and per budget (rollouts per decision), one search bot
(``harbormaster_bot.examples.search``) sits at a table of greedy bots
(``harbormaster_bot.examples.greedy``). Every deal (a game seed: chance is
``engines.Dealer(seed)``) is played once in every seat rotation, the search
bot in seat 0, then 1, then 2 ("duplicate" sets), so a deal that favours a
seat favours the search bot exactly as often as each greedy bot. Both
budgets play the same deals. Every decision is the act request the referee
would build (``bench.bots.play_game``), handed to the bot's ``act`` in
process, without HTTP or a clock, so the results are the same on any machine.

Printed per engine and budget: games, the search bot's wins (rank 1, shared
ranks included) with the 95% Wilson interval of the win rate, its mean rank
with a 95% bootstrap interval over the deals (a deal's rotations are not
independent of each other; the deals are), the greedy bots' mean rank, and
the search bot's think time per decision (mean and worst, wall and CPU).
Then, per engine, each budget against the next smaller one on the same
deals: the difference in wins per deal with its bootstrap interval. Budget 0
is the greedy bot itself (the search's first candidate), a check of the
method: three identical players make the same game in every rotation, so it
wins exactly a third of the games at a mean rank of 2.00 (more wins only
where first place is shared). By chance, one
seat of three wins a third of the games at a mean rank of 2.00. Not a test.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from harbormaster_bot import Turn
from harbormaster_bot.examples.greedy import greedy_bot
from harbormaster_bot.examples.search import SearchBot

import engines
from bench.bots import play_game, wilson_interval

ENGINES = ("manila", "batavia", "cargo_noir", "grog_island")
BOOTSTRAP_RESAMPLES = 2000


@dataclass
class Line:
    """One engine and budget: the search bot's results, deal by deal."""

    slug: str
    budget: int
    players: int
    wins_by_deal: dict[int, float] = field(default_factory=dict)
    ranks_by_deal: dict[int, list[int]] = field(default_factory=dict)
    greedy_ranks: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    cpu_seconds: list[float] = field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(len(ranks) for ranks in self.ranks_by_deal.values())

    @property
    def wins(self) -> int:
        return sum(r == 1 for ranks in self.ranks_by_deal.values() for r in ranks)

    @property
    def ranks(self) -> list[int]:
        return [r for ranks in self.ranks_by_deal.values() for r in ranks]


class TimedBot:
    """Wraps a bot to record the wall and CPU time of each of its decisions."""

    def __init__(self, bot: SearchBot, line: Line) -> None:
        self.bot = bot
        self.line = line

    def act(self, turn: Turn) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        answer = self.bot.act(turn)
        self.line.seconds.append(time.perf_counter() - wall)
        self.line.cpu_seconds.append(time.process_time() - cpu)
        return answer


def bootstrap_interval(
    values: Sequence[float], seed: int = 0, resamples: int = BOOTSTRAP_RESAMPLES
) -> tuple[float, float]:
    """The 95% percentile-bootstrap interval of the mean of ``values`` (seeded)."""
    if len(values) < 2:
        return float("-inf"), float("inf")
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(rng.choices(values, k=n)) / n for _ in range(resamples))
    return means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def play_line(
    slug: str, budget: int, deals: range, players: int, cpu_seconds: float | None
) -> Line:
    """Every deal of ``deals`` in every seat rotation, the search bot at ``budget``."""
    line = Line(slug, budget, players)
    for deal in deals:
        ranks = []
        for seat in range(players):
            search = TimedBot(
                SearchBot(seed=deal, iterations=budget, cpu_seconds=cpu_seconds), line
            )
            bots = [search if s == seat else greedy_bot(slug) for s in range(players)]
            result = play_game(slug, bots, seed=deal)
            ranks.append(result.ranks[seat])
            line.greedy_ranks.extend(r for s, r in enumerate(result.ranks) if s != seat)
        line.ranks_by_deal[deal] = ranks
        line.wins_by_deal[deal] = sum(r == 1 for r in ranks)
    return line


def describe(line: Line) -> str:
    """One row of the table, in Markdown."""
    low, high = wilson_interval(line.wins, line.games)
    per_deal = [statistics.fmean(r) for r in line.ranks_by_deal.values()]
    rank_low, rank_high = bootstrap_interval(per_deal)
    ms = [1000 * s for s in line.seconds] or [0.0]
    cpu = [1000 * s for s in line.cpu_seconds] or [0.0]
    return (
        f"| {line.slug} | {line.budget} | {line.games} | {line.wins} "
        f"({line.wins / max(line.games, 1):.0%}; {low:.0%}-{high:.0%}) "
        f"| {statistics.fmean(line.ranks):.2f} ({rank_low:.2f}-{rank_high:.2f}) "
        f"| {statistics.fmean(line.greedy_ranks):.2f} "
        f"| {statistics.fmean(ms):.0f} / {max(ms):.0f} | {statistics.fmean(cpu):.0f} |"
    )


def compare(small: Line, large: Line) -> str:
    """The larger budget's extra wins per deal over the smaller one, same deals."""
    deals = sorted(small.wins_by_deal.keys() & large.wins_by_deal.keys())
    diffs = [large.wins_by_deal[d] - small.wins_by_deal[d] for d in deals]
    low, high = bootstrap_interval(diffs)
    verdict = "larger budget better" if low > 0 else "no clear difference"
    if high < 0:
        verdict = "smaller budget better"
    return (
        f"{large.slug}: budget {large.budget} vs {small.budget} on {len(deals)} deals: "
        f"{statistics.fmean(diffs):+.2f} wins per deal of {large.players} games "
        f"(95% interval {low:+.2f} to {high:+.2f}): {verdict}"
    )


HEADER = (
    "| engine | budget | games | search wins (95% interval) | search mean rank (95%) "
    "| greedy mean rank | ms/decision mean / max | CPU ms/decision |\n"
    "|---|---|---|---|---|---|---|---|"
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", action="append", choices=ENGINES, help="default: all four")
    parser.add_argument("--deals", type=int, default=20, help="deals (seeds) per engine")
    parser.add_argument("--first-deal", type=int, default=0, help="seed of the first deal")
    parser.add_argument("--budgets", default="0,8,32", help="iteration budgets, comma-separated")
    parser.add_argument("--players", type=int, default=3, help="table size (default 3)")
    parser.add_argument("--cpu-seconds", type=float, help="CPU cap per decision (default none)")
    args = parser.parse_args(argv)
    try:
        budgets = sorted({int(b) for b in args.budgets.split(",")})
    except ValueError:
        parser.error(f"--budgets must be integers separated by commas, not {args.budgets!r}")
    if args.deals < 1 or not budgets or budgets[0] < 0:
        parser.error("--deals must be >= 1 and --budgets non-negative integers")
    deals = range(args.first_deal, args.first_deal + args.deals)
    print(
        f"{args.deals} deals (seeds {deals.start}-{deals.stop - 1}) x {args.players} rotations, "
        f"one search bot vs {args.players - 1} greedy bots\n\n{HEADER}",
        flush=True,
    )
    comparisons = []
    for slug in args.engine or ENGINES:
        engines.get(slug).check_setup(args.players, None)
        started = time.perf_counter()
        lines = []
        for budget in budgets:
            line = play_line(slug, budget, deals, args.players, args.cpu_seconds)
            lines.append(line)
            print(describe(line), flush=True)
        comparisons.extend(compare(small, large) for small, large in itertools.pairwise(lines))
        comparisons.append(f"  ({slug}: {time.perf_counter() - started:.0f} s)")
    print("\n" + "\n".join(comparisons))


if __name__ == "__main__":
    main()

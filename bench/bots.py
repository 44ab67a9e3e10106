"""Greedy example bots against random ones, per engine, played in-process.

    .venv/bin/python -m bench.bots [--games 200] [--engine manila] [--players 4]
    .venv/bin/python -m bench.bots --mc-vs-greedy manila --games 120 [--budget-ms 300]
        [--samples N] [--first-seed S]

Each game seats one greedy bot (``harbormaster_bot.examples.greedy``) and random
bots (``harbormaster_bot.examples.random_bot``) at the largest table the engine
allows (capped at 4), the greedy seat rotating with the game index, which is
also the game's seed (chance through ``engines.Dealer(seed)``). Every
decision is the real act request built by ``botapi.protocol`` from the
engine state and handed to the bot's ``act`` without HTTP, so the figures
measure the bots, not the network. Prints, per engine: games, greedy win
rate (rank 1, shared ranks included), mean rank of the greedy bot and of the
random bots, and the greedy bot's mean and worst decision time. Not a test.

``--mc-vs-greedy`` instead seats a Monte Carlo example bot
(``harbormaster_bot.examples.monte_carlo`` for Manila,
``monte_carlo_batavia`` for Batavia; they need the engines installed) once
at a table of greedy bots (the engine's smallest table unless ``--players``),
rotating its seat, and prints its win rate and mean rank with their 95%
intervals, its rank counts (so chunks run with ``--first-seed`` can be
pooled) and its time per decision.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from harbormaster_bot import Turn
from harbormaster_bot.examples.greedy import greedy_bot
from harbormaster_bot.examples.random_bot import RandomBot

import engines
from botapi import protocol
from engines import CHANCE, Dealer

DEADLINE_MS = 2000
TABLE_CAP = 4
MONTE_CARLO_BOTS = {
    "manila": "harbormaster_bot.examples.monte_carlo",
    "batavia": "harbormaster_bot.examples.monte_carlo_batavia",
}
"""Engine slug -> the module of its Monte Carlo example bot (``--mc-vs-greedy``)."""


@dataclass
class GameResult:
    """One finished game: its outcome and each seat's decision times (seconds)."""

    ranks: list[int]
    scores: list[Any]
    decision_seconds: list[list[float]] = field(default_factory=list)


def answer_to_action(answer: Any, legal: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The legal action a bot's ``act`` result names (an index or an action dict).

    Raises ``ValueError`` for anything else, so a bot that invents an action
    fails loudly here instead of being silently defaulted.
    """
    if isinstance(answer, int) and not isinstance(answer, bool):
        if 0 <= answer < len(legal):
            return legal[answer]
        raise ValueError(f"action index {answer} out of range 0..{len(legal) - 1}")
    for candidate in legal:
        if protocol.json_equal(candidate, answer):
            return candidate
    raise ValueError(f"answer {answer!r} is not among the legal actions")


def play_game(
    slug: str,
    bots: Sequence[Any],
    seed: int,
    *,
    on_decision: Callable[[int, dict[str, Any], dict[str, Any]], None] | None = None,
    budget_ms: float | None = None,
) -> GameResult:
    """Play one game of ``slug`` between ``bots`` (one per seat) and return the result.

    Chance is ``Dealer(seed)``. Each bot sees, per decision, the act request
    the referee would send: its view, the legal actions and the public events
    since its previous request. ``on_decision(seat, request, action)`` is
    called after every bot decision (tests use it to check legality).
    ``budget_ms`` sets each ``Turn.answer_by`` that many ms after the request
    is handed over (a searching bot stops by it); default: no limit.
    """
    engine = engines.get(slug)
    state = engine.new_game(len(bots))
    dealer = Dealer(seed)
    seen_events = [0] * len(bots)
    times: list[list[float]] = [[] for _ in bots]
    ply = 0
    while not state.is_over:
        seat = state.to_move[0]
        if seat == CHANCE:
            state.apply(CHANCE, dealer.choose(state))
            ply += 1
            continue
        events = state.events[seen_events[seat] :]
        seen_events[seat] = len(state.events)
        request = protocol.act_request_for_state(
            state,
            game_id=f"bench-{seed}",
            seat=seat,
            ply=ply,
            deadline_ms=DEADLINE_MS,
            events=events,
            request_id=f"{seed}-{ply}",
        )
        started = time.monotonic()
        answer_by = math.inf if budget_ms is None else started + budget_ms / 1000
        answer = bots[seat].act(Turn(request=request, answer_by=answer_by))
        times[seat].append(time.monotonic() - started)
        action = answer_to_action(answer, request["legal_actions"])
        if on_decision is not None:
            on_decision(seat, request, action)
        state.apply(seat, action)
        ply += 1
    outcome = state.outcome()
    return GameResult(list(outcome["ranks"]), list(outcome["scores"]), times)


def table_size(slug: str) -> int:
    """The largest table the engine allows, at most four."""
    engine = engines.get(slug)
    return max(engine.min_players, min(engine.max_players, TABLE_CAP))


@dataclass
class Summary:
    """Greedy-versus-random figures over a series of games."""

    slug: str
    players: int
    games: int = 0
    greedy_wins: int = 0
    greedy_ranks: list[int] = field(default_factory=list)
    random_ranks: list[int] = field(default_factory=list)
    greedy_times: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.greedy_wins / max(self.games, 1)

    @property
    def greedy_mean_rank(self) -> float:
        return sum(self.greedy_ranks) / max(len(self.greedy_ranks), 1)

    @property
    def random_mean_rank(self) -> float:
        return sum(self.random_ranks) / max(len(self.random_ranks), 1)


def greedy_versus_random(slug: str, games: int, players: int | None = None) -> Summary:
    """Games ``0..games-1``: seed = game index, greedy seat = index mod players."""
    players = players or table_size(slug)
    summary = Summary(slug, players)
    for index in range(games):
        greedy_seat = index % players
        bots = [
            greedy_bot(slug) if seat == greedy_seat else RandomBot(seed=index * 31 + seat)
            for seat in range(players)
        ]
        result = play_game(slug, bots, seed=index)
        summary.games += 1
        summary.greedy_wins += result.ranks[greedy_seat] == 1
        summary.greedy_ranks.append(result.ranks[greedy_seat])
        summary.random_ranks.extend(r for s, r in enumerate(result.ranks) if s != greedy_seat)
        summary.greedy_times.extend(result.decision_seconds[greedy_seat])
    return summary


@dataclass
class MonteCarloSummary:
    """The Monte Carlo example bot against greedy bots over a series of games."""

    slug: str
    players: int
    games: int = 0
    mc_wins: int = 0
    mc_ranks: list[int] = field(default_factory=list)
    greedy_ranks: list[int] = field(default_factory=list)
    mc_times: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.mc_wins / max(self.games, 1)

    @property
    def mc_mean_rank(self) -> float:
        return sum(self.mc_ranks) / max(len(self.mc_ranks), 1)

    @property
    def greedy_mean_rank(self) -> float:
        return sum(self.greedy_ranks) / max(len(self.greedy_ranks), 1)


def mc_versus_greedy(
    slug: str,
    games: int,
    players: int | None = None,
    *,
    budget_ms: float | None = 300,
    samples: int | None = None,
    first_seed: int = 0,
) -> MonteCarloSummary:
    """Games ``first_seed..``: seed = game index, Monte Carlo seat = index mod players.

    One seat is the game's Monte Carlo example bot (``MONTE_CARLO_BOTS``, seeded with the
    game's seed, its thinking limited to ``budget_ms`` per decision, or by
    ``samples`` alone when ``budget_ms`` is None: then the result does not
    depend on the machine), every other seat the greedy bot. Equal strength
    would win ``1/players`` of the games at a mean rank of about
    ``(players + 1) / 2``.
    """
    import importlib

    if slug not in MONTE_CARLO_BOTS:
        raise ValueError(
            f"no Monte Carlo example bot plays {slug}; these do: {', '.join(MONTE_CARLO_BOTS)}"
        )
    module = importlib.import_module(MONTE_CARLO_BOTS[slug])
    players = players or engines.get(slug).min_players
    summary = MonteCarloSummary(slug, players)
    for index in range(first_seed, first_seed + games):
        mc_seat = index % players
        bots = [
            module.MonteCarloBot(seed=index, samples=samples or module.SAMPLES)
            if seat == mc_seat
            else greedy_bot(slug)
            for seat in range(players)
        ]
        result = play_game(slug, bots, seed=index, budget_ms=budget_ms)
        summary.games += 1
        summary.mc_wins += result.ranks[mc_seat] == 1
        summary.mc_ranks.append(result.ranks[mc_seat])
        summary.greedy_ranks.extend(r for s, r in enumerate(result.ranks) if s != mc_seat)
        summary.mc_times.extend(result.decision_seconds[mc_seat])
    return summary


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (sound for small counts, unlike p +- 2se)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def mean_half_width(values: Sequence[float], z: float = 1.96) -> float:
    """Half the width of the normal-approximation 95% interval of the mean of ``values``."""
    if len(values) < 2:
        return math.inf
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return z * math.sqrt(variance / len(values))


def print_mc_versus_greedy(
    slug: str,
    games: int,
    players: int | None,
    budget_ms: float,
    samples: int | None = None,
    first_seed: int = 0,
) -> None:
    started = time.perf_counter()
    budget = None if samples else budget_ms
    s = mc_versus_greedy(
        slug, games, players, budget_ms=budget, samples=samples, first_seed=first_seed
    )
    limit = f"{samples} samples/decision, no clock" if samples else f"budget {budget_ms:.0f} ms"
    times = s.mc_times or [0.0]
    low, high = wilson_interval(s.mc_wins, s.games)
    print(
        f"{s.slug}: Monte Carlo (1 seat) vs greedy ({s.players - 1} seats), {s.games} games "
        f"(seeds {first_seed}-{first_seed + s.games - 1}), {limit}\n"
        f"  MC wins {s.mc_wins}/{s.games} = {s.win_rate:.1%} (95% interval {low:.1%}-{high:.1%}; "
        f"equal strength: {1 / s.players:.1%}); "
        f"mean rank MC {s.mc_mean_rank:.2f} (95% interval +-{mean_half_width(s.mc_ranks):.2f}), "
        f"greedy {s.greedy_mean_rank:.2f}; MC ranks 1/2/3..: "
        f"{'/'.join(str(s.mc_ranks.count(r)) for r in range(1, s.players + 1))}\n"
        f"  MC ms/decision: mean {1000 * sum(times) / len(times):.0f}, "
        f"max {1000 * max(times):.0f}   ({time.perf_counter() - started:.0f} s)",
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per engine")
    parser.add_argument(
        "--mc-vs-greedy",
        metavar="ENGINE",
        help="instead: the Monte Carlo example bot against greedy bots in this game",
    )
    parser.add_argument(
        "--budget-ms", type=float, default=300, help="Monte Carlo thinking time per decision"
    )
    parser.add_argument(
        "--samples",
        type=int,
        help="Monte Carlo samples per decision instead of a time budget (machine-independent)",
    )
    parser.add_argument(
        "--first-seed", type=int, default=0, help="Monte Carlo games: seed of the first game"
    )
    parser.add_argument("--engine", action="append", help="slug (repeatable); default all")
    parser.add_argument("--players", type=int, help="table size (default: largest, at most 4)")
    args = parser.parse_args(argv)
    if args.mc_vs_greedy:
        print_mc_versus_greedy(
            args.mc_vs_greedy,
            args.games,
            args.players,
            args.budget_ms,
            args.samples,
            args.first_seed,
        )
        return
    slugs = args.engine or [engine.slug for engine in engines.all_engines()]
    print(
        f"{'engine':<12} {'players':>7} {'games':>6} {'greedy wins':>11} "
        f"{'greedy rank':>11} {'random rank':>11} {'ms/decision':>11} {'max ms':>7}"
    )
    for slug in slugs:
        started = time.perf_counter()
        s = greedy_versus_random(slug, args.games, args.players)
        times = s.greedy_times or [0.0]
        print(
            f"{slug:<12} {s.players:>7} {s.games:>6} {s.win_rate:>10.1%} "
            f"{s.greedy_mean_rank:>11.2f} {s.random_mean_rank:>11.2f} "
            f"{1000 * sum(times) / len(times):>11.2f} {1000 * max(times):>7.1f}"
            f"   ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()

"""An information-set search bot for all four games: the baseline to beat.

    .venv/bin/pip install ./engines './sdk/python[search]'
    HARBORMASTER_SECRET=... .venv/bin/python -m harbormaster_bot.examples.search --port 8005

The search is information-set Monte Carlo search at the root of the tree
(the root node of single-observer ISMCTS, Cowling, Powley & Whitehouse
2012): the root is our seat's information set, i.e. the act request's view.
Every iteration

1. picks a candidate action by UCB1 over the statistics the candidates have
   gathered on all earlier samples (so the statistics are per information
   set, not per sampled state),
2. takes a *determinization* of that view (``engines.determinize``: the
   other hands, the decks and the bag drawn from what the view leaves
   possible; the bot never sees more than its seat's view): the j-th visit
   of every candidate meets the same j-th sample and rollout seed, so the
   candidates are compared on equal luck (common random numbers),
3. plays that action, then ``HORIZON`` more decisions with the greedy
   example bot in every seat (chance by its odds), and
4. ranks the position reached (final scores at the end, else the engine's
   score of the game as it stands; in Cargo Noir that adds what the
   warehouse and purse will buy, :func:`cargo_noir_scores`) and scores it
   for our seat: 1 for a win (shared wins split), plus a smaller term for
   the rank reached.

The candidates are the greedy bot's favourite actions (its first choice,
then its choice among the rest, ...), as many as the budget can try a
few times each; the greedy policy is both the prior and the rollout policy,
so the search is a one-step policy improvement on greedy against opponents
that play like greedy. The answer is the candidate with the best mean
(greedy's first choice wins ties and stands when nothing was searched).

Deterministic: the samples and the rollouts are seeded from ``seed`` and the
request (game id, seat, ply), so the same request, seed and iteration budget
give the same answer on any machine, unless a clock stops the search first.
Two clocks can: the optional CPU-time cap (``cpu_seconds``, read with
:func:`time.process_time`, so a loaded machine does not shorten it) and the
request's own answer time (``Turn.answer_by``), before which the search
stops with room for one more rollout and the reply.
"""

from __future__ import annotations

import argparse
import logging
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harbormaster_bot import Turn, serve
from harbormaster_bot.examples.greedy import CHOOSERS
from harbormaster_bot.examples.greedy.cargo_noir import COIN_VALUE as CARGO_COIN_VALUE
from harbormaster_bot.examples.greedy.cargo_noir import plan_value
from harbormaster_bot.examples.greedy.common import request_rng

try:
    import engines
    from engines import CHANCE
    from engines.base import ranks_from_scores
    from engines.cargo_noir.data import TOKENS as CARGO_TOKENS
    from engines.determinize import determinize
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "the search example bot simulates games with the rules engines: "
        "pip install ./engines './sdk/python[search]' (package harbormaster-engines)"
    ) from exc

log = logging.getLogger("harbormaster.bot.search")

ITERATIONS = 8
"""Default budget: rollouts per decision (each on its own determinization)."""
VISITS_PER_CANDIDATE = 4
"""How many rollouts the budget should afford each candidate; it bounds their number."""
EXPLORATION = 0.5
"""UCB1's exploration constant; rewards lie in 0..1."""
WIN_WEIGHT = 0.75
"""Share of a rollout's reward that is the win itself; the rest rewards a better rank."""
HORIZON: int | None = 30
"""Decisions a rollout plays before the position is scored as it stands (None: to the end)."""
PAIRED = True
"""The j-th visit of every candidate uses the j-th sample (False: a new sample per iteration)."""
WAREHOUSE_VP = 1.0
"""Victory points a rollout's leaf counts per unit of Cargo Noir smuggling value held."""
MARGIN_WEIGHT = 0.0
"""Share of a rollout's value that is :func:`margin` (the rest is :func:`reward`)."""
MARGIN_SCALE = 0.1
"""The lead, as a share of the top score, that :func:`margin` counts as clear."""
MAX_WIDTH: int | None = None
"""At most this many candidates, however large the budget (None: no limit)."""
BY_VISITS = False
"""Answer with the most visited candidate (else the best mean)."""
SAFETY_S = 0.05
"""Seconds kept back before ``answer_by`` for building and sending the reply."""

Chooser = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], int]


@dataclass
class Stats:
    """What the search learnt about one candidate action."""

    index: int
    visits: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


def reward(ranks: list[int], seat: int) -> float:
    """The value of a finished game for ``seat``: mostly the win, partly the rank."""
    players = len(ranks)
    mine = ranks[seat]
    winners = ranks.count(1)
    win = 1.0 / winners if mine == 1 else 0.0
    placing = (players - mine) / (players - 1) if players > 1 else 1.0
    return WIN_WEIGHT * win + (1 - WIN_WEIGHT) * placing


def margin(final: list[float], seat: int) -> float:
    """Our lead over the best other seat, squashed into 0..1 (0.5: level).

    Scale-free: a lead of ``MARGIN_SCALE`` of the top score is worth about
    0.88. Unlike the win alone it tells a narrow loss from a rout, which
    few rollouts need to rank candidates that all mostly win or all lose.
    """
    others = [s for i, s in enumerate(final) if i != seat]
    if not others:
        return 1.0
    top = max(abs(s) for s in final) or 1.0
    return 0.5 + 0.5 * math.tanh((final[seat] - max(others)) / (MARGIN_SCALE * top))


def greedy_order(choose: Chooser, view: dict[str, Any], legal: list, rng: random.Random, k: int):
    """The indices of greedy's ``k`` favourite actions, best first.

    Greedy names one best action; asking again without it names the next.
    """
    rest = list(range(len(legal)))
    order: list[int] = []
    while rest and len(order) < k:
        pick = rest[choose(view, [legal[i] for i in rest], rng)]
        order.append(pick)
        rest.remove(pick)
    return order


def scores(state: engines.State) -> list[float]:
    """Each seat's score as the game stands: the final scores once it is over.

    Manila, Batavia and Cargo Noir score a game in progress with their own
    ``outcome``; Grog Island scores only at the end, so its final scoring is
    applied to the position as it stands (objectives count as if the game
    ended now).
    """
    if state.is_over:
        return list(state.outcome()["scores"])
    if state.engine.slug == "cargo_noir":
        return cargo_noir_scores(state)
    if state.engine.slug != "grog_island":
        return list(state.outcome()["scores"])
    from engines.grog_island.scoring import final_scores

    table = final_scores(
        state.num_players, state.vp, state.coins, state.goods, state.occupant, state.private
    )
    return [row["total"] for row in table]


def cargo_noir_scores(state: engines.State) -> list[float]:
    """Cargo Noir's victory points so far plus what the warehouse and purse will buy.

    Goods become victory points only when smuggled: a position scored by the
    cards alone ranks a seat that hoards (as greedy rightly does) last. The
    warehouse counts at the smuggling value of greedy's split of it into
    combinations, coins at greedy's rate, both times ``WAREHOUSE_VP``
    (cards give about one victory point per unit of smuggling value).
    """
    base = state.outcome()["scores"]
    values = []
    for seat, points in enumerate(base):
        goods = Counter(
            {name: n for name, n in zip(CARGO_TOKENS, state.warehouse[seat], strict=True) if n}
        )
        credit = plan_value(goods) + CARGO_COIN_VALUE * state.coins[seat]
        values.append(points + WAREHOUSE_VP * credit)
    return values


def draw(outcomes: list[tuple[dict[str, Any], float]], u: float) -> dict[str, Any]:
    """The chance outcome a uniform number ``u`` in [0, 1) falls on, by the outcomes' odds."""
    for action, probability in outcomes:
        u -= probability
        if u < 0:
            return action
    return outcomes[-1][0]  # rounding left u a hair above the last probability


class OutOfTime(Exception):
    """A rollout reached its ``stop_at`` before the end: the search answers with what it has."""


def rollout(
    state: engines.State,
    choose: Chooser,
    rng: random.Random,
    horizon: int | None = None,
    stop_at: float | None = None,
) -> tuple[list[int], list[float]]:
    """Play on, every seat greedy, chance by its odds; the ranks at the end or the horizon.

    ``horizon`` counts the seats' decisions (chance's moves are free); when
    it is reached before the end, the position is ranked by :func:`scores`.
    A full-length rollout can outlast the turn's answer time on its own, so
    past ``stop_at`` (``time.monotonic``) it raises :class:`OutOfTime`.
    """
    decisions = 0
    while not state.is_over:
        if stop_at is not None and time.monotonic() >= stop_at:
            raise OutOfTime
        if horizon is not None and decisions >= horizon:
            leaf = scores(state)
            return ranks_from_scores(leaf), leaf
        mover = state.to_move[0]
        if mover == CHANCE:
            state.apply(CHANCE, draw(state.chance_outcomes(), rng.random()))
            continue
        legal = state.legal_actions(mover)
        index = 0 if len(legal) == 1 else choose(state.view(mover), legal, rng)
        state.apply(mover, legal[index])
        decisions += 1
    outcome = state.outcome()
    return list(outcome["ranks"]), list(outcome["scores"])


class SearchBot:
    """An SDK handler: ``act(turn)`` searches and returns a legal action's index.

    ``iterations`` is the budget (rollouts per decision); ``cpu_seconds``, if
    given, caps the CPU time of one decision as well.
    """

    def __init__(
        self,
        seed: int = 0,
        iterations: int = ITERATIONS,
        cpu_seconds: float | None = None,
        engine: str | None = None,
        horizon: int | None = HORIZON,
    ) -> None:
        if iterations < 0:
            raise ValueError(f"iterations must be >= 0, not {iterations}")
        if engine is not None and engine not in CHOOSERS:
            raise ValueError(f"no search bot for {engine!r}; known: {', '.join(CHOOSERS)}")
        self.seed = seed
        self.iterations = iterations
        self.cpu_seconds = cpu_seconds
        self.engine = engine
        self.horizon = horizon
        self.last_iterations = 0
        """Rollouts the last decision made (tests and the bench read it)."""

    def act(self, turn: Turn) -> int:
        slug = turn.game["engine"]
        if self.engine is not None and slug != self.engine and slug in CHOOSERS:
            raise ValueError(f"this search bot plays {self.engine}, not {slug}")
        self.last_iterations = 0
        choose = CHOOSERS.get(slug)
        legal = turn.legal_actions
        if choose is None or len(legal) == 1:  # e.g. harbormaster-check's "sample" request
            return 0
        seat = turn.seat
        base = f"{self.seed}/{turn.game.get('id')}/{seat}/{turn.ply}"
        width = max(1, self.iterations // VISITS_PER_CANDIDATE)
        if MAX_WIDTH is not None:
            width = min(width, MAX_WIDTH)
        rng = request_rng(turn.request)  # greedy's own tie-breaking: its first choice is greedy's
        candidates = greedy_order(choose, turn.view, legal, rng, min(width, len(legal)))
        if len(candidates) == 1 or self.iterations == 0:
            return candidates[0]
        stats = [Stats(index) for index in candidates]
        self._search(turn, slug, choose, stats, base)
        if BY_VISITS:
            best = max(stats, key=lambda s: (s.visits, s.mean, s is stats[0]))
        else:
            best = max(stats, key=lambda s: (s.mean, s is stats[0]))
        return best.index

    def _search(self, turn: Turn, slug: str, choose: Chooser, stats: list[Stats], base: str):
        """Run the iterations into ``stats`` until the budget or a clock says stop."""
        seat = turn.seat
        legal = turn.legal_actions
        game = turn.game
        cpu_stop = None if self.cpu_seconds is None else time.process_time() + self.cpu_seconds
        slowest = 0.0
        samples: list[engines.State] = []
        for iteration in range(self.iterations):
            started = time.monotonic()
            # The next iteration may cost more than any so far (a new sample, a longer
            # rollout): twice the slowest keeps the answer inside its time.
            if started + 2 * slowest + SAFETY_S >= turn.answer_by:
                break
            if cpu_stop is not None and time.process_time() >= cpu_stop:
                break
            node = stats[iteration] if iteration < len(stats) else _ucb(stats, iteration)
            visit = node.visits if PAIRED else iteration
            while len(samples) <= visit:  # the j-th visit of every candidate meets sample j
                try:
                    samples.append(
                        determinize(
                            slug,
                            turn.view,
                            f"{base}/{len(samples)}",
                            players=game["num_players"],
                            options=game.get("options"),
                            check=False,
                        )
                    )
                except ValueError as exc:  # a view the sampler refuses: answer with what we have
                    log.warning("no determinization of this view, searching no further: %s", exc)
                    return
            sample = samples[visit].clone()
            sample.apply(seat, legal[node.index])
            try:
                ranks, final = rollout(
                    sample,
                    choose,
                    random.Random(f"{base}/{visit}/r"),
                    self.horizon,
                    stop_at=turn.answer_by - SAFETY_S,
                )
            except OutOfTime:  # this visit is not counted; the answer is what was found
                break
            node.visits += 1
            node.total += (1 - MARGIN_WEIGHT) * reward(ranks, seat) + MARGIN_WEIGHT * margin(
                final, seat
            )
            self.last_iterations = iteration + 1
            slowest = max(slowest, time.monotonic() - started)


def _ucb(stats: list[Stats], iteration: int) -> Stats:
    """The candidate UCB1 picks; every candidate has been visited at least once."""
    log_n = math.log(iteration)
    return max(stats, key=lambda s: s.mean + EXPLORATION * math.sqrt(log_n / s.visits))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve the search example bot (all four games).")
    parser.add_argument("--engine", choices=sorted(CHOOSERS), help="the only game it accepts")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8005, help="port (default 8005; 0 = any)")
    parser.add_argument("--secret", help="signing secret (default: $HARBORMASTER_SECRET)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sampling and rollouts")
    parser.add_argument(
        "--iterations", type=int, default=ITERATIONS, help="rollouts per decision (the budget)"
    )
    parser.add_argument("--cpu-seconds", type=float, help="CPU-time cap per decision")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    bot = SearchBot(args.seed, args.iterations, args.cpu_seconds, args.engine)
    name = f"search-{args.engine or 'all'}-{args.iterations}"
    serve(bot, host=args.host, port=args.port, secret=args.secret, name=name, version="1")


if __name__ == "__main__":
    main()

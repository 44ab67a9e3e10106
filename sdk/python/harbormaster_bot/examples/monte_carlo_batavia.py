"""A tiny Monte Carlo bot for Batavia: greedy proposes, greedy rollouts judge every action.

    .venv/bin/pip install ./engines './sdk/python[search]'
    HARBORMASTER_SECRET=... .venv/bin/python -m harbormaster_bot.examples.monte_carlo_batavia

For every decision with a choice, it samples a few *determinizations* of its
view (full engine states that agree with everything its seat can see: the
other hands, the letters and the deck drawn at random, ``engines.determinize``),
plays each legal action on each sample and then the whole rest of the game
with every seat (its own included) played by the greedy example bot, chance
by its odds. An action scores our final gold minus the best other seat's.
All actions meet the same samples and the same dice ("common random
numbers"). The greedy bot's own choice stands unless another action's mean
lead is more than ``MARGIN`` gold better: with a few samples over a whole
game the noise is large, and picking the best of noisy figures alone plays
about as badly as random (measured: it lost every pilot game).

This is one step of policy improvement ("rollout algorithm") over greedy:
the rollouts are greedy, so the search sees the consequences greedy's
one-move heuristics miss (a bid, a draw, a post jumped over).

It takes up to ``SAMPLES`` samples and starts none once 70% of the request's
answer time is spent; a rollout stops at the clock, a sample cut short is
dropped, and with fewer than ``MIN_SAMPLES`` greedy's proposal stands, so it
never misses a deadline.
``bench/bots.py --mc-vs-greedy batavia`` measures it; see
``docs/engines/determinization.md``.
"""

from __future__ import annotations

import argparse
import logging
import random
import time
from typing import Any

from harbormaster_bot import Turn, serve
from harbormaster_bot.examples.greedy import CHOOSERS, greedy_bot

try:
    import engines
    from engines import CHANCE
    from engines.determinize import determinize
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "the Monte Carlo example bot searches with the rules engines: "
        "pip install ./engines './sdk/python[search]' (package harbormaster-engines)"
    ) from exc

GAME = "batavia"
SAMPLES = 3
"""Determinizations per decision (each action is rolled out once on every one), time allowing."""
MIN_SAMPLES = 2
"""Fewer complete samples (a busy machine, a short deadline): greedy's proposal stands."""
TIME_SHARE = 0.7
"""No new sample is started once this share of the answer time is spent."""
MARGIN = 5.0
"""Gold of mean final lead by which an action must beat greedy's choice to overrule it."""
SAFETY_S = 0.25
"""Seconds kept back from the answer time to build and send the reply, on a busy machine too."""


def rollout(state: engines.State, rng: random.Random, seat: int, stop: float) -> float | None:
    """Play to the end with the greedy bot in every seat; return our lead over the best other.

    A whole game of greedy moves takes some 30 ms, longer on a busy machine,
    so the clock is read at every move: past ``stop`` it gives up (None).
    """
    choose = CHOOSERS[GAME]
    while not state.is_over:
        if time.monotonic() >= stop:
            return None
        mover = state.to_move[0]
        if mover == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            legal = state.legal_actions(mover)
            action = legal[choose(state.view(mover), legal, rng)] if len(legal) > 1 else legal[0]
        state.apply(mover, action)
    scores = state.outcome()["scores"]
    return scores[seat] - max(s for other, s in enumerate(scores) if other != seat)


class MonteCarloBot:
    """An SDK handler: ``act(turn)`` returns the index of the chosen legal action."""

    def __init__(self, seed: int = 0, samples: int = SAMPLES) -> None:
        self.seed = seed
        self.samples = samples
        self.greedy = greedy_bot(GAME)

    def act(self, turn: Turn) -> int:
        slug = turn.game["engine"]
        if slug != GAME:
            if slug in CHOOSERS:  # another real game: a bot registered for the wrong one
                raise ValueError(f"this Monte Carlo bot plays {GAME}, not {slug}")
            return 0  # e.g. harbormaster-check's "sample" request
        legal = turn.legal_actions
        if len(legal) == 1:
            return 0
        proposal = self.greedy.act(turn)
        seat = turn.seat
        totals = [0.0] * len(legal)
        done = 0
        base = f"{self.seed}/{turn.game['id']}/{seat}/{turn.ply}"
        now = time.monotonic()
        stop_sampling = now + TIME_SHARE * max(0.0, turn.answer_by - now)
        hard_stop = turn.answer_by - SAFETY_S
        for k in range(self.samples):
            if time.monotonic() >= stop_sampling:
                break
            sample = determinize(
                GAME,
                turn.view,
                f"{base}/{k}",
                players=turn.game["num_players"],
                options=turn.game.get("options"),
                check=False,
            )
            leads: list[float] = []
            for action in legal:
                state = sample.clone()
                state.apply(seat, action)
                lead = rollout(state, random.Random(f"{base}/{k}/r"), seat, hard_stop)
                if lead is None:
                    break
                leads.append(lead)
            if len(leads) < len(legal):  # out of time: a partial sample would be unfair
                break
            totals = [total + lead for total, lead in zip(totals, leads, strict=True)]
            done += 1
        if done < MIN_SAMPLES:  # too few samples to tell luck from a better action
            return proposal
        means = [total / done for total in totals]
        best = max(range(len(legal)), key=lambda i: (means[i], -i))
        return best if means[best] - means[proposal] > MARGIN else proposal


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve the Monte Carlo example bot (Batavia).")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8004, help="port (default 8004; 0 = any)")
    parser.add_argument("--secret", help="signing secret (default: $HARBORMASTER_SECRET)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sampling")
    parser.add_argument("--samples", type=int, default=SAMPLES, help="samples per decision")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    bot: Any = MonteCarloBot(args.seed, args.samples)
    serve(bot, host=args.host, port=args.port, secret=args.secret, name="mc-batavia", version="1")


if __name__ == "__main__":
    main()

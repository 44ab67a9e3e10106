"""A tiny Monte Carlo bot for Manila: determinize, try each action, let the dice judge it.

    .venv/bin/pip install ./engines './sdk/python[search]'
    HARBORMASTER_SECRET=... .venv/bin/python -m harbormaster_bot.examples.monte_carlo --port 8003

For a decision it searches, it samples a few *determinizations* of its
view (full engine states that agree with everything its seat can see, the
other seats' face-down shares drawn at random: ``engines.determinize``),
and plays every legal action on each sample, then the rest of the voyage
with a cheap passive policy (nobody spends any more; the dice decide). All
actions meet the same samples and the same dice ("common random numbers"),
so they are compared on equal luck. The greedy example bot proposes an
action; the search overrules it when another action's mean wealth lead
(our wealth minus the richest opponent's) is more than two pesos better.
The passive rollouts know nothing of what opponents will do, and greedy's
heuristics do: the search corrects greedy, it does not replace it.

It searches where accomplices go and where the boats start; the other
decisions (the auction above all: a rollout teaches nothing about bidding)
are greedy's. It takes up to 16 samples and starts no new one once 70% of
the request's answer time is spent, so it never misses a deadline; a sample
cut short is dropped (every action is judged on the same samples), and with
fewer than 8 complete samples greedy's proposal stands.

It needs the rules engines (the ``search`` extra); ``bench/bots.py
--mc-vs-greedy`` measures it against the greedy bot. See
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

GAME = "manila"
SAMPLES = 16
"""Determinizations per searched decision (each action is tried on every one), time allowing."""
MIN_SAMPLES = 8
"""Fewer samples (a busy machine) are too noisy to overrule greedy: its proposal stands."""
TIME_SHARE = 0.7
"""No new sample is started once this share of the answer time is spent."""
MARGIN = 2.0
"""Pesos of mean wealth lead by which the search must beat greedy's choice to overrule it."""
SEARCHED = frozenset({"place", "start_boats"})
"""Phases searched: placing accomplices, and (as harbor master) where the boats start.

The rest (the auction, buying a share, pilots, pirates ...) is answered by the
greedy example bot: searching them as well measured worse than greedy.
"""
PASSIVE = frozenset({"pass", "pilot_stop", "stay", "skip_buy"})
"""Actions of the rollout policy whenever one is legal."""
SAFETY_S = 0.25
"""Seconds kept back from the answer time to build and send the reply, on a busy machine too."""


def rollout(state: engines.State, rng: random.Random, seat: int) -> float:
    """Play to the end of the voyage; return our wealth lead (ours minus the richest other's).

    The rollout policy is deliberately passive: whoever decides takes a
    "do nothing" action when there is one (pass, stop the pilot, stay on the
    pirate ship, buy nothing) and a random one otherwise; chance follows its
    odds. Random placements would spend everybody's money at random and drown
    the difference between two actions in noise; a passive table lets the
    dice alone judge the action tried.
    """
    voyage = state.voyage
    while not state.is_over and state.voyage == voyage:
        mover = state.to_move[0]
        if mover == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            legal = state.legal_actions(mover)
            passive = [a for a in legal if a["type"] in PASSIVE]
            action = passive[0] if passive else rng.choice(legal)
        state.apply_checked(mover, action)
    wealth = [state.wealth(s) for s in range(state.num_players)]
    return wealth[seat] - max(w for s, w in enumerate(wealth) if s != seat)


class MonteCarloBot:
    """An SDK handler: ``act(turn)`` returns the index of the best-scoring legal action."""

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
        if turn.view["phase"] not in SEARCHED:
            return proposal
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
            leads = []
            for action in legal:
                if time.monotonic() >= hard_stop:
                    break
                state = sample.clone()
                state.apply(seat, action)
                leads.append(rollout(state, random.Random(f"{base}/{k}/roll"), seat))
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
    parser = argparse.ArgumentParser(description="Serve the Monte Carlo example bot (Manila).")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8003, help="port (default 8003; 0 = any)")
    parser.add_argument("--secret", help="signing secret (default: $HARBORMASTER_SECRET)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sampling")
    parser.add_argument("--samples", type=int, default=SAMPLES, help="samples per decision")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    bot: Any = MonteCarloBot(args.seed, args.samples)
    serve(bot, host=args.host, port=args.port, secret=args.secret, name="mc-manila", version="1")


if __name__ == "__main__":
    main()

"""The Monte Carlo example bot: legal, on time, deterministic, Manila only, better than greedy."""

from __future__ import annotations

import math
import random
import time
from typing import Any

import pytest
from harbormaster_bot import Turn, answer_budget_ms
from harbormaster_bot.examples.monte_carlo import MonteCarloBot

import engines
from bench.bots import mc_versus_greedy
from botapi import protocol
from engines import CHANCE, Dealer

MATCH_GAMES = 12
"""Games 0-11 of bench.bots' seeding: mean rank 1.75 against greedy's 2.13.

Honestly: over the 120 games of docs/engines/determinization.md the bot is only
even with greedy (1.97 against 2.00). These twelve are the first twelve seeds,
not a search for good ones; the test catches a change that makes the search
stop helping on them (or an engine change that alters the games), it does not
prove the bot stronger.
"""
MATCH_SAMPLES = 16
"""Samples per searched decision, with no clock: the result is the same on any machine."""


def manila_requests(count: int, seed: int = 0, deadline_ms: int = 400) -> list[dict[str, Any]]:
    """Real act requests from seeded random Manila games, spread over whole games."""
    requests: list[dict[str, Any]] = []
    game = 0
    while len(requests) < count:
        state = engines.get("manila").new_game(3 + game % 3)
        dealer, rng = Dealer(seed + game), random.Random(seed + game)
        ply = 0
        while not state.is_over:
            seat = state.to_move[0]
            if seat == CHANCE:
                state.apply(CHANCE, dealer.choose(state))
            else:
                legal = state.legal_actions(seat)
                if len(legal) > 1 and rng.random() < 0.15:
                    requests.append(
                        protocol.act_request_for_state(
                            state, game_id=f"mc-{game}", seat=seat, ply=ply, deadline_ms=deadline_ms
                        )
                    )
                state.apply(seat, rng.choice(legal))
            ply += 1
        game += 1
    return requests[:count]


def test_it_answers_a_legal_action_within_its_budget() -> None:
    bot = MonteCarloBot(seed=1)
    for request in manila_requests(40):
        budget = answer_budget_ms(request["deadline_ms"]) / 1000
        started = time.monotonic()
        index = bot.act(Turn(request=request, answer_by=started + budget))
        elapsed = time.monotonic() - started
        assert 0 <= index < len(request["legal_actions"])
        assert elapsed < budget, f"{elapsed * 1000:.0f} ms at ply {request['ply']}"


def test_a_spent_budget_still_gets_a_legal_answer_at_once() -> None:
    request = next(r for r in manila_requests(30) if r["view"]["phase"] == "place")
    started = time.monotonic()
    index = MonteCarloBot().act(Turn(request=request, answer_by=started))
    assert 0 <= index < len(request["legal_actions"])
    assert time.monotonic() - started < 0.05


def test_it_is_deterministic_for_a_request_and_a_seed() -> None:
    requests = manila_requests(12, seed=5)
    first = [MonteCarloBot(seed=3, samples=6).act(Turn(r, math.inf)) for r in requests]
    again = [MonteCarloBot(seed=3, samples=6).act(Turn(r, math.inf)) for r in requests]
    assert first == again
    others = [MonteCarloBot(seed=4, samples=6).act(Turn(r, math.inf)) for r in requests]
    assert all(0 <= i < len(r["legal_actions"]) for i, r in zip(others, requests, strict=True))


def test_it_refuses_a_game_it_does_not_play() -> None:
    state = engines.get("batavia").new_game(3)
    while state.to_move == [CHANCE]:
        state.apply(CHANCE, Dealer(1).choose(state))
    request = protocol.act_request_for_state(
        state, game_id=1, seat=state.to_move[0], ply=0, deadline_ms=1000
    )
    with pytest.raises(ValueError, match="plays manila, not batavia"):
        MonteCarloBot().act(Turn(request, math.inf))


def test_the_sdk_checker_passes_it() -> None:
    """harbormaster-check's own "sample" game gets the first action, not an error."""
    from harbormaster_bot import check

    request = check.sample_act_request(1000)
    assert MonteCarloBot().act(Turn(request, math.inf)) == 0


def test_it_needs_the_engines_and_says_how_to_install_them() -> None:
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['engines'] = None\nimport harbormaster_bot.examples.monte_carlo\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode != 0
    assert "pip install ./engines './sdk/python[search]'" in result.stderr


@pytest.mark.slow
def test_on_a_fixed_set_of_games_it_ranks_better_than_greedy() -> None:
    """Seeded games and a fixed number of samples (no clock): the same result on any machine.

    One Monte Carlo seat against two greedy ones, its seat rotating; about 25 s.
    The bot's answers depend only on the request and its seed when the clock
    does not cut the search short, and here there is no clock.
    """
    summary = mc_versus_greedy("manila", MATCH_GAMES, 3, budget_ms=None, samples=MATCH_SAMPLES)
    assert summary.games == MATCH_GAMES
    assert summary.mc_mean_rank < summary.greedy_mean_rank, summary

"""The Batavia Monte Carlo example bot: legal, on time, deterministic, Batavia only, and stronger.

Its strength is measured by ``bench.bots --mc-vs-greedy batavia`` over many
games (docs/engines/determinization.md); the seeded match here is short and
guards against a broken search, it does not prove strength on its own.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

import pytest
from harbormaster_bot import Turn, answer_budget_ms
from harbormaster_bot.examples.greedy import greedy_bot
from harbormaster_bot.examples.monte_carlo_batavia import MIN_SAMPLES, MonteCarloBot

import engines
from bench.bots import mc_versus_greedy
from botapi import protocol
from engines import CHANCE, Dealer

MATCH_GAMES = 1
"""Seed 0 of bench.bots' seeding, the first game (about 35 s on a quiet 2-core machine).

Measured: the Monte Carlo seat wins it (rank 1 against greedy's mean 2.5).
One game is a regression guard against a broken search, not a measure of
strength: that is the bench's 87 games (docs/engines/determinization.md).
"""


def batavia_requests(count: int, seed: int = 0, deadline_ms: int = 400) -> list[dict[str, Any]]:
    """Real act requests from seeded random Batavia games, spread over whole games."""
    requests: list[dict[str, Any]] = []
    game = 0
    while len(requests) < count:
        state = engines.get("batavia").new_game(3 + game % 2)
        dealer, rng = Dealer(seed + game), random.Random(seed + game)
        ply = 0
        while not state.is_over:
            seat = state.to_move[0]
            if seat == CHANCE:
                state.apply(CHANCE, dealer.choose(state))
            else:
                legal = state.legal_actions(seat)
                if len(legal) > 1 and rng.random() < 0.1:
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
    for request in batavia_requests(12):
        budget = answer_budget_ms(request["deadline_ms"]) / 1000
        started = time.monotonic()
        index = bot.act(Turn(request=request, answer_by=started + budget))
        elapsed = time.monotonic() - started
        assert 0 <= index < len(request["legal_actions"])
        assert elapsed < budget, f"{elapsed * 1000:.0f} ms at ply {request['ply']}"


def test_it_is_deterministic_for_a_request_and_a_seed() -> None:
    requests = batavia_requests(4, seed=5)
    first = [MonteCarloBot(seed=3, samples=MIN_SAMPLES).act(Turn(r, math.inf)) for r in requests]
    again = [MonteCarloBot(seed=3, samples=MIN_SAMPLES).act(Turn(r, math.inf)) for r in requests]
    assert first == again
    assert all(0 <= i < len(r["legal_actions"]) for i, r in zip(first, requests, strict=True))


def test_with_too_few_samples_greedy_decides_and_with_enough_it_overrules_somewhere() -> None:
    requests = batavia_requests(6, seed=7)
    greedy = greedy_bot("batavia")
    proposals = [greedy.act(Turn(r, math.inf)) for r in requests]
    few = MonteCarloBot(seed=1, samples=MIN_SAMPLES - 1)
    assert [few.act(Turn(r, math.inf)) for r in requests] == proposals
    many = MonteCarloBot(seed=1)
    assert [many.act(Turn(r, math.inf)) for r in requests] != proposals


def test_it_refuses_a_game_it_does_not_play() -> None:
    state = engines.get("manila").new_game(3)
    dealer = Dealer(1)
    while state.to_move == [CHANCE]:
        state.apply(CHANCE, dealer.choose(state))
    request = protocol.act_request_for_state(
        state, game_id=1, seat=state.to_move[0], ply=0, deadline_ms=1000
    )
    with pytest.raises(ValueError, match="plays batavia, not manila"):
        MonteCarloBot().act(Turn(request, math.inf))


@pytest.mark.slow
def test_on_the_first_seeded_games_it_ranks_better_than_greedy() -> None:
    """One Monte Carlo seat against two greedy ones, seats rotating, 3 samples, no clock.

    The same result on any machine (the bot's answers depend only on the
    request and its seed without a clock).
    """
    summary = mc_versus_greedy("batavia", MATCH_GAMES, 3, budget_ms=None, samples=3)
    assert summary.games == MATCH_GAMES
    assert summary.mc_mean_rank < summary.greedy_mean_rank, summary

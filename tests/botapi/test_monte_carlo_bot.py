"""The Monte Carlo example bot: legal, on time, deterministic, Manila only, even with greedy."""

from __future__ import annotations

import math
import random
import time
from typing import Any

import pytest
from harbormaster_bot import Turn, answer_budget_ms
from harbormaster_bot.examples.monte_carlo import MIN_SAMPLES, SAMPLES, MonteCarloBot

import engines
from bench.bots import mc_versus_greedy
from botapi import protocol
from engines import CHANCE, Dealer

MATCH_GAMES = 6
"""Seeds 0-5 of bench.bots' seeding: the first six (about 10 s on a quiet 2-core machine).

Measured: mean rank 1.50 against greedy's 2.25 (4 wins of 6); on the first
sixteen, 1.69 against 2.16, better than the 240-game average, so the slack
below is not what lets it pass. The same bot with its rollout scores negated
(a broken search) ranked 3.00 against 1.50 on the first sixteen.
"""
MATCH_SLACK = 0.2
"""How much worse than greedy's mean rank the bot may rank on them and still pass.

Over 240 games (docs/engines/determinization.md) the bot is even with greedy,
not better, so the test cannot honestly demand a better rank on any fixed set
of seeds; it demands "not clearly worse", which a broken search (one that
overrules greedy with bad actions) fails.
"""
MATCH_SAMPLES = SAMPLES
"""The bot's own number of samples, with no clock: the result is the same on any machine."""


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
    samples = MIN_SAMPLES  # the fewest with which the search may overrule greedy
    first = [MonteCarloBot(seed=3, samples=samples).act(Turn(r, math.inf)) for r in requests]
    again = [MonteCarloBot(seed=3, samples=samples).act(Turn(r, math.inf)) for r in requests]
    assert first == again
    others = [MonteCarloBot(seed=4, samples=samples).act(Turn(r, math.inf)) for r in requests]
    assert all(0 <= i < len(r["legal_actions"]) for i, r in zip(others, requests, strict=True))


def test_with_too_few_samples_greedy_decides() -> None:
    """Below MIN_SAMPLES complete samples (a busy machine) the search never overrules greedy."""
    from harbormaster_bot.examples.greedy import greedy_bot

    requests = [r for r in manila_requests(40, seed=7) if r["view"]["phase"] == "place"]
    few = MonteCarloBot(seed=1, samples=MIN_SAMPLES - 1)
    many = MonteCarloBot(seed=1)
    greedy = greedy_bot("manila")
    assert [few.act(Turn(r, math.inf)) for r in requests] == [
        greedy.act(Turn(r, math.inf)) for r in requests
    ]
    # ... and with enough samples it does overrule greedy somewhere, or the test proves nothing
    assert any(many.act(Turn(r, math.inf)) != greedy.act(Turn(r, math.inf)) for r in requests)


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
def test_on_a_fixed_set_of_games_it_ranks_about_as_well_as_greedy() -> None:
    """Seeded games and a fixed number of samples (no clock): the same result on any machine.

    One Monte Carlo seat against two greedy ones, its seat rotating.
    The bot's answers depend only on the request and its seed when the clock
    does not cut the search short, and here there is no clock.
    """
    summary = mc_versus_greedy("manila", MATCH_GAMES, 3, budget_ms=None, samples=MATCH_SAMPLES)
    assert summary.games == MATCH_GAMES
    assert summary.mc_mean_rank <= summary.greedy_mean_rank + MATCH_SLACK, summary


def test_the_bench_intervals_match_textbook_values() -> None:
    """Wilson's 95% interval for 5/10 is 0.237-0.763 and for 0/10 is 0-0.278."""
    from bench.bots import mean_half_width, wilson_interval

    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    low, high = wilson_interval(0, 10)
    assert low == pytest.approx(0.0, abs=1e-12)
    assert high == pytest.approx(0.2775, abs=1e-4)
    # ranks 1, 2, 3: standard deviation 1, so 1.96 / sqrt(3)
    assert mean_half_width([1, 2, 3]) == pytest.approx(1.96 / math.sqrt(3))

"""The search example bot: legal in every game, deterministic, within its budget and deadline.

Its strength is measured by ``bench.strength`` over many duplicate deals
(sdk/python/README.md); these tests check the machinery with small budgets.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
import time
from typing import Any

import pytest
from harbormaster_bot import Turn
from harbormaster_bot.examples.greedy import CHOOSERS, greedy_bot
from harbormaster_bot.examples.search import SearchBot, margin, reward, scores

import engines
from bench.bots import play_game
from botapi import protocol
from engines import CHANCE, Dealer
from engines.determinize import determinize

ENGINES = sorted(CHOOSERS)


def requests_of(slug: str, count: int, seed: int = 0) -> list[dict[str, Any]]:
    """Real act requests with a choice, spread over seeded random three-player games."""
    found: list[dict[str, Any]] = []
    game = 0
    while len(found) < count:
        state = engines.get(slug).new_game(3)
        dealer, rng = Dealer(seed + game), random.Random(seed + game)
        ply = 0
        while not state.is_over and len(found) < count:
            seat = state.to_move[0]
            if seat == CHANCE:
                state.apply(CHANCE, dealer.choose(state))
            else:
                legal = state.legal_actions(seat)
                if len(legal) > 2 and rng.random() < 0.05:
                    found.append(
                        protocol.act_request_for_state(
                            state, game_id=f"s-{game}", seat=seat, ply=ply, deadline_ms=2000
                        )
                    )
                state.apply(seat, rng.choice(legal))
            ply += 1
        game += 1
    return found


@pytest.mark.parametrize("slug", ENGINES)
def test_it_plays_legal_moves_through_a_whole_game(slug: str) -> None:
    bot = SearchBot(seed=1, iterations=8, horizon=4)
    searched = []

    def check(seat: int, request: dict[str, Any], action: dict[str, Any]) -> None:
        assert any(protocol.json_equal(action, a) for a in request["legal_actions"])
        if seat == 0:
            searched.append(bot.last_iterations)

    result = play_game(slug, [bot, greedy_bot(slug), greedy_bot(slug)], seed=3, on_decision=check)
    assert sorted(result.ranks)[0] == 1 and len(result.ranks) == 3
    assert max(searched) == 8, "the bot never searched"


@pytest.mark.parametrize("slug", ENGINES)
def test_the_same_request_seed_and_budget_give_the_same_answer(slug: str) -> None:
    requests = requests_of(slug, 3, seed=11)
    first = [SearchBot(seed=5, iterations=8, horizon=6).act(Turn(r, math.inf)) for r in requests]
    again = [SearchBot(seed=5, iterations=8, horizon=6).act(Turn(r, math.inf)) for r in requests]
    assert first == again


def test_the_search_changes_greedys_answer_somewhere() -> None:
    """Guards against a search that always falls back to greedy's first choice."""
    overruled = 0
    for slug in ENGINES:
        for request in requests_of(slug, 4, seed=2):
            turn = Turn(request, math.inf)
            searched = SearchBot(seed=0, iterations=12, horizon=10).act(turn)
            overruled += searched != greedy_bot(slug).act(turn)
    assert overruled > 0


def test_it_makes_exactly_its_budget_of_rollouts_without_a_clock() -> None:
    request = requests_of("manila", 1, seed=4)[0]
    for budget in (8, 13):
        bot = SearchBot(seed=0, iterations=budget, horizon=3)
        bot.act(Turn(request, math.inf))
        assert bot.last_iterations == budget


def test_a_zero_budget_plays_greedys_choice() -> None:
    for slug in ENGINES:
        for request in requests_of(slug, 2, seed=8):
            turn = Turn(request, math.inf)
            bot = SearchBot(iterations=0)
            assert bot.act(turn) == greedy_bot(slug).act(turn)
            assert bot.last_iterations == 0


def test_the_cpu_cap_stops_the_search() -> None:
    request = requests_of("grog_island", 1, seed=6)[0]
    bot = SearchBot(seed=0, iterations=10**6, cpu_seconds=0.1, horizon=None)
    started = time.process_time()
    index = bot.act(Turn(request, math.inf))
    spent = time.process_time() - started
    assert 0 <= index < len(request["legal_actions"])
    assert 0 < bot.last_iterations < 10**6
    assert spent < 0.1 + 0.5, f"{spent:.2f} s of CPU for a 0.1 s cap"


@pytest.mark.parametrize("slug", ENGINES)
def test_it_answers_before_the_turns_deadline(slug: str) -> None:
    for request in requests_of(slug, 2, seed=9):
        bot = SearchBot(seed=0, iterations=10**6, horizon=None)
        started = time.monotonic()
        answer_by = started + 0.3
        index = bot.act(Turn(request, answer_by))
        assert time.monotonic() < answer_by
        assert 0 <= index < len(request["legal_actions"])
        assert bot.last_iterations > 0


@pytest.mark.parametrize("slug", ENGINES)
def test_it_sees_only_the_seats_view(slug: str) -> None:
    """Two real positions that differ only in what the seat cannot see get the same answer.

    The second position is the first with every secret the seat cannot see
    redrawn (``determinize`` from the seat's view, another seed); its
    request, and so the bot's answer, must not change.
    """
    for request in requests_of(slug, 2, seed=13):
        seat = request["game"]["seat"]
        other = determinize(slug, request["view"], seed="other secrets", players=3)
        again = protocol.act_request_for_state(
            other, game_id=request["game"]["id"], seat=seat, ply=request["ply"], deadline_ms=2000
        )
        assert (
            again["view"] == request["view"] and again["legal_actions"] == request["legal_actions"]
        )
        again["events"] = request["events"]  # the event log is the real game's, not the sample's
        again["request_id"] = request["request_id"]
        first = SearchBot(seed=2, iterations=8, horizon=6).act(Turn(request, math.inf))
        second = SearchBot(seed=2, iterations=8, horizon=6).act(Turn(again, math.inf))
        assert first == second


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="iterations"):
        SearchBot(iterations=-1)
    with pytest.raises(ValueError, match="no search bot for 'chess'"):
        SearchBot(engine="chess")
    request = requests_of("batavia", 1)[0]
    with pytest.raises(ValueError, match="plays manila, not batavia"):
        SearchBot(engine="manila").act(Turn(request, math.inf))


def test_the_reward_prefers_a_win_then_a_better_rank() -> None:
    assert reward([1, 2, 3], 0) == 1.0
    assert reward([1, 1, 3], 0) < reward([1, 2, 3], 0)
    assert reward([1, 2, 3], 1) > reward([1, 2, 3], 2) == 0.0


def test_grog_islands_score_of_a_game_in_progress_counts_objectives() -> None:
    state = engines.get("grog_island").new_game(3)
    dealer, rng = Dealer(1), random.Random(1)
    while not state.is_over and state.round < 3:
        seat = state.to_move[0]
        action = dealer.choose(state) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
    assert len(scores(state)) == 3 and all(isinstance(s, int) for s in scores(state))
    while not state.is_over:
        seat = state.to_move[0]
        action = dealer.choose(state) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
    assert scores(state) == state.outcome()["scores"]


def test_cargo_noirs_score_of_a_game_in_progress_counts_the_warehouse() -> None:
    """Goods not yet smuggled are worth victory points to come; finished games score as is."""
    state = engines.get("cargo_noir").new_game(3)
    dealer, rng = Dealer(2), random.Random(2)
    while not state.is_over and not any(sum(w) >= 3 for w in state.warehouse):
        seat = state.to_move[0]
        action = dealer.choose(state) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
    cards = state.outcome()["scores"]
    hoarder = next(seat for seat, w in enumerate(state.warehouse) if sum(w) >= 3)
    assert scores(state)[hoarder] > cards[hoarder]
    richer = state.clone()
    richer.warehouse[hoarder][0] += 2
    assert scores(richer)[hoarder] > scores(state)[hoarder]
    while not state.is_over:
        seat = state.to_move[0]
        action = dealer.choose(state) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
    assert scores(state) == state.outcome()["scores"]


def test_the_margin_grows_with_the_lead_and_is_even_when_level() -> None:
    assert margin([10, 10, 3], 0) == 0.5
    assert margin([12, 10, 3], 0) > 0.5 > margin([10, 12, 3], 0)
    assert margin([20, 10, 3], 0) > margin([12, 10, 3], 0)
    assert 0.0 <= margin([0, 10, 0], 0) < margin([9, 10, 0], 0) <= 1.0


DECISIONS_SCRIPT = """
import json, math, sys
from harbormaster_bot import Turn
from harbormaster_bot.examples.search import SearchBot
requests = json.load(sys.stdin)
bot = SearchBot(seed=4, iterations=8, horizon=6)
print(json.dumps([bot.act(Turn(r, math.inf)) for r in requests]))
"""


def test_two_processes_with_different_hash_seeds_decide_alike() -> None:
    """Identical decisions across runs: nothing depends on Python's per-process hash seed."""
    requests = [r for slug in ENGINES for r in requests_of(slug, 2, seed=21)]
    answers = []
    for hash_seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", DECISIONS_SCRIPT],
            input=json.dumps(requests),
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            check=True,
            timeout=120,
        )
        answers.append(json.loads(done.stdout))
    assert answers[0] == answers[1]
    assert len(answers[0]) == len(requests)

"""The greedy example bots: always legal, deterministic, better than random, SDK-ready."""

from __future__ import annotations

import math
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from harbormaster_bot import Turn, check, serve_in_background
from harbormaster_bot.examples.greedy import CHOOSERS, greedy_bot
from harbormaster_bot.examples.greedy.cargo_noir import plan_value
from harbormaster_bot.examples.greedy.manila import reach_probability
from harbormaster_bot.examples.random_bot import RandomBot

import engines
from bench.bots import greedy_versus_random, play_game, table_size
from botapi import protocol
from engines import CHANCE, Dealer

SLUGS = sorted(CHOOSERS)
ROOT = Path(__file__).resolve().parents[2]


def test_there_is_a_greedy_bot_for_every_engine() -> None:
    assert set(SLUGS) == {engine.slug for engine in engines.all_engines()}


@pytest.mark.parametrize("slug", SLUGS)
def test_greedy_only_plays_legal_actions(slug: str) -> None:
    """All-greedy tables and greedy-vs-random tables, every decision checked."""
    decisions: Counter[str] = Counter()

    def check_legal(seat: int, request: dict[str, Any], action: dict[str, Any]) -> None:
        assert any(protocol.json_equal(action, legal) for legal in request["legal_actions"])
        decisions[action["type"]] += 1

    players = table_size(slug)
    for seed in range(2):
        play_game(slug, [greedy_bot(slug) for _ in range(players)], seed, on_decision=check_legal)
    for seed in range(2, 4):
        bots = [greedy_bot(slug)] + [RandomBot(seed=s) for s in range(1, players)]
        play_game(slug, bots, seed, on_decision=check_legal)
    assert len(decisions) >= 4, f"too few kinds of decision exercised: {decisions}"


@pytest.mark.parametrize("slug", SLUGS)
def test_greedy_is_deterministic(slug: str) -> None:
    """The same seed gives the same game; the same request the same answer."""
    players = table_size(slug)
    logs: list[list[tuple[int, dict[str, Any]]]] = []
    requests: list[dict[str, Any]] = []
    for _ in range(2):
        log: list[tuple[int, dict[str, Any]]] = []

        def record(seat: int, request: dict[str, Any], action: dict[str, Any]) -> None:
            log.append((seat, action))  # noqa: B023 - one log per game, used at once
            if len(requests) < 40:
                requests.append(request)

        play_game(slug, [greedy_bot(slug) for _ in range(players)], seed=7, on_decision=record)
        logs.append(log)
    assert logs[0] == logs[1]
    fresh = greedy_bot(slug)
    for request in requests:
        first = fresh.act(Turn(request=request, answer_by=math.inf))
        again = greedy_bot(slug).act(Turn(request=request, answer_by=math.inf))
        assert first == again


@pytest.mark.parametrize("slug", SLUGS)
def test_greedy_beats_random(slug: str) -> None:
    """20 seeded games (so the figure is fixed): greedy wins most and ranks far better."""
    summary = greedy_versus_random(slug, games=20)
    assert summary.win_rate >= 0.6, summary
    assert summary.greedy_mean_rank + 0.75 <= summary.random_mean_rank, summary


@pytest.mark.parametrize("slug", SLUGS)
def test_greedy_answers_signed_http_requests(slug: str) -> None:
    with serve_in_background(greedy_bot(), port=0, secret="greedy-test") as bot:
        assert check.main([bot.url, "--secret", "greedy-test", "--engine", slug]) == 0


def _opening_request(slug: str, game: str = "g1") -> dict[str, Any]:
    engine = engines.get(slug)
    state = engine.new_game(table_size(slug))
    dealer = Dealer(3)
    while state.to_move == [CHANCE]:
        state.apply(CHANCE, dealer.choose(state))
    seat = state.to_move[0]
    return protocol.act_request_for_state(state, game_id=game, seat=seat, ply=0, deadline_ms=1000)


def test_a_bot_for_one_game_refuses_another() -> None:
    request = _opening_request("batavia")
    with pytest.raises(ValueError, match="plays manila, not batavia"):
        greedy_bot("manila").act(Turn(request=request, answer_by=math.inf))


def test_an_unknown_game_gets_the_first_legal_action() -> None:
    request = _opening_request("batavia")
    request["game"]["engine"] = "sample"
    assert greedy_bot("manila").act(Turn(request=request, answer_by=math.inf)) == 0


def test_an_unknown_engine_name_is_refused_up_front() -> None:
    with pytest.raises(ValueError, match="no greedy bot"):
        greedy_bot("chess")


def test_the_greedy_bots_need_neither_engines_nor_django() -> None:
    """A bot author installs harbormaster-bot alone: the examples must import without the rest."""
    code = (
        "import sys\n"
        "for name in ('django', 'engines', 'jsonschema', 'httpx'):\n"
        "    sys.modules[name] = None\n"
        "from harbormaster_bot.examples.greedy import greedy_bot\n"
        "greedy_bot('manila')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


def test_manila_reach_probability() -> None:
    assert reach_probability(13, 1, 14) == pytest.approx(1.0)
    assert reach_probability(8, 1, 14) == pytest.approx(1 / 6)
    assert reach_probability(0, 1, 14) == 0.0
    assert reach_probability(2, 2, 14) == pytest.approx(1 / 36)  # double six
    assert reach_probability(14, 0, 14) == 1.0


def test_cargo_noir_plan_values_the_seed_examples() -> None:
    assert plan_value(Counter({"cars": 3, "weapons": 1})) == 9 + 1
    assert plan_value(Counter({"jewels": 4, "wild": 1})) == 25
    assert plan_value(Counter({"alcohol": 1, "art": 1, "gold": 1})) == 6

"""Generic tests of the engine protocol, run for every engine and player count.

A new engine gets all of them by registering itself; the toy engine from
``toy.py`` proves the tests themselves work.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines import CHANCE, Dealer, IllegalAction, InvalidGame, registry
from tests.engines.helpers import perturb_secrets, random_game, random_steps
from tests.engines.toy import TOY

ALL = [*engines.all_engines(), TOY]
CASES = [
    pytest.param(engine, n, id=f"{engine.slug}-{n}p")
    for engine in ALL
    for n in range(engine.min_players, engine.max_players + 1)
]
TERMINATION_SEEDS = 100
"""Random games per engine and table size; each is played once (the replay is tested below)."""
DEEP_SEEDS = 8


@pytest.fixture(autouse=True)
def _toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    registry.all_engines()  # discover the real engines first
    monkeypatch.setitem(registry._ENGINES, TOY.slug, TOY)


def _max_legal(engine: engines.Engine) -> int:
    return engine.max_legal_actions


@pytest.mark.parametrize(("engine", "n"), CASES)
def test_random_play_terminates_with_sane_chance_and_outcome(engine, n) -> None:
    limit = _max_legal(engine)
    for seed in range(TERMINATION_SEEDS):
        keys: set[str] = set()
        final = None
        for state, seat, _ in random_steps(engine, n, seed):
            final = state  # the one state, mutated by each step: over once the loop ends
            if seat == CHANCE:
                key = state.chance_key()
                assert key not in keys, f"chance key {key!r} repeats (seed {seed})"
                keys.add(key)
                outcomes = state.chance_outcomes()
                assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
                assert all(p > 0 for _, p in outcomes)
            else:
                assert 0 <= seat < n
                legal = state.legal_actions(seat)
                assert 0 < len(legal) <= limit, f"{len(legal)} legal actions (seed {seed})"
        assert final is not None and final.is_over
        outcome = final.outcome()
        assert len(outcome["scores"]) == n and len(outcome["ranks"]) == n
        assert outcome["ranks"] == engines.ranks_from_scores(outcome["scores"]) or all(
            1 <= r <= n for r in outcome["ranks"]
        )
        assert min(outcome["ranks"]) == 1
        json.dumps(outcome)


@pytest.mark.parametrize(("engine", "n"), CASES)
def test_replay_json_round_trip_and_clone(engine, n) -> None:
    for seed in range(DEEP_SEEDS):
        final, log = random_game(engine, n, seed)
        replayed = engines.replay(engine.slug, n, {}, log)
        assert replayed.to_json() == final.to_json()
        assert replayed.outcome() == final.outcome()
        for step, (state, seat, action) in enumerate(random_steps(engine, n, seed)):
            if step % 7:
                continue
            data = state.to_json()
            text = json.dumps(data)
            rebuilt = engine.from_json(json.loads(text))
            assert rebuilt.to_json() == data
            copy = state.clone()
            assert copy.to_json() == data
            copy.apply(seat, action)
            rebuilt.apply(seat, action)
            assert state.to_json() == data, "applying to a clone changed the original"
            assert rebuilt.to_json() == copy.to_json()


@pytest.mark.parametrize(("engine", "n"), CASES)
def test_every_listed_action_applies_and_views_are_json(engine, n) -> None:
    for seed in range(3):
        for state, seat, _ in random_steps(engine, n, seed):
            if seat == CHANCE:
                choices = [a for a, _ in state.chance_outcomes()]
            else:
                choices = state.legal_actions(seat)
            for action in choices:
                assert isinstance(action, dict) and isinstance(action["type"], str)
                text = engine.describe(action)
                assert isinstance(text, str) and text.strip()
                state.clone().apply(seat, json.loads(json.dumps(action)))
            for viewer in [None, *range(n)]:
                json.dumps(state.view(viewer))
            json.dumps(state.events)


def _bad_inputs(state: engines.State, n: int) -> list[tuple[Any, Any]]:
    seat = state.to_move[0]
    legal = [a for a, _ in state.chance_outcomes()] if seat == CHANCE else state.legal_actions(seat)
    others = [s for s in [CHANCE, *range(n)] if s != seat]
    bad: list[tuple[Any, Any]] = [
        (seat, None),
        (seat, "pass"),
        (seat, ["type", "pass"]),
        (seat, {}),
        (seat, {"type": 7}),
        (seat, {"type": "no_such_action_type"}),
        (seat, {**legal[0], "unexpected_key": 1}),
        *[
            (seat, {**legal[0], key: bool(v)})
            for key, v in legal[0].items()
            if type(v) is int and v in (0, 1)
        ],
        *[(seat, {**legal[0], key: float(v)}) for key, v in legal[0].items() if type(v) is int],
        (n, legal[0]),
        (True, legal[0]),
        ("0", legal[0]),
    ]
    bad += [(other, legal[0]) for other in others]
    return bad


@pytest.mark.parametrize(("engine", "n"), CASES)
def test_illegal_actions_are_refused_without_change(engine, n) -> None:
    for seed in range(3):
        for step, (state, _, _) in enumerate(random_steps(engine, n, seed)):
            if step % 5:
                continue
            before = state.to_json()
            for seat, action in _bad_inputs(state, n):
                with pytest.raises(IllegalAction) as info:
                    state.apply(seat, action)
                assert str(info.value)
                assert state.to_json() == before, f"refused {action!r} but changed the state"
        final, _ = random_game(engine, n, seed)
        with pytest.raises(IllegalAction, match="over"):
            final.apply(0, {"type": "pass"})


@pytest.mark.parametrize("engine", ALL, ids=lambda e: e.slug)
def test_bad_setup_is_refused(engine) -> None:
    with pytest.raises(InvalidGame):
        engine.new_game(engine.max_players + 1)
    with pytest.raises(InvalidGame):
        engine.new_game(engine.min_players - 1)
    with pytest.raises(InvalidGame, match="unknown option"):
        engine.new_game(engine.min_players, {"no_such_option": 1})
    for name, default in engine.options.items():
        wrong = "yes" if not isinstance(default, str) else 1
        with pytest.raises(InvalidGame, match=name):
            engine.new_game(engine.min_players, {name: wrong})


def test_unknown_engine_has_a_clear_error() -> None:
    with pytest.raises(InvalidGame, match="unknown engine 'chess'; known engines: "):
        engines.get("chess")


def test_dealer_is_keyed_and_stable() -> None:
    dealer = Dealer(12345)
    assert dealer.uniform("v1/move1/jade") == Dealer("12345").uniform("v1/move1/jade")
    assert dealer.uniform("v1/move1/jade") != dealer.uniform("v1/move1/silk")
    # A fixed value: the draw must not change across processes or releases.
    assert round(dealer.uniform("v1/move1/jade"), 12) == round(
        int.from_bytes(__import__("hashlib").sha256(b"12345\x00v1/move1/jade").digest()[:8], "big")
        / 2**64,
        12,
    )


def _sampled_state(engine, n: int, seed: int, stop: float) -> engines.State | None:
    """The state before step ``stop`` x (steps - 1) of random game ``seed``.

    The game is played twice, once to count its steps and once to stop at the
    chosen one, rather than cloning every state of it (most of the time).
    """
    steps = sum(1 for _ in random_steps(engine, n, seed))
    if not steps:
        return None
    chosen = int(stop * (steps - 1))
    for step, (state, _, _) in enumerate(random_steps(engine, n, seed)):
        if step == chosen:
            return state.clone()
    raise AssertionError("the same seed played a shorter game")


@pytest.mark.parametrize(("engine", "n"), CASES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), stop=st.floats(0, 1), salt=st.integers(0, 2**31))
def test_no_leak_of_other_seats_secrets(engine, n, seed, stop, salt) -> None:
    state = _sampled_state(engine, n, seed, stop)
    if state is None:
        return
    rng = random.Random(salt)
    spectator = state.view(None)
    assert "private" not in spectator
    assert perturb_secrets(state, None, rng).view(None) == spectator
    for seat in range(n):
        other = perturb_secrets(state, seat, rng)
        assert other.view(seat) == state.view(seat), f"seat {seat} sees another seat's secret"
        assert other.legal_actions(seat) == state.legal_actions(seat)
        assert other.to_move == state.to_move

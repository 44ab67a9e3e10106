"""The per-position cache of legal actions and chance outcomes (issue #17).

Computed once per position, dropped by every move, never carried into a
clone or a state rebuilt from JSON, and not corruptible through the lists
it hands out.
"""

from __future__ import annotations

from typing import Any

import pytest

import engines
from engines import CHANCE, Dealer, IllegalAction
from tests.engines.helpers import random_steps

CASES = [
    pytest.param(engine, n, id=f"{engine.slug}-{n}p")
    for engine in engines.all_engines()
    for n in (engine.min_players, engine.max_players)
]


class _Counting:
    """Counts the calls of a state's ``_legal_actions``/``_chance_outcomes``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, cls: type) -> None:
        self.calls = 0
        for name in ("_legal_actions", "_chance_outcomes"):
            original = getattr(cls, name)

            def counted(*args: Any, _original: Any = original) -> Any:
                self.calls += 1
                return _original(*args)

            monkeypatch.setattr(cls, name, counted)


@pytest.mark.parametrize(("engine", "n"), CASES)
def test_each_position_is_computed_once(engine, n, monkeypatch) -> None:
    """List, then apply: the check finds the list cached (the bench's and referee's pattern)."""
    state = engine.new_game(n)
    counting = _Counting(monkeypatch, type(state))
    dealer = Dealer(5)
    steps = 0
    while not state.is_over and steps < 300:
        seat = state.to_move[0]
        if seat == CHANCE:
            action = dealer.choose(state)
        else:
            legal = state.legal_actions(seat)
            assert state.legal_actions(seat) == legal
            action = legal[steps % len(legal)]
        state.apply(seat, action)
        steps += 1
    assert counting.calls == steps


@pytest.mark.parametrize(("engine", "n"), CASES)
def test_clones_and_json_copies_start_without_the_cache(engine, n) -> None:
    for step, (state, seat, action) in enumerate(random_steps(engine, n, seed=2)):
        if step % 11:
            continue
        listed = state._listed(seat)
        for copy in (state.clone(), engine.from_json(state.to_json())):
            assert copy._memo == {}
            copy.apply(seat, action)
            assert state._listed(seat) is listed  # the original's cache is untouched
            assert copy._memo == {}


@pytest.mark.parametrize(("engine", "n"), CASES)
def test_handed_out_lists_cannot_corrupt_the_cache(engine, n) -> None:
    for step, (state, seat, _) in enumerate(random_steps(engine, n, seed=4)):
        if step % 13:
            continue
        if seat == CHANCE:
            first = state.chance_outcomes()
            expected = list(first)
            first.clear()
            assert state.chance_outcomes() == expected
        else:
            first = state.legal_actions(seat)
            expected = list(first)
            first.reverse()
            first.append({"type": "made_up"})
            assert state.legal_actions(seat) == expected
            with pytest.raises(IllegalAction):
                state.check_action(seat, {"type": "made_up"})


def test_a_move_and_forget_cached_actions_drop_the_cache() -> None:
    engine = engines.get("manila")
    state = engine.new_game(3)
    dealer = Dealer(1)
    while state.to_move == [CHANCE]:
        state.apply(CHANCE, dealer.choose(state))
    seat = state.to_move[0]
    before = state.legal_actions(seat)
    state.apply(seat, before[0])
    assert state._memo == {}
    seat = state.to_move[0]
    state.legal_actions(seat)
    assert state._memo != {}
    state.forget_cached_actions()
    assert state._memo == {}


def test_apply_checked_plays_on_a_clone_like_apply() -> None:
    """The referee's path: check on the state, play the same action on its clone."""
    engine = engines.get("grog_island")
    for state, seat, action in random_steps(engine, 3, seed=7):
        state.check_action(seat, action)
        trusted, checked = state.clone(), state.clone()
        trusted.apply_checked(seat, action)
        checked.apply(seat, action)
        assert trusted.to_json() == checked.to_json()

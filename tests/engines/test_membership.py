"""The cheap membership test of ``check_action`` refuses exactly what strict JSON equality refused.

``engines.base.is_listed`` replaced ``any(same_json(a, c) for c in legal if c == a)``
(issue #17). The old function is kept here, verbatim, as the oracle: for random
positions of every engine and random mutations of their listed actions (type
confusions ``true``/``1``/``1.0``/``"1"``, extra and missing keys, nested lists
and dicts, values borrowed from other actions) both must agree, and
``check_action`` must accept or refuse accordingly.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines import CHANCE, IllegalAction
from engines.base import is_listed
from tests.engines.helpers import random_steps


def same_json(a: Any, b: Any) -> bool:
    """The old strict equality (engines/base.py before #17): the oracle."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def old_is_listed(action: Any, legal: list[dict[str, Any]]) -> bool:
    return any(same_json(action, candidate) for candidate in legal if candidate == action)


CONFUSIONS: dict[type, list[Any]] = {
    bool: [1, 0, 1.0, "true", None],
    int: [True, False, 1.0, 0.0, "1", None, [1]],
    float: [1, True, "1.0"],
    str: [1, ["x"], {"x": 1}, None, ""],
    type(None): [0, False, "", []],
}


def mutate(value: Any, rng: random.Random, pool: list[Any]) -> Any:
    """One random change of a JSON value, often one that Python's ``==`` cannot see."""
    kind = rng.randrange(7)
    if kind == 0 and type(value) in CONFUSIONS:
        confusions = [*CONFUSIONS[type(value)]]
        if isinstance(value, bool | int | float) and not isinstance(value, bool):
            confusions += [float(value), bool(value), str(value), value + 1]
        if isinstance(value, bool):
            confusions += [int(value), float(value)]
        return rng.choice(confusions)
    if kind == 1:
        return [value]
    if kind == 2:
        return {"value": value}
    if kind == 3 and pool:
        return copy.deepcopy(rng.choice(pool))
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        out = dict(value)
        move = rng.randrange(4)
        if move == 0:
            del out[key]
        elif move == 1:
            out["extra"] = rng.choice([1, True, "x", None])
        elif move == 2:
            out[key] = mutate(value[key], rng, pool)
        else:  # the same keys in another order: still the same action
            out = dict(reversed(list(value.items())))
        return out
    if isinstance(value, list) and value:
        out = list(value)
        i = rng.randrange(len(out))
        out[i] = mutate(out[i], rng, pool)
        return out
    return copy.deepcopy(value)


CASES = [(engine.slug, n) for engine in engines.all_engines() for n in (engine.min_players,)]


@pytest.mark.parametrize(("slug", "n"), CASES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), depth=st.integers(0, 400), salt=st.integers(0, 2**32))
def test_membership_agrees_with_strict_json_equality(slug, n, seed, depth, salt) -> None:
    engine = engines.get(slug)
    length = sum(1 for _ in random_steps(engine, n, seed))
    state = None
    for step, (state, _, _) in enumerate(random_steps(engine, n, seed)):  # noqa: B007
        if step == depth % length:
            break
    assert state is not None and not state.is_over
    seat = state.to_move[0]
    legal = [a for a, _ in state.chance_outcomes()] if seat == CHANCE else state.legal_actions(seat)
    rng = random.Random(salt)
    values = [v for a in legal for v in a.values()]
    for _ in range(25):
        action = mutate(copy.deepcopy(rng.choice(legal)), rng, values + legal)
        expected = old_is_listed(action, legal)
        assert is_listed(action, legal) == expected, action
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            continue
        before = state.to_json()
        if expected:
            state.check_action(seat, action)
        else:
            with pytest.raises(IllegalAction):
                state.check_action(seat, action)
        assert state.to_json() == before


def test_type_confusions_are_refused() -> None:
    legal = [{"type": "bid", "amount": 1}, {"type": "pass"}, {"type": "x", "to": [1, "a"]}]
    for action in (
        {"type": "bid", "amount": True},
        {"type": "bid", "amount": 1.0},
        {"type": "bid", "amount": "1"},
        {"type": "bid", "amount": [1]},
        {"type": "bid"},
        {"type": "bid", "amount": 1, "extra": None},
        {"type": "x", "to": [True, "a"]},
        {"type": "x", "to": (1, "a")},
    ):
        assert not is_listed(action, legal), action
        assert not old_is_listed(action, legal), action
    assert is_listed({"amount": 1, "type": "bid"}, legal)
    assert is_listed({"type": "x", "to": [1, "a"]}, legal)


def test_a_loose_match_before_the_strict_one_is_skipped() -> None:
    legal = [{"type": "t", "v": True}, {"type": "t", "v": 1.0}, {"type": "t", "v": 1}]
    assert is_listed({"type": "t", "v": 1}, legal)
    assert is_listed({"type": "t", "v": 1.0}, legal)
    assert not is_listed({"type": "t", "v": "1"}, legal)


@pytest.mark.parametrize(("slug", "n"), CASES)
def test_a_field_wrapped_in_a_list_or_object_is_refused_not_a_crash(slug, n) -> None:
    """Explainers read such fields as names; the refusal must still be an IllegalAction."""
    engine = engines.get(slug)
    for step, (state, seat, _) in enumerate(random_steps(engine, n, seed=3)):
        if step % 5:
            continue
        listed = (
            [a for a, _ in state.chance_outcomes()] if seat == CHANCE else state.legal_actions(seat)
        )
        for action in listed[:10]:
            for key in action:
                if key == "type":
                    continue
                for wrapped in ([action[key]], {"v": action[key]}):
                    with pytest.raises(IllegalAction):
                        state.check_action(seat, {**action, key: wrapped})

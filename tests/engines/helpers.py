"""Shared helpers for engine tests: random play, forcing chance, perturbing secrets."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

from engines import CHANCE, Dealer, Engine, State

Log = list[tuple[int, dict[str, Any]]]


def random_steps(
    engine: Engine,
    num_players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    max_steps: int = 20_000,
) -> Iterator[tuple[State, int, dict[str, Any]]]:
    """Yield ``(state, seat, action)`` before each step of a random game.

    Chance is chosen by ``Dealer(seed)``; players pick uniformly with a
    ``random.Random(seed)``. The state is mutated after each yield.
    """
    state = engine.new_game(num_players, options)
    dealer = Dealer(seed)
    rng = random.Random(seed)
    for _ in range(max_steps):
        if state.is_over:
            return
        seat = state.to_move[0]
        action = dealer.choose(state) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        yield state, seat, action
        state.apply(seat, action)
    raise AssertionError(f"{engine.slug}: no end after {max_steps} steps (seed {seed})")


def random_game(
    engine: Engine, num_players: int, seed: int, options: dict[str, Any] | None = None
) -> tuple[State, Log]:
    """Play a whole random game; return the final state and the action log."""
    log: Log = []
    state = None
    for state, seat, action in random_steps(engine, num_players, seed, options):  # noqa: B007
        log.append((seat, copy.deepcopy(action)))
    final = engine.new_game(num_players, options)
    for seat, action in log:
        final.apply(seat, action)
    return final, log


def force_chance(state: State, **match: Any) -> dict[str, Any]:
    """Apply the chance outcome whose fields equal ``match`` (e.g. ``good="jade"``)."""
    assert state.to_move == [CHANCE], f"chance is not to move: {state.to_move}"
    for action, _ in state.chance_outcomes():
        if all(action.get(k) == v for k, v in match.items()):
            state.apply(CHANCE, action)
            return action
    raise AssertionError(f"no chance outcome matches {match}: {state.chance_outcomes()}")


def _strings(value: Any, found: set[str]) -> set[str]:
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, list):
        for item in value:
            _strings(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, found)
    return found


def perturb(value: Any, rng: random.Random, strings: list[str]) -> Any:
    """Change every leaf of a JSON value, keeping its shape (list lengths, dict keys).

    Strings are swapped for other strings of the same secrets, ints shifted,
    bools flipped, lists shuffled: a view that reads any secret value (not
    just a length) will change.
    """
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice((1, 2, 3))
    if isinstance(value, float):
        return value + 1.5
    if isinstance(value, str):
        others = [s for s in strings if s != value]
        return rng.choice(others) if others else value + "~"
    if isinstance(value, list):
        items = [perturb(v, rng, strings) for v in value]
        rng.shuffle(items)
        return items
    if isinstance(value, dict):
        return {k: perturb(v, rng, strings) for k, v in value.items()}
    return value


def perturb_secrets(state: State, keep_seat: int | None, rng: random.Random) -> State:
    """A copy of ``state`` with every secret changed except ``private[keep_seat]``."""
    data = copy.deepcopy(state.to_json())
    strings = sorted(_strings(data["private"], _strings(data["hidden"], set())))
    data["hidden"] = perturb(data["hidden"], rng, strings)
    data["private"] = [
        p if seat == keep_seat else perturb(p, rng, strings)
        for seat, p in enumerate(data["private"])
    ]
    return type(state).engine.from_json(data)

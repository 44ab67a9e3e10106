"""Only the seats to move have legal actions, and chance has outcomes only when it moves.

``State.apply`` accepts at once an action object it finds in the list cached
for the seat, without asking ``to_move`` again: a non-empty list means the
seat is to move. That holds because every engine's ``_legal_actions`` lists
nothing for a seat that is not to move and ``_chance_outcomes`` nothing
unless chance moves (the protocol of ``engines.base``). This test holds every
registered engine to it, at positions all through seeded random games.
"""

from __future__ import annotations

import pytest

import engines
from engines import CHANCE
from tests.engines.helpers import random_steps

CASES = [
    pytest.param(engine, n, id=f"{engine.slug}-{n}p")
    for engine in engines.all_engines()
    for n in (engine.min_players, engine.max_players)
]


@pytest.mark.parametrize(("engine", "n"), CASES)
def test_nothing_is_listed_for_whoever_is_not_to_move(engine, n) -> None:
    checked = 0
    final = None
    for step, (state, _, _) in enumerate(random_steps(engine, n, seed=11)):
        final = state
        if step % 7:
            continue
        movers = state.to_move
        for seat in [CHANCE, *range(n)]:
            if seat in movers:
                listed = state.chance_outcomes() if seat == CHANCE else state.legal_actions(seat)
                assert listed, f"seat {seat} is to move with nothing listed (step {step})"
            elif seat == CHANCE:
                assert state.chance_outcomes() == [], f"outcomes off chance's turn (step {step})"
            else:
                assert state.legal_actions(seat) == [], f"seat {seat} not to move (step {step})"
        checked += 1
    assert checked > 10 and final is not None and final.is_over
    for seat in range(n):
        assert final.legal_actions(seat) == []
    assert final.chance_outcomes() == []

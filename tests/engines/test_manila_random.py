"""Manila: invariants over random games, with and without the pirate variant."""

from __future__ import annotations

import pytest

from engines import CHANCE
from tests.engines.helpers import random_steps
from tests.engines.test_manila_helpers import ENGINE

GOODS = ("ginseng", "nutmeg", "silk", "jade")


def _check_invariants(state) -> None:
    n = state.num_players
    assert all(cash >= 0 for cash in state.cash)
    assert all(0 <= state.mortgaged[s] <= state.shares[s] for s in range(n))
    if state.phase != "deal":
        for g, good in enumerate(GOODS):
            held = sum(p["shares"][good] for p in state.private)
            assert held + state.supply[g] == 5
    for s in range(n):
        assert sum(state.private[s]["shares"].values()) == state.shares[s]
    crews = sum(len(c) for c in state.crew)
    taken = sum(1 for o in state.spaces if o >= 0) + len(state.pirates)
    per = 4 if n == 3 else 3
    assert crews + taken + sum(state.accomplices) <= per * n


@pytest.mark.parametrize("replace", [False, True])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_games_keep_the_books_straight(n, replace) -> None:
    for seed in range(25):
        for state, seat, _ in random_steps(ENGINE, n, seed, {"pirates_replace": replace}):
            if seat != CHANCE:
                legal = state.legal_actions(seat)
                assert 0 < len(legal) <= ENGINE.max_legal_actions
            _check_invariants(state)

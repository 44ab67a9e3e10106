"""The board model carries only what its seat may see, and exactly the seat's legal actions."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import engines
from engines import CHANCE
from games.selectors.boards import board_model, legal_entries, random_position
from tests.engines.helpers import perturb_secrets

SLUGS = [e.slug for e in engines.all_engines()]


def test_model_holds_the_seats_view_and_its_legal_actions() -> None:
    state = random_position("manila", 3, 5, 8)  # the auction: seat 2 to bid
    mover = state.to_move[0]
    assert mover >= 0
    model = board_model(state, mover, {mover: "Ana"})
    assert model["engine"] == "manila"
    assert model["numPlayers"] == 3
    assert model["seat"] == mover
    assert model["view"] == state.view(mover)
    assert model["names"][str(mover)] == "Ana"
    assert model["toMove"] == [mover]
    legal = state.legal_actions(mover)
    assert [e["index"] for e in model["legal"]] == list(range(len(legal)))
    assert [e["action"] for e in model["legal"]] == legal
    assert [e["text"] for e in model["legal"]] == [state.engine.describe(a) for a in legal]
    assert model["events"] == [state.engine.describe_event(e) for e in state.events[-12:]]


def test_no_legal_actions_for_a_seat_not_to_move_nor_for_a_spectator() -> None:
    state = random_position("batavia", 4, 5, 60)
    mover = state.to_move[0]
    waiting = (mover + 1) % 4
    assert board_model(state, waiting)["legal"] == []
    spectator = board_model(state, None)
    assert spectator["legal"] == []
    assert spectator["view"] == state.view(None)
    assert "private" not in spectator["view"]


def test_chance_to_move_offers_nobody_an_action() -> None:
    state = engines.get("manila").new_game(3)
    assert state.to_move == [CHANCE]
    assert all(legal_entries(state, seat) == [] for seat in range(3))


def test_a_seat_outside_the_game_is_refused() -> None:
    state = random_position("manila", 3, 1, 0)
    with pytest.raises(engines.IllegalAction):
        board_model(state, 3)


def test_random_position_is_fixed_by_the_seed() -> None:
    a = random_position("batavia", 3, 11, 40)
    b = random_position("batavia", 3, 11, 40)
    assert a.to_json() == b.to_json()
    assert random_position("batavia", 3, 12, 40).to_json() != a.to_json()


def test_random_position_stops_at_the_end() -> None:
    state = random_position("manila", 3, 2, 100_000)
    assert state.is_over
    assert board_model(state, 0)["toMove"] == []


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plies=st.integers(0, 400), salt=st.integers(0, 2**31))
def test_the_model_never_depends_on_another_seats_secrets(slug, seed, plies, salt) -> None:
    """Changing every secret but the seat's own changes nothing in its model.

    Only while the game runs: at its end the engines reveal hands and shares on purpose.
    """
    rules = engines.get(slug)
    state = random_position(slug, rules.min_players, seed, plies)
    assume(not state.is_over)
    rng = random.Random(salt)
    assert board_model(perturb_secrets(state, None, rng), None) == board_model(state, None)
    for seat in range(state.num_players):
        other = perturb_secrets(state, seat, rng)
        assert board_model(other, seat) == board_model(state, seat), f"seat {seat} sees more"

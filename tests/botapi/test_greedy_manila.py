"""The greedy Manila example bot knows the stowaway rule as the engine applies it."""

from __future__ import annotations

import random

from harbormaster_bot.examples.greedy.manila import choose, placement_prices

from tests.engines.test_manila_helpers import place, voyage_start


def _penniless_seat_3_with_the_insurance_free():
    """Seat 3 has no money and no share left to mortgage; insurance is still free."""
    state = voyage_start(4, starts={"nutmeg": 0, "silk": 4, "jade": 5})
    state.cash[3] = 0
    state.mortgaged[3] = 2
    place(state, "jade", "jade", "silk")
    return state


def test_a_penniless_stowaway_counts_boat_seats_as_free() -> None:
    state = _penniless_seat_3_with_the_insurance_free()
    prices = placement_prices(state.view(3), state.legal_actions(3))
    assert prices == {"nutmeg": 0, "silk": 0, "jade": 0, "insurance": 0}


def test_a_player_with_money_pays_the_listed_prices() -> None:
    state = voyage_start(4, starts={"nutmeg": 0, "silk": 4, "jade": 5})
    state.cash[3] = 3
    state.mortgaged[3] = 2
    place(state, "jade", "jade", "silk")
    prices = placement_prices(state.view(3), state.legal_actions(3))
    assert prices == {"insurance": 0, "harbor_B": 3, "harbor_C": 2, "shipyard_B": 3,
                      "shipyard_C": 2, "pilot_small": 2, "nutmeg": 2}  # fmt: skip


def test_a_penniless_stowaway_takes_a_free_silk_seat_over_the_insurance() -> None:
    state = _penniless_seat_3_with_the_insurance_free()
    legal = state.legal_actions(3)
    assert legal[choose(state.view(3), legal, random.Random(0))] == {
        "type": "place",
        "space": "silk",
    }

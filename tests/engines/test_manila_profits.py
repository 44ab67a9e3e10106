"""Manila: profits, insurance, price rises, redeeming, the end at 30 and ranks."""

from __future__ import annotations

import pytest

from engines import IllegalAction
from tests.engines.test_manila_helpers import act, auction, duties, place, roll, voyage_start


def _last(state, kind):
    return [e for e in state.events if e["type"] == kind][-1]


def test_jade_crew_of_three_splits_36_two_red_one_yellow() -> None:
    state = voyage_start(4, starts={"nutmeg": 0, "silk": 4, "jade": 5})
    place(state, "jade", "jade", "pass", "pass")  # red = seat 0 (3), yellow = seat 1 (4)
    roll(state, nutmeg=1, silk=1, jade=1)
    place(state, "jade", "pass")  # red again (5)
    roll(state, nutmeg=1, silk=1, jade=6)
    place(state, "pass")
    roll(state, nutmeg=1, silk=1, jade=2)
    act(state, 0, "shipyard_order", goods=["nutmeg", "silk"])
    assert _last(state, "profits")["gains"] == [24, 12, 0, 0]
    assert state.cash == [30 - 3 - 5 + 24, 30 - 4 + 12, 30, 30]
    assert state.prices == [0, 0, 0, 5]
    assert state.phase == "auction" and state.voyage == 2


def test_two_boats_dock_a_pays_6_b_pays_8_c_empty_handed() -> None:
    state = voyage_start(4, starts={"nutmeg": 0, "silk": 4, "jade": 5})
    place(state, "pass", "harbor_A", "harbor_B", "harbor_C")  # orange, red, blue
    roll(state, nutmeg=1, silk=6, jade=6)
    place(state, "pass", "pass", "pass")
    roll(state, nutmeg=1, silk=6, jade=6)
    act(state, 0, "harbor_order", goods=["jade", "silk"])
    roll(state, nutmeg=1)  # nutmeg goes alone to shipyard A
    assert _last(state, "profits")["gains"] == [0, 6, 8, 0]
    assert state.cash == [30, 30 - 4 + 6, 30 - 3 + 8, 30 - 2]
    assert state.prices == [0, 0, 5, 5]


def test_only_ginseng_to_the_shipyard_a_pays_6_from_the_bank_b_nothing() -> None:
    state = voyage_start(4, ashore="nutmeg", starts={"ginseng": 0, "silk": 4, "jade": 5})
    place(state, "pass", "shipyard_A", "shipyard_B", "pass")  # blue on A, black on B
    roll(state, ginseng=1, silk=6, jade=6)
    place(state, "pass", "pass")
    roll(state, ginseng=1, silk=6, jade=6)
    act(state, 0, "harbor_order", goods=["silk", "jade"])
    roll(state, ginseng=1)
    assert {"type": "repaired", "good": "ginseng", "yard": "A"} in state.events
    assert state.cash == [30, 30 - 4 + 6, 30 - 3, 30]
    assert not any(e["type"] == "insurance_paid" for e in state.events)


def test_insurance_agent_on_yard_a_pays_orange_8_and_nothing_to_himself() -> None:
    state = voyage_start(4, starts={"nutmeg": 0, "silk": 4, "jade": 5})
    place(state, "pass", "shipyard_A", "shipyard_B", "pass")  # blue (1) on A, orange (2) on B
    roll(state, nutmeg=1, silk=1, jade=6)
    place(state, "insurance", "pass")  # blue becomes the agent: +10
    assert state.cash[1] == 30 - 4 + 10
    roll(state, nutmeg=1, silk=1, jade=6)  # jade docks
    place(state, "pass")
    roll(state, nutmeg=1, silk=1)
    act(state, 0, "shipyard_order", goods=["nutmeg", "silk"])
    assert _last(state, "insurance_paid") == {
        "type": "insurance_paid",
        "seat": 1,
        "owed": 8,
        "forgiven": 0,
    }
    assert state.cash == [30, 30 - 4 + 10 - 8, 30 - 3 + 8, 30]


def test_insurance_agent_who_cannot_pay_mortgages_and_the_bank_forgives_the_rest() -> None:
    state = voyage_start(4, starts={"nutmeg": 3, "silk": 3, "jade": 3})
    state.cash[1] = 0
    state.mortgaged[1] = 1  # one unmortgaged share left
    place(state, "pass", "insurance", "shipyard_C", "pass")
    assert state.cash[1] == 10
    roll(state, nutmeg=1, silk=1, jade=1)
    place(state, "pass", "pass")
    for _ in range(2):
        roll(state, nutmeg=1, silk=1, jade=1)
    assert len(state.legal_actions(0)) == 6  # 3 boats to the shipyard: any order
    act(state, 0, "shipyard_order", goods=["jade", "silk", "nutmeg"])
    # owed: 6 + 8 to the bank (empty yards A, B) + 15 to seat 2 on C = 29;
    # has 10 + 12 from mortgaging the last share = 22; 7 forgiven
    assert _last(state, "insurance_paid") == {
        "type": "insurance_paid",
        "seat": 1,
        "owed": 29,
        "forgiven": 7,
    }
    assert state.cash[1] == 0 and state.mortgaged[1] == 2
    assert state.cash[2] == 30 - 2 + 15  # paid in full


def test_redeeming_is_offered_from_the_harbor_master_to_those_who_can_pay_15() -> None:
    state = voyage_start(4, starts={"nutmeg": 3, "silk": 3, "jade": 3})
    state.mortgaged[1] = 2
    state.cash[1] = 40
    state.mortgaged[3] = 1
    state.cash[3] = 14  # cannot pay 15: not asked
    place(state, "pass", "pass", "pass", "pass")
    for _ in range(3):
        roll(state, nutmeg=1, silk=1, jade=1)
    act(state, 0, "shipyard_order", goods=["jade", "silk", "nutmeg"])
    assert state.phase == "redeem" and state.to_move == [1]
    assert state.legal_actions(1) == [
        {"type": "redeem", "count": 0},
        {"type": "redeem", "count": 1},
        {"type": "redeem", "count": 2},
    ]
    with pytest.raises(IllegalAction, match="may redeem 0 to 2 shares"):
        state.apply(1, {"type": "redeem", "count": 3})
    act(state, 1, "redeem", count=2)
    assert state.cash[1] == 10 and state.mortgaged[1] == 0
    assert state.phase == "auction" and state.voyage == 2


def _final_voyage(cash2=30):
    """Jade at 20 docks: the game ends at 30 (seat 3 has a mortgaged share)."""
    state = voyage_start(4, starts={"nutmeg": 0, "silk": 4, "jade": 5})
    state.prices = [5, 10, 0, 20]
    state.mortgaged[3] = 1
    state.cash[2] = cash2
    place(state, "pass", "pass", "pass", "pass")
    roll(state, nutmeg=1, silk=1, jade=6)
    roll(state, nutmeg=1, silk=1, jade=6)
    roll(state, nutmeg=1, silk=1)
    act(state, 0, "shipyard_order", goods=["nutmeg", "silk"])
    return state


def test_the_game_ends_when_a_price_reaches_30_and_mortgages_cost_15() -> None:
    state = _final_voyage()
    assert state.prices == [5, 10, 0, 30]
    assert state.is_over and state.to_move == [] and state.legal_actions(0) == []
    # hands: 0 ginseng+nutmeg, 1 silk+jade, 2 ginseng+silk, 3 nutmeg+jade (jade mortgaged)
    outcome = state.outcome()
    assert outcome["scores"] == [30 + 5 + 10, 30 + 0 + 30, 30 + 5 + 0, 30 + 10 + 30 - 15]
    assert outcome["ranks"] == [3, 1, 4, 2]
    final = state.view(None)["final"]
    assert final["shares"][3] == {"ginseng": 0, "nutmeg": 1, "silk": 0, "jade": 1}
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, {"type": "pass"})


def test_equal_wealth_shares_a_rank() -> None:
    state = _final_voyage(cash2=40)
    outcome = state.outcome()
    assert outcome["scores"] == [45, 60, 45, 55]
    assert outcome["ranks"] == [3, 1, 3, 2]


def test_no_redeeming_after_the_last_voyage() -> None:
    state = _final_voyage()
    state_json = state.to_json()
    assert state_json["phase"] == "over"
    assert not any(e["type"] == "redeemed" for e in state.events)


def test_a_second_voyage_starts_with_the_previous_harbor_master() -> None:
    state = voyage_start(4, starts={"nutmeg": 3, "silk": 3, "jade": 3})
    place(state, "pass", "pass", "pass", "pass")
    for _ in range(3):
        roll(state, nutmeg=1, silk=1, jade=1)
    act(state, 0, "shipyard_order", goods=["jade", "silk", "nutmeg"])
    auction(state, winner=2, amount=3)
    assert state.harbor_master == 2 and state.cash[2] == 27
    duties(state, "jade", {"ginseng": 3, "nutmeg": 3, "silk": 3}, buy="jade")
    assert state.to_move == [2] and state.view(None)["players"][2]["bought"]["jade"] == 1

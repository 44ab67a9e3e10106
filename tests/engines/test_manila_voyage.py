"""Manila: placement rounds, stowaways, movement, docking order, pirates and pilots."""

from __future__ import annotations

import pytest

from engines import CHANCE, IllegalAction
from engines.manila.data import IN_MANILA
from tests.engines.test_manila_helpers import act, place, roll, voyage_start


def _berths(state):
    """Where each boat of this voyage lies (read from the public events)."""
    view = state.view(None)
    berths = {good: boat["berth"] for good, boat in view["boats"].items()}
    if state.phase in ("auction", "redeem"):  # the voyage is settled; boats are off the board
        for event in state.events:
            if event["type"] == "docked":
                berths[event["good"]] = "harbor_" + event["dock"]
            elif event["type"] == "repaired":
                berths[event["good"]] = "shipyard_" + event["yard"]
    return berths


# -------------------------------------------------------------- placement
def test_three_players_place_twice_before_the_first_movement() -> None:
    state = voyage_start(3)
    assert state.accomplices == [4, 4, 4]
    place(state, "jade", "silk", "nutmeg")
    assert state.phase == "place" and state.to_move == [0] and state.round == 2
    place(state, "harbor_A", "harbor_B", "harbor_C")
    assert state.to_move == [CHANCE] and state.movement == 1
    roll(state, nutmeg=1, silk=1, jade=1)
    assert state.phase == "place" and state.round == 3 and state.accomplices == [2, 2, 2]


def test_four_players_move_after_each_single_round() -> None:
    state = voyage_start(4)
    assert state.accomplices == [3, 3, 3, 3]
    place(state, "jade", "silk", "nutmeg", "pass")
    assert state.to_move == [CHANCE] and state.movement == 1
    roll(state, nutmeg=1, silk=1, jade=1)
    assert state.queue == [0, 1, 2]  # seat 3 passed for the whole voyage


def test_boat_seats_fill_cheapest_first_and_insurance_pays_10_at_once() -> None:
    state = voyage_start(4)
    place(state, "jade", "jade", "insurance", "pirate")
    assert state.cash == [27, 26, 40, 25]
    assert state.view(None)["boats"]["jade"]["next_seat_cost"] == 5
    assert state.view(None)["pirate_ship"] == [3]
    assert state.view(None)["spaces"]["insurance"] == {"seat": 2, "cost": 0, "payout": None}


def test_a_taken_space_and_an_unaffordable_one_are_explained() -> None:
    state = voyage_start(4)
    place(state, "harbor_A")
    with pytest.raises(IllegalAction, match="harbor_A is taken by seat 0"):
        state.apply(1, {"type": "place", "space": "harbor_A"})
    with pytest.raises(IllegalAction, match="ginseng is ashore"):
        state.apply(1, {"type": "place", "space": "ginseng"})
    state.cash[1] = 1
    state.mortgaged[1] = 2
    state.forget_cached_actions()  # fields edited by hand: the cache cannot notice
    with pytest.raises(
        IllegalAction, match="may not place on pilot_large: it costs 5 pesos, only 1"
    ):
        state.apply(1, {"type": "place", "space": "pilot_large"})


def test_stowaway_places_on_any_free_boat_seat_for_free() -> None:
    state = voyage_start(4)
    state.cash[3] = 1
    state.mortgaged[3] = 2  # nothing left to mortgage: 1 peso available
    place(state, "insurance", "pilot_small", "harbor_C")  # every 0-2 peso space is gone
    legal = state.legal_actions(3)
    assert legal == [
        {"type": "place", "space": "nutmeg"},
        {"type": "place", "space": "silk"},
        {"type": "place", "space": "jade"},
        {"type": "pass"},
    ]
    act(state, 3, "place", space="jade")
    assert state.cash[3] == 1 and state.crew[3] == [3]
    assert state.events[-1] == {"type": "placed", "seat": 3, "space": "jade", "cost": 0}


def test_stowaway_without_money_may_board_for_free_while_the_insurance_is_free() -> None:
    # The rules: a player with no money and no share left to mortgage may place on
    # any free boat seat for free, even while the insurance office (cost 0) is free.
    state = voyage_start(4)
    state.cash[3] = 0
    state.mortgaged[3] = 2  # both shares mortgaged: nothing at all available
    place(state, "jade", "silk", "harbor_A")
    assert state.legal_actions(3) == [
        {"type": "place", "space": "nutmeg"},
        {"type": "place", "space": "silk"},
        {"type": "place", "space": "jade"},
        {"type": "place", "space": "insurance"},
        {"type": "pass"},
    ]
    act(state, 3, "place", space="silk")  # the silk boat's next seat costs 4
    assert state.cash[3] == 0 and state.mortgaged[3] == 2 and state.crew[2] == [1, 3]
    assert state.events[-1] == {"type": "placed", "seat": 3, "space": "silk", "cost": 0}


def test_stowaway_without_money_may_still_take_the_insurance_and_its_10_pesos() -> None:
    state = voyage_start(4)
    state.cash[3] = 0
    state.mortgaged[3] = 2
    place(state, "jade", "silk", "harbor_A")
    act(state, 3, "place", space="insurance")
    assert state.cash[3] == 10 and state.spaces[8] == 3


def test_stowaway_without_money_takes_only_boat_seats_and_the_insurance() -> None:
    state = voyage_start(4)
    state.cash[3] = 0
    state.mortgaged[3] = 2
    place(state, "jade", "silk", "harbor_A")
    with pytest.raises(IllegalAction, match="may not place on pirate: it costs 5 pesos"):
        state.apply(3, {"type": "place", "space": "pirate"})
    with pytest.raises(IllegalAction, match="may not place on shipyard_C: it costs 2 pesos"):
        state.apply(3, {"type": "place", "space": "shipyard_C"})


def test_a_player_who_can_pay_by_mortgaging_is_no_stowaway() -> None:
    state = voyage_start(4)
    state.cash[3] = 0  # two unmortgaged shares: 24 available
    place(state, "insurance", "pilot_small", "harbor_C")
    assert {"type": "place", "space": "harbor_A"} in state.legal_actions(3)
    act(state, 3, "place", space="jade")
    assert state.cash[3] == 12 - 3 and state.mortgaged[3] == 1


# --------------------------------------------------------------- movement
def test_each_boat_moves_exactly_its_die_and_excess_past_13_is_lost() -> None:
    state = voyage_start(4, starts={"nutmeg": 0, "silk": 4, "jade": 5})
    place(state, "pass", "pass", "pass", "pass")
    assert state.chance_key() == "v1/m1/nutmeg"
    roll(state, nutmeg=4, silk=2, jade=5)
    assert state.position[1:] == [4, 6, 10]
    roll(state, nutmeg=1, silk=1, jade=5)  # jade is 3 short of docking, rolls 5
    assert state.position[3] == IN_MANILA
    assert _berths(state)["jade"] == "harbor_A"
    assert {"type": "docked", "good": "jade", "dock": "A"} in state.events
    assert state.chance_key() == "v1/m3/nutmeg"  # a docked boat rolls no die
    assert [o["good"] for o, _ in state.chance_outcomes()] == ["nutmeg"] * 6


def test_two_boats_docking_in_one_movement_are_ordered_by_the_harbor_master() -> None:
    state = voyage_start(4, starts={"nutmeg": 0, "silk": 4, "jade": 5})
    place(state, "pass", "pass", "pass", "pass")
    roll(state, nutmeg=1, silk=6, jade=6)
    roll(state, nutmeg=1, silk=6, jade=6)
    assert state.phase == "harbor_order" and state.to_move == [0]
    assert state.legal_actions(0) == [
        {"type": "harbor_order", "goods": ["silk", "jade"]},
        {"type": "harbor_order", "goods": ["jade", "silk"]},
    ]
    act(state, 0, "harbor_order", goods=["jade", "silk"])
    assert _berths(state) == {"nutmeg": None, "silk": "harbor_B", "jade": "harbor_A"}


# ----------------------------------------------------------------- pirates
def _jade_and_ginseng_on_13(options=None):
    """Jade full (4 crew), ginseng with one free seat, both on 13 after movement 2."""
    state = voyage_start(
        4, ashore="silk", starts={"ginseng": 4, "nutmeg": 0, "jade": 5}, options=options
    )
    place(state, "jade", "jade", "jade", "jade")
    roll(state, ginseng=5, nutmeg=1, jade=4)
    place(state, "ginseng", "ginseng", "pirate", "pirate")
    roll(state, ginseng=4, nutmeg=1, jade=4)
    assert state.position == [13, 2, -1, 13]
    return state


def test_boarding_example_captain_boards_ginseng_and_the_second_becomes_captain() -> None:
    state = _jade_and_ginseng_on_13()
    assert state.phase == "board" and state.to_move == [2]
    assert state.legal_actions(2) == [{"type": "board", "good": "ginseng"}, {"type": "stay"}]
    act(state, 2, "board", good="ginseng")
    assert state.crew[0] == [0, 1, 2] and state.pirates == [3]
    # no boat on 13 has a free seat now: the new captain has nothing to decide
    assert state.phase == "place" and state.round == 3 and state.to_move == [0]


def test_after_the_captain_stays_the_second_pirate_decides() -> None:
    # The rules: the captain decides first, then the second pirate decides likewise,
    # whether the captain boarded or stayed.
    state = _jade_and_ginseng_on_13()
    act(state, 2, "stay")
    assert state.phase == "board" and state.to_move == [3]
    assert state.legal_actions(3) == [{"type": "board", "good": "ginseng"}, {"type": "stay"}]
    assert state.view(None)["pirate_ship"] == [2, 3]


def test_a_second_pirate_who_boards_after_the_captain_stayed_leaves_the_captain_in_command() -> (
    None
):
    state = _jade_and_ginseng_on_13()
    act(state, 2, "stay")
    act(state, 3, "board", good="ginseng")
    assert state.crew[0] == [0, 1, 3] and state.pirates == [2]
    assert state.events[-2:] == [
        {"type": "stayed", "seat": 2},
        {"type": "boarded", "seat": 3, "good": "ginseng"},
    ]
    assert state.phase == "place" and state.round == 3 and state.to_move == [0]


def test_when_both_pirates_stay_both_remain_on_the_ship() -> None:
    state = _jade_and_ginseng_on_13()
    act(state, 2, "stay")
    act(state, 3, "stay")
    assert state.pirates == [2, 3] and state.phase == "place" and state.to_move == [0]


def test_one_player_holding_both_pirate_spaces_decides_twice() -> None:
    state = voyage_start(4, ashore="silk", starts={"ginseng": 4, "nutmeg": 0, "jade": 5})
    place(state, "jade", "jade", "pirate", "jade")
    roll(state, ginseng=5, nutmeg=1, jade=4)
    place(state, "ginseng", "ginseng", "pirate", "pass")
    roll(state, ginseng=4, nutmeg=1, jade=4)
    assert state.position == [13, 2, -1, 13] and state.pirates == [2, 2]
    act(state, 2, "stay")
    assert state.to_move == [2] and state.phase == "board"
    act(state, 2, "board", good="ginseng")
    assert state.pirates == [2] and state.crew[0] == [0, 1, 2]
    assert state.phase == "place"


def test_the_captain_who_stayed_still_commands_the_plunder_after_the_second_boarded() -> None:
    state = _jade_and_ginseng_on_13()
    act(state, 2, "stay")
    act(state, 3, "board", good="ginseng")
    place(state, "pilot_large", "pass", "pass", "pass")
    act(state, 0, "pilot", good="jade", move=-1)
    act(state, 0, "pilot_stop")
    cash = list(state.cash)
    roll(state, ginseng=1, nutmeg=1, jade=1)  # jade back on 13: plundered
    assert state.phase == "plunder" and state.to_move == [2]
    assert state.cash[2] == cash[2] + 36  # the lone pirate left on the ship takes it all
    assert state.crew[3] == []


def test_variant_pirates_replace_sends_a_crew_member_home_from_a_full_boat() -> None:
    state = _jade_and_ginseng_on_13({"pirates_replace": True})
    legal = state.legal_actions(2)
    assert {"type": "board", "good": "ginseng"} in legal
    assert [a.get("evict") for a in legal if a.get("good") == "jade"] == [0, 1, 2, 3]
    act(state, 2, "board", good="jade", evict=1)
    assert state.crew[3] == [0, 2, 2, 3]
    assert state.events[-1] == {"type": "boarded", "seat": 2, "good": "jade", "sent_home": 1}
    # the second pirate may not send home the captain who just boarded
    legal = state.legal_actions(3)
    assert [a.get("evict") for a in legal if a.get("good") == "jade"] == [0, 2, 3]


def test_without_the_variant_a_full_boat_cannot_be_boarded() -> None:
    state = _jade_and_ginseng_on_13()
    with pytest.raises(IllegalAction):
        state.apply(2, {"type": "board", "good": "jade", "evict": 0})


def _nutmeg_on_13_after_movement_3():
    state = voyage_start(4, starts={"nutmeg": 1, "silk": 3, "jade": 5})
    place(state, "harbor_B", "nutmeg", "pirate", "pirate")
    roll(state, nutmeg=6, silk=1, jade=6)
    place(state, "pass", "pass", "pass", "pass")  # movement 2 follows at once
    roll(state, nutmeg=5, silk=1, jade=6)  # jade docks on A; nutmeg on 12: no boarding
    roll(state, nutmeg=1, silk=1)
    return state


def test_pirates_plunder_a_boat_on_13_and_split_its_payout() -> None:
    state = _nutmeg_on_13_after_movement_3()
    assert state.cash == [27, 28, 25 + 12, 25 + 12]  # each pirate gets 24 / 2
    assert state.crew[1] == []  # the crew went home empty handed
    assert state.phase == "plunder" and state.to_move == [2]  # the captain decides
    assert state.legal_actions(2) == [
        {"type": "send", "good": "nutmeg", "to": "harbor"},
        {"type": "send", "good": "nutmeg", "to": "shipyard"},
    ]


def test_a_plundered_boat_sent_to_the_harbor_docks_and_raises_its_good() -> None:
    state = _nutmeg_on_13_after_movement_3()
    act(state, 2, "send", good="nutmeg", to="harbor")
    assert _berths(state) == {"nutmeg": "harbor_B", "silk": "shipyard_A", "jade": "harbor_A"}
    assert state.prices == [0, 5, 0, 5]
    # dock B pays seat 0; the plundered crew (seat 1) gets nothing
    assert state.cash == [27 + 8, 28, 37, 37]


def test_a_plundered_boat_sent_to_the_shipyard_does_not_raise_its_good() -> None:
    state = _nutmeg_on_13_after_movement_3()
    act(state, 2, "send", good="nutmeg", to="shipyard")
    assert state.phase == "shipyard_order"  # nutmeg and silk both go to the shipyard
    act(state, 0, "shipyard_order", goods=["nutmeg", "silk"])
    assert _berths(state) == {"nutmeg": "shipyard_A", "silk": "shipyard_B", "jade": "harbor_A"}
    assert state.prices == [0, 0, 0, 5]


def test_with_no_pirate_on_the_ship_a_boat_on_13_docks() -> None:
    state = voyage_start(4, starts={"nutmeg": 1, "silk": 3, "jade": 5})
    place(state, "pass", "nutmeg", "pass", "pass")
    roll(state, nutmeg=6, silk=1, jade=1)
    place(state, "pass")
    roll(state, nutmeg=5, silk=1, jade=1)
    roll(state, nutmeg=1, silk=1, jade=1)
    act(state, 0, "shipyard_order", goods=["jade", "silk"])
    assert _berths(state) == {"nutmeg": "harbor_A", "silk": "shipyard_B", "jade": "shipyard_A"}
    assert state.cash[1] == 28 + 24 and state.prices[1] == 5


# ------------------------------------------------------------------ pilots
def _before_pilots():
    """Nutmeg on 13, jade and ginseng on 12 before movement 3; two pilots and a pirate."""
    state = voyage_start(4, ashore="silk", starts={"ginseng": 4, "nutmeg": 1, "jade": 4})
    place(state, "pass", "pilot_small", "pilot_large", "pirate")
    roll(state, ginseng=4, nutmeg=6, jade=4)
    place(state, "pass", "pass", "pass")
    roll(state, ginseng=4, nutmeg=6, jade=4)
    assert state.position == [12, 13, -1, 12]
    act(state, 3, "stay")  # the lone pirate could board nutmeg, but waits
    assert state.phase == "pilot_small" and state.to_move == [1]
    return state


def test_pilots_example_small_into_manila_then_large_moves_two_boats() -> None:
    state = _before_pilots()
    act(state, 1, "pilot", good="nutmeg", move=1)
    assert _berths(state)["nutmeg"] == "harbor_A"  # docked at once
    assert state.phase == "pilot_large" and state.to_move == [2]
    assert all(a.get("good") != "nutmeg" for a in state.legal_actions(2))
    act(state, 2, "pilot", good="jade", move=-1)
    assert {"type": "pilot", "good": "jade", "move": 1} not in state.legal_actions(2)
    act(state, 2, "pilot", good="ginseng", move=1)
    assert state.position == [13, IN_MANILA, -1, 11]
    assert state.to_move == [CHANCE] and state.chance_key() == "v1/m3/ginseng"
    roll(state, ginseng=1, jade=1)
    # ginseng was put on 13 by a pilot: movement 3 moved it on, nobody attacked it
    assert _berths(state) == {"ginseng": "harbor_B", "nutmeg": "harbor_A", "jade": "shipyard_A"}
    assert not any(e["type"] == "plundered" for e in state.events)
    assert state.cash[3] == 25


def test_large_pilot_may_move_one_boat_two_spaces() -> None:
    state = _before_pilots()
    act(state, 1, "pilot_stop")
    act(state, 2, "pilot", good="jade", move=-1)
    act(state, 2, "pilot", good="jade", move=-1)
    assert state.position[3] == 10 and state.to_move == [CHANCE]


def test_small_pilot_has_one_step_only() -> None:
    state = _before_pilots()
    act(state, 1, "pilot", good="jade", move=-1)
    assert state.to_move == [2] and state.phase == "pilot_large"

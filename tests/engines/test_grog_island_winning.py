"""Grog Island auction winner: paying, claiming, clouds, locks, end of round."""

from __future__ import annotations

import pytest

from engines import CHANCE, IllegalAction
from engines.grog_island.data import BUILDING_INDEX, GHOST, LOCKED
from engines.grog_island.state import GrogState
from tests.engines.helpers import force_chance
from tests.engines.test_grog_island_support import act, bid, new_game, roll, types


def at(building: str) -> int:
    return BUILDING_INDEX[building]


def pass_and_trade(state: GrogState, seat: int) -> None:
    """Pass, then trade as briefly as the rules allow (first ship, first exchange)."""
    act(state, seat, "pass")
    first = state.legal_actions(seat)[0]
    state.apply(seat, first)
    while state.to_move in ([seat], [CHANCE]) and state.stage == "trade":
        if state.to_move == [CHANCE]:
            state.apply(CHANCE, state.chance_outcomes()[0][0])
        elif "end_trade" in types(state, seat):
            act(state, seat, "end_trade")
        else:
            state.apply(seat, state.legal_actions(seat)[0])


def phil_wins(n: int = 3, coins: int = 6, treasures: tuple[int, ...] = (3,)) -> GrogState:
    """Seat 0 (Phil) bids 9 on yellow, grey, green, orange; everyone else passes."""
    state = new_game(n)
    state.coins[0] = coins
    state.private[0]["treasures"] = list(treasures)
    state.occupant[at("green/sword")] = 2
    state.occupant[at("orange/sword")] = 2
    roll(state, yellow=3, green=2, blue=6, orange=2, grey=2)
    bid(state, 0, "yellow", "grey", "green", "orange")
    for seat in range(1, n):
        pass_and_trade(state, seat)
    assert state.stage == "pay" and state.to_move == [0]
    return state


def test_worked_example_phil_pays_claims_scores_and_locks() -> None:
    state = phil_wins()
    assert state.legal_actions(0) == [{"type": "pay_treasure", "value": 3}, {"type": "decline"}]
    act(state, 0, "pay_treasure", value=3)
    assert state.legal_actions(0) == [{"type": "pay", "coins": 6}]
    act(state, 0, "pay", coins=6)
    assert state.coins[0] == 0 and state.private[0]["treasures"] == []
    assert state.vp[0] == 1  # space 3 (green die); space 5 is empty
    act(state, 0, "claim", building="yellow/sword")
    assert state.vp[0] == 2  # the white cloud over yellow
    assert state.coins[0] == 2  # blue and grey sword shops are still free
    legal = [a["building"] for a in state.legal_actions(0) if a["type"] == "claim"]
    assert "grey/sword" not in legal and "grey/hat" in legal  # two different types
    act(state, 0, "claim", building="grey/hat")
    assert state.coins[0] == 2  # black cloud over grey: no coins
    assert types(state, 0) == ["lock"]  # the orange die on space 4: a lock is owed
    assert all(a["building"].startswith("orange/") for a in state.legal_actions(0))
    act(state, 0, "lock", building="orange/hook")
    assert state.occupant[at("orange/hook")] == LOCKED and state.locks_left == 5
    assert state.occupant[at("yellow/sword")] == 0 and state.occupant[at("grey/hat")] == 0
    assert state.crew[0] == 7 and state.vp[0] == 2
    assert state.round == 2 and state.start == 1  # next round, next start player


def test_winner_who_cannot_pay_gets_nothing_and_pays_nothing() -> None:
    state = phil_wins(coins=6, treasures=(1,))  # potential capital 9, real capital 7
    assert state.legal_actions(0) == [{"type": "decline"}]
    with pytest.raises(IllegalAction, match="cannot pay 9"):
        act(state, 0, "pay", coins=6)
    act(state, 0, "decline")
    assert state.coins[0] == 6 and state.private[0]["treasures"] == [1]
    assert state.vp[0] == 0 and state.crew[0] == 9 and state.locks_left == 6
    assert state.round == 2


def test_a_winner_may_pay_with_coins_only_and_treasure_overpay_gives_change() -> None:
    state = phil_wins(coins=9, treasures=(3, 3, 3, 3))
    assert {"type": "pay", "coins": 9} in state.legal_actions(0)
    act(state, 0, "pay_treasure", value=3)
    act(state, 0, "pay_treasure", value=3)
    act(state, 0, "pay_treasure", value=3)
    assert "pay_treasure" not in types(state, 0) and "decline" not in types(state, 0)
    act(state, 0, "pay", coins=0)
    assert state.coins[0] == 9 and len(state.private[0]["treasures"]) == 1
    state = phil_wins(coins=0, treasures=(2, 3, 3, 3))
    act(state, 0, "pay_treasure", value=3)
    act(state, 0, "pay_treasure", value=3)
    act(state, 0, "pay_treasure", value=3)
    act(state, 0, "pay", coins=0)
    assert state.coins[0] == 0 and state.private[0]["treasures"] == [2]
    state = phil_wins(coins=0, treasures=(2, 2, 2, 2, 2))
    for _ in range(5):
        act(state, 0, "pay_treasure", value=2)
    act(state, 0, "pay", coins=0)
    assert state.coins[0] == 1  # 10 in treasure for a bid of 9: 1 coin change


def test_claims_may_be_declined_and_a_lock_needs_a_free_building() -> None:
    state = phil_wins()
    act(state, 0, "pay_treasure", value=3)
    act(state, 0, "pay", coins=6)
    for b in ("orange/sword", "orange/peg_leg", "orange/anchor", "orange/hook"):
        state.occupant[at(b)] = 1
    for b in ("orange/figurehead", "orange/voodoo", "orange/map_maker"):
        state.occupant[at(b)] = LOCKED
    act(state, 0, "decline_claims")
    assert state.crew[0] == 9
    assert state.round == 2  # no free orange building: no lock owed


def test_no_lock_when_none_are_left() -> None:
    state = phil_wins()
    state.locks_left = 0
    act(state, 0, "pay_treasure", value=3)
    act(state, 0, "pay", coins=6)
    act(state, 0, "claim", building="yellow/pub")
    act(state, 0, "claim", building="grey/rum")
    assert state.round == 2 and state.locks_left == 0


def test_white_clouds_parrot_and_objective_swap() -> None:
    clouds = ("parrot", "nothing", "vp", "black", "objective_swap")
    state = new_game(3, clouds=clouds)
    state.coins[0] = 20
    roll(state, yellow=3, green=2, blue=6, orange=2, grey=2)
    bid(state, 0, "yellow", "grey")
    for seat in (1, 2):
        pass_and_trade(state, seat)
    act(state, 0, "pay", coins=5)
    act(state, 0, "claim", building="yellow/anchor")
    assert state.to_move == [CHANCE] and state.chance_key() == "parrot/seat0/1"
    force_chance(state, card="set_orange")
    assert state.private[0]["parrots"] == ["hold", "set_orange"]
    assert state.coins[0] == 15 + 3  # three other anchor shops are free
    act(state, 0, "claim", building="grey/hook")
    assert state.chance_key() == "objective/seat0/6"
    force_chance(state, card="building/rum")
    assert len(state.private[0]["objectives"]) == 5
    assert state.to_move == [0] and state.returns == [0]
    assert types(state, 0) == ["return_objective"]
    act(state, 0, "return_objective", card="building/rum")
    assert len(state.private[0]["objectives"]) == 4
    assert state.hidden["objective_bottom"][-1] == "building/rum"
    assert state.round == 2


def test_nothing_cloud_still_pays_the_coin_bonus() -> None:
    clouds = ("nothing", "nothing", "vp", "black", "objective_swap")
    with pytest.raises(AssertionError):
        new_game(3, clouds=clouds)  # each cloud exists once
    clouds = ("nothing", "parrot", "vp", "black", "objective_swap")
    state = new_game(3, clouds=clouds)
    state.coins[0] = 20
    roll(state, yellow=3, green=2, blue=6, orange=2, grey=2)
    bid(state, 0, "yellow")
    for seat in (1, 2):
        pass_and_trade(state, seat)
    act(state, 0, "pay", coins=3)
    act(state, 0, "claim", building="yellow/peg_leg")
    assert state.vp[0] == 0 and state.coins[0] == 17 + 4
    assert state.round == 2


def test_ships_move_one_space_right_and_the_last_wraps_round() -> None:
    state = phil_wins()
    before = list(state.ships)
    act(state, 0, "decline")
    assert state.ships == [before[5], *before[:5]]
    assert state.discs == [-1] * 6  # trade discs came back
    assert state.view(None)["ships"]["yellow"] == "objectives"


def test_game_ends_after_the_round_of_the_last_crew_member() -> None:
    state = phil_wins()
    state.crew[0] = 1
    act(state, 0, "pay_treasure", value=3)
    act(state, 0, "pay", coins=6)
    act(state, 0, "claim", building="yellow/sword")
    assert state.crew[0] == 0 and not state.is_over
    assert types(state, 0) == ["lock"]  # no second claim without crew, but the round goes on
    act(state, 0, "lock", building="orange/hook")
    assert state.is_over and state.stage == "over"
    outcome = state.outcome()
    assert len(outcome["scores"]) == 3 and min(outcome["ranks"]) == 1
    with pytest.raises(IllegalAction, match="over"):
        act(state, 1, "pass")


def test_a_crew_member_bought_at_a_ship_also_ends_the_game() -> None:
    ships = ("parrot", "two_coins", "three_coins", "four_coins", "treasure", "objectives")
    state = new_game(3, ships=ships)
    roll(state, yellow=2, green=2, blue=2, orange=5, grey=2)
    bid(state, 0, "orange")
    state.goods[1] = [4, 0, 0, 0, 0]
    state.crew[1] = 1
    act(state, 1, "pass")
    act(state, 1, "choose_ship", ship="parrot")
    for _ in range(4):
        act(state, 1, "build_pay", goods=["yellow"])
    act(state, 1, "claim", building="yellow/pub")
    act(state, 1, "end_trade")
    assert not state.is_over and state.to_move == [2]
    pass_and_trade(state, 2)
    act(state, 0, "decline")
    assert state.is_over


# ------------------------------------------------------------------ two players
def two_player_round(ghost_space: int) -> GrogState:
    """Two players with the ghost ship on ``ghost_space``; seat 0 bids the orange die."""
    others = ["two_coins", "four_coins", "treasure", "parrot", "objectives"]
    ships = tuple([*others[:ghost_space], "three_coins", *others[ghost_space:]])
    state = new_game(2, ships=ships)
    roll(state, yellow=2, green=2, blue=2, orange=5, grey=2)
    bid(state, 0, "orange")
    return state


def test_two_players_passer_takes_the_ghost_peninsula_good_and_cannot_use_it() -> None:
    state = two_player_round(ghost_space=4)  # ghost under grey
    state.goods[1] = [0, 0, 0, 0, 0]
    act(state, 1, "pass")
    assert state.goods[1] == [0, 0, 0, 1, 1]  # orange from the track, grey from the ghost
    names = [a["ship"] for a in state.legal_actions(1)]
    assert "three_coins" not in names
    assert names == ["parrot"]  # orange ship; grey holds the ghost


def test_two_players_non_winner_places_a_ghost_crew_member() -> None:
    state = two_player_round(ghost_space=1)  # ghost under green
    pass_and_trade(state, 1)
    act(state, 0, "pay", coins=5)
    act(state, 0, "decline_claims")
    assert state.to_move == [1] and state.stage == "ghost"
    legal = [a["building"] for a in state.legal_actions(1)]
    assert legal and all(b.startswith("green/") for b in legal)
    act(state, 1, "ghost", building="green/hat")
    assert state.occupant[at("green/hat")] == GHOST and state.ghost_crew == 8
    assert state.view(None)["buildings"]["green/hat"] == "ghost"
    assert state.round == 2


def test_two_players_ghost_at_open_sea_gives_no_good_and_no_crew() -> None:
    state = two_player_round(ghost_space=5)
    before = list(state.goods[1])
    act(state, 1, "pass")
    assert sum(state.goods[1]) == sum(before) + 1  # only the orange die
    state.apply(1, state.legal_actions(1)[0])
    while state.stage == "trade":
        if state.to_move == [CHANCE]:
            state.apply(CHANCE, state.chance_outcomes()[0][0])
        elif "end_trade" in types(state, 1):
            act(state, 1, "end_trade")
        else:
            state.apply(1, state.legal_actions(1)[0])
    act(state, 0, "decline")
    assert state.round == 2 and state.ghost_crew == 9


def test_two_players_no_ghost_crew_left() -> None:
    state = two_player_round(ghost_space=1)
    state.ghost_crew = 0
    pass_and_trade(state, 1)
    act(state, 0, "decline")
    assert state.round == 2


def test_round_without_any_bid_has_no_winner_and_the_first_passer_places_the_ghost() -> None:
    state = new_game(2, ships=("two_coins", "three_coins", "four_coins", "treasure", "parrot",
                               "objectives"))  # fmt: skip
    for seat in (0, 1):
        state.coins[seat] = 0
        state.private[seat]["treasures"] = []
    roll(state, yellow=2, green=2, blue=2, orange=2, grey=2)
    pass_and_trade(state, 0)  # the ghost under green gives a coconut
    assert state.to_move == [1] and state.legal_actions(1) == [{"type": "pass"}]
    pass_and_trade(state, 1)
    assert state.winner == -1 and state.stage == "ghost" and state.to_move == [0]
    act(state, 0, "ghost", building="green/sword")
    assert state.round == 2 and state.start == 1


def test_safeguard_ends_the_game_after_the_last_allowed_round() -> None:
    from engines.grog_island.data import MAX_ROUNDS

    state = phil_wins()
    state.round = MAX_ROUNDS
    act(state, 0, "decline")
    assert state.is_over and state.round == MAX_ROUNDS

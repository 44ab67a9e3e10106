"""Builders shared by the Cargo Noir tests (this module holds no test itself).

Situations are reached by forcing chance outcomes and playing actions through
``apply``; where that would take many turns, a field is set directly and the
behaviour under test still runs through ``apply``.
"""

from __future__ import annotations

from typing import Any

import engines
from engines import CHANCE
from engines.cargo_noir import CargoNoirState
from engines.cargo_noir.data import CARD_INDEX, GOODS, TOKENS
from tests.engines.helpers import force_chance

ENGINE = engines.get("cargo_noir")

DEFAULT_MARKET = ["alcohol", "weapons", "art", "cars", "cigars", "ivory", "jewels", "gold"]


def new_game(
    num_players: int,
    market: list[str] | None = None,
    ports: dict[str, list[str]] | None = None,
) -> CargoNoirState:
    """A game whose setup draws are forced: the given display and port goods.

    Unlisted ports get one good in every slot: uranium, gold, jewels, ... by port.
    """
    state = ENGINE.new_game(num_players)
    market = market or DEFAULT_MARKET
    ports = ports or {}
    for good in market:
        force_chance(state, good=good)
    for i, port in enumerate(state.ports):
        for good in ports.get(port.name, [GOODS[-1 - i]] * port.slots):
            force_chance(state, good=good)
    assert state.to_move == [0]
    return state


def act(state: CargoNoirState, action: dict[str, Any]) -> None:
    """Play ``action`` for the seat to move (a player, never chance)."""
    seat = state.to_move[0]
    assert seat != CHANCE, f"chance is to move ({state.chance_key()})"
    state.apply(seat, action)


def send(state: CargoNoirState, to: str, coins: int | None = None) -> None:
    """Send one ship of the seat to move; with ``coins``, bid them at the port."""
    act(state, {"type": "send", "to": to})
    if coins is not None:
        act(state, {"type": "bid", "port": to, "coins": coins})


def send_rest_to_casino(state: CargoNoirState) -> None:
    """Send every ship the current seat still has at home to the casino."""
    seat = state.seat
    while state.to_move == [seat] and state.phase == "send":
        send(state, "casino")


def resolve(state: CargoNoirState, at: str) -> None:
    act(state, {"type": "resolve", "at": at})


def resolve_casinos(state: CargoNoirState) -> None:
    """Resolve every ship the current seat has at the casino."""
    while state.to_move == [state.seat] and {"type": "resolve", "at": "casino"} in (
        state.legal_actions(state.seat)
    ):
        resolve(state, "casino")


def all_casino_round_one(num_players: int, **setup: Any) -> CargoNoirState:
    """Round 1 played with every ship of every seat at the casino; seat 0 of round 2 to move."""
    state = new_game(num_players, **setup)
    for _ in range(num_players):
        send_rest_to_casino(state)
    assert (state.round, state.seat, state.phase) == (2, 0, "ships")
    return state


def set_goods(state: CargoNoirState, seat: int, goods: dict[str, int]) -> None:
    """Replace a seat's warehouse (direct field edit)."""
    state.warehouse[seat] = [goods.get(name, 0) for name in TOKENS]
    state.forget_cached_actions()


def give_cards(state: CargoNoirState, seat: int, cards: dict[str, int]) -> None:
    """Hand a seat victory cards (direct field edit, taking them from the supply)."""
    for name, count in cards.items():
        state.cards[seat][CARD_INDEX[name]] += count
        state.cards_left[CARD_INDEX[name]] -= count
        if name == "Cargo Ship":
            state.ships[seat] += count
    state.forget_cached_actions()


def reach_smuggling(
    num_players: int = 2,
    goods: dict[str, int] | None = None,
    last_round: bool = False,
    cards: dict[str, int] | None = None,
) -> CargoNoirState:
    """Seat 0 in phase II of round 2 (or of the last round) holding ``goods``.

    Round 1 sends every ship to the casino; seat 0 then resolves its three
    casino ships (+6 coins, so 13 in the safe) through ``apply``.
    """
    state = all_casino_round_one(num_players)
    if last_round:
        state.round = state.rounds
    set_goods(state, 0, goods or {})
    if cards:
        give_cards(state, 0, cards)
    resolve_casinos(state)
    assert state.phase == "smuggle" and state.seat == 0
    return state


def smuggle(state: CargoNoirState, kind: str, goods: list[str]) -> int:
    """Smuggle one combination good by good; return the credit it added."""
    before = state.credit
    act(state, {"type": "start_combination", "kind": kind})
    for good in goods:
        act(state, {"type": "add", "good": good})
    act(state, {"type": "smuggle"})
    return state.credit - before


def buy(state: CargoNoirState, card: str) -> None:
    act(state, {"type": "buy", "card": card})


def held(state: CargoNoirState, seat: int) -> dict[str, int]:
    """A seat's warehouse as {good: count} for the goods it holds."""
    return {TOKENS[g]: c for g, c in enumerate(state.warehouse[seat]) if c}


def card_count(state: CargoNoirState, seat: int, card: str) -> int:
    return state.cards[seat][CARD_INDEX[card]]


def set_bag(state: CargoNoirState, bag: dict[str, int], discard: dict[str, int]) -> None:
    """Replace the bag's and the discard pile's contents (and their public sizes)."""
    state.hidden["bag"] = {name: bag.get(name, 0) for name in TOKENS}
    state.hidden["discard"] = {name: discard.get(name, 0) for name in TOKENS}
    state.bag_size = sum(bag.values())
    state.discard_size = sum(discard.values())
    state.forget_cached_actions()

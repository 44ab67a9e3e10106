"""Scenario helpers for the Grog Island tests (and a few tests of the helpers).

Games are set up through the engine's own chance and setup decisions: clouds,
ships and cards are *forced* (``force_chance``), then goods and kept objectives
are chosen with ``apply``. Later situations are reached the same way where
practical; where a long game would be needed, a test sets public fields
directly and then checks behaviour that runs through ``apply``.
"""

from __future__ import annotations

from typing import Any

import engines
from engines import CHANCE
from engines.grog_island.data import CLOUDS, COLOURS, OBJECTIVE_KINDS, SHIPS
from engines.grog_island.state import GrogState
from tests.engines.helpers import force_chance

ENGINE = engines.get("grog_island")
DEFAULT_CLOUDS = ("vp", "nothing", "parrot", "objective_swap", "black")
"""Cloud over yellow, green, blue, orange, grey unless a test says otherwise."""
DEFAULT_SHIPS = tuple(name for name, _, _ in SHIPS)
"""Ship on space 0 (under yellow) .. space 5 (open sea)."""


def default_objectives(seat: int) -> list[str]:
    """Six different objectives per seat (the deck has two of each kind)."""
    return [OBJECTIVE_KINDS[(seat * 6 + k) % len(OBJECTIVE_KINDS)] for k in range(6)]


def new_game(
    n: int = 3,
    *,
    clouds: tuple[str, ...] = DEFAULT_CLOUDS,
    ships: tuple[str, ...] = DEFAULT_SHIPS,
    objectives: list[list[str]] | None = None,
    keep: list[list[str]] | None = None,
    treasures: list[int] | None = None,
    parrots: list[str] | None = None,
    goods: list[str] | None = None,
) -> GrogState:
    """A game after setup, waiting for the first round's dice (all forced)."""
    state = ENGINE.new_game(n)
    for colour, cloud in zip(COLOURS, clouds, strict=True):
        force_chance(state, peninsula=colour, cloud=cloud)
    for space, ship in enumerate(ships):
        force_chance(state, space=space, ship=ship)
    for seat in range(n):
        hand = objectives[seat] if objectives else default_objectives(seat)
        for card in hand:
            force_chance(state, deck="objective", seat=seat, card=card)
        force_chance(state, deck="treasure", seat=seat, card=(treasures or [2] * n)[seat])
        force_chance(state, deck="parrot", seat=seat, card=(parrots or ["hold"] * n)[seat])
    for seat in range(n):
        state.apply(seat, {"type": "choose_good", "good": (goods or ["yellow"] * n)[seat]})
        hand = list(state.private[seat]["objectives"])
        kept = keep[seat] if keep else hand[:4]
        rest = list(hand)
        for card in kept:
            rest.remove(card)
        for card in rest:
            state.apply(seat, {"type": "return_objective", "card": card})
    assert state.to_move == [CHANCE] and state.chance_key() == "r1/die/yellow"
    return state


def roll(state: GrogState, **values: int) -> None:
    """Force the five dice of a round, e.g. ``roll(s, yellow=3, green=2, ...)``."""
    for colour in COLOURS:
        force_chance(state, colour=colour, value=values[colour])


def act(state: GrogState, seat: int, kind: str, **fields: Any) -> None:
    state.apply(seat, {"type": kind, **fields})


def bid(state: GrogState, seat: int, *colours: str) -> None:
    """Place the dice die by die, then confirm the bid."""
    for colour in colours:
        act(state, seat, "place", colour=colour)
    total = sum(state.dice[COLOURS.index(c)] for c in colours)
    act(state, seat, "bid", total=total)


def types(state: GrogState, seat: int) -> list[str]:
    return sorted({a["type"] for a in state.legal_actions(seat)})


def draw_next(state: GrogState, card: Any) -> None:
    force_chance(state, card=card)


def test_new_game_helper_reaches_the_first_roll() -> None:
    state = new_game(4)
    assert state.round == 1 and state.start == 0
    assert [len(p["objectives"]) for p in state.private] == [4] * 4
    assert state.clouds == list(DEFAULT_CLOUDS)
    assert sorted(state.clouds) == sorted(CLOUDS)

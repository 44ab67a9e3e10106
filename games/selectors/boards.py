"""The model a browser board is drawn from (``static/boards/board.js``).

One function serves every place a board appears (the preview page now; the play
page, watching and the replay later), so the rule "a board sees only its seat's
view" lives in exactly one spot: the model carries ``state.view(seat)`` and never
the state itself, and legal actions only when it is that seat's turn. Pure
Python, no Django, so the consumer and the tests can call it directly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import engines
from engines import CHANCE, Dealer, State

RECENT_EVENTS = 12
"""How many recent public events a board shows."""


def legal_entries(state: State, seat: int | None) -> list[dict[str, Any]]:
    """``[{index, action, text}]`` for ``seat`` if it is to move now, else ``[]``.

    ``index`` is the position in ``state.legal_actions(seat)``, the same index a
    bot answers with, so a click goes through the referee exactly like a bot's move.
    """
    if seat is None or seat not in state.to_move:
        return []
    rules = state.engine
    return [
        {"index": i, "action": action, "text": rules.describe(action)}
        for i, action in enumerate(state.legal_actions(seat))
    ]


def board_model(
    state: State,
    seat: int | None,
    names: Mapping[int, str] | None = None,
    *,
    playing: bool = False,
) -> dict[str, Any]:
    """The JSON-ready model for ``seat`` (``None``: a spectator).

    ``playing`` says the page will send a clicked index somewhere; the browser
    sets ``onAction`` accordingly (a function cannot travel in JSON).
    """
    rules = state.engine
    if seat is not None and not 0 <= seat < state.num_players:
        raise engines.IllegalAction(f"no seat {seat} in a {state.num_players}-player game")
    given = dict(names or {})
    return {
        "engine": rules.slug,
        "numPlayers": state.num_players,
        "seat": seat,
        "names": {str(s): given.get(s, f"Seat {s}") for s in range(state.num_players)},
        "view": state.view(seat),
        "legal": legal_entries(state, seat),
        "playing": playing,
        "events": [rules.describe_event(e) for e in state.events[-RECENT_EVENTS:]],
        "toMove": list(state.to_move),
    }


def random_position(slug: str, num_players: int, seed: int, plies: int) -> State:
    """A position after ``plies`` plies of a seeded game with random legal moves.

    Chance comes from ``Dealer(seed)``, players' choices from ``random.Random(seed)``:
    the same URL always shows the same position. Stops early when the game ends.
    """
    state = engines.get(slug).new_game(num_players)
    dealer = Dealer(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over:
            break
        mover = state.to_move[0]
        action = dealer.choose(state) if mover == CHANCE else rng.choice(state.legal_actions(mover))
        state.apply(mover, action)
    return state

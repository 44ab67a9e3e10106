"""Determinization: a full state that agrees with what one seat can see.

A search bot for a game with secrets (other hands, the order of a deck, dice
not yet rolled) cannot search the real state: it only has its ``view``. The
usual start is to *determinize*: fill the hidden parts with one sample of what
is still possible, search that state, and repeat with other samples
(Monte Carlo / "perfect information Monte Carlo"). ``determinize`` does the
first step for every engine:

    state = determinize("manila", request["view"], seed=7,
                        players=request["game"]["num_players"],
                        options=request["game"]["options"])

The result is an ordinary engine ``State``: ``state.view(seat)`` equals the
view it came from (checked before it is returned), its legal actions for the
seat are the ones the referee sent, and it plays on to the end with
``apply``. Hidden parts are drawn uniformly from what the view leaves
possible, from ``random.Random(seed)``: the same view and seed give the same
state. Each engine's module ``engines/<slug>/determinize.py`` knows where
that engine keeps its secrets; ``docs/engines/determinization.md`` lists
them, and what a view cannot tell.
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

from .base import State
from .registry import get


def determinize(
    engine: str,
    view: Mapping[str, Any],
    seed: int | str,
    *,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    check: bool = True,
) -> State:
    """A state of ``engine`` consistent with ``view`` (a seat's view), secrets sampled.

    ``players`` and ``options`` are the act request's ``game.num_players`` and
    ``game.options``; without them the player count is read from the view and
    the options are the engine's defaults. ``check`` (default on) verifies that
    the state's view for the seat equals ``view`` and raises ``ValueError`` if
    not; a search loop that trusts its views may turn it off to save the time.

    Raises ``ValueError`` (an ``InvalidGame`` for an unknown engine or bad
    set-up) for anything that is not a seat's view of this engine.
    """
    game = get(engine)
    if not isinstance(view, Mapping):
        raise ValueError(f"a view must be a JSON object, not {type(view).__name__}")
    seat = view.get("you")
    if type(seat) is not int or not isinstance(view.get("private"), Mapping):
        raise ValueError('a seat\'s view has "you" (an integer seat) and "private"; this has not')
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise ValueError(f"a seed must be an int or a str, not {type(seed).__name__}")
    plain = json.loads(json.dumps(view))  # our own copy, with JSON's types only
    if players is None:
        found = plain.get("players")
        if not isinstance(found, list):
            raise ValueError(f"not a {engine} view: no list of players")
        players = len(found)
    settings = game.check_setup(players, options)
    if not 0 <= seat < players:
        raise ValueError(f"no seat {seat} in a {players}-player game")
    module = importlib.import_module(f"{__package__}.{game.slug}.determinize")
    try:
        state = module.determinize(plain, random.Random(seed), players, settings)
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
        raise ValueError(f"not a consistent {engine} view for seat {seat}: {exc!r}") from exc
    _exercise(state, engine, seat)
    if check:
        try:
            rebuilt = json.loads(json.dumps(state.view(seat)))
        except Exception as exc:  # a half-built state may trip the view code anywhere
            raise ValueError(f"not a consistent {engine} view for seat {seat}: {exc!r}") from exc
        if rebuilt != plain:
            keys = rebuilt.keys() | plain.keys()
            diff = sorted(k for k in keys if rebuilt.get(k) != plain.get(k))
            raise ValueError(
                f"not a consistent {engine} view for seat {seat}: "
                f"no state shows it this way (fields {', '.join(diff)})"
            )
    return state


def _exercise(state: State, engine: str, seat: int) -> None:
    """Ask the new state what is asked of every state, so a nonsense field fails here.

    A view with a value of the right place but the wrong meaning (a phase no
    rule knows) can come back unchanged from the state built from it; the
    state's own rules then trip over it, and that becomes the ``ValueError``.
    """
    try:
        movers = state.to_move
        for mover in movers:
            if mover < 0:
                state.chance_outcomes()
            else:
                state.legal_actions(mover)
        state.legal_actions(seat)
        state.clone().to_json()
    except Exception as exc:
        raise ValueError(f"not a consistent {engine} view for seat {seat}: {exc!r}") from exc


def integer(value: object, what: str, low: int, high: int) -> int:
    """``value`` if it is an int (not a bool) in ``low..high``, else a ``ValueError``."""
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{what} must be an integer in {low}..{high}, not {value!r}")
    return value


def one_of(value: object, what: str, choices: Iterable[object]) -> Any:
    """``value`` if it is one of ``choices``, else a ``ValueError``."""
    if value not in set(choices):
        raise ValueError(f"{what} {value!r} is not one this engine knows")
    return value

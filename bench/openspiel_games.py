"""Random play of OpenSpiel's Python-implemented games, timed like our engines.

The yardstick of issue #17: our engines are pure Python too, so OpenSpiel's
*Python* games (not its C++ ones) are the fair comparison. OpenSpiel is an
optional extra (``pip install -e '.[bench]'``); without it :func:`available`
says why and the bench prints our figures alone.

Same method as :func:`bench.engines.play_random`: a step is one applied action,
chance included; players choose uniformly among the legal actions with a
seeded ``random.Random``; chance outcomes are drawn by their probabilities
(one uniform number per event, as ``Dealer`` does with its hash).
"""

from __future__ import annotations

import random
from typing import Any

DEFAULT_GAMES = (
    "python_tic_tac_toe",
    "python_kuhn_poker",
    "python_liars_poker",
    "python_team_dominoes",
    "python_block_dominoes",
)
"""Sequential Python games of OpenSpiel that play to the end at random."""


def available() -> str | None:
    """``None`` if OpenSpiel's Python games can be loaded, else why not."""
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python import games  # noqa: F401  (registers the python_* games)
    except ImportError as exc:
        return f"not installed ({exc.name}); pip install -e '.[bench]' to compare"
    return None


def load(name: str) -> Any:
    """The OpenSpiel game ``name`` (``available()`` must be ``None``)."""
    import pyspiel
    from open_spiel.python import games  # noqa: F401

    game = pyspiel.load_game(name)
    if game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise ValueError(f"{name} has simultaneous moves: random play here is sequential")
    return game


def play_random(game: Any, seed: int, checked: bool = False) -> int:
    """Play one random game of an OpenSpiel game; return the number of steps.

    OpenSpiel's ``apply_action`` does not check that the action is legal (it
    plays an out-of-range action without a word); our engines' ``apply``
    always does, as the referee needs. ``checked`` plays through
    ``apply_action_with_legality_check`` instead, the same work as ours.
    """
    state = game.new_initial_state()
    rng = random.Random(seed)
    apply = "apply_action_with_legality_check" if checked else "apply_action"
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            u = rng.random()
            action = outcomes[-1][0]
            total = 0.0
            for candidate, probability in outcomes:
                total += probability
                if u < total:
                    action = candidate
                    break
        else:
            action = rng.choice(state.legal_actions())
        getattr(state, apply)(action)
        steps += 1
    return steps

"""Rebuild a state from a game record: a plain loop over the logged actions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .base import Action, State
from .registry import get


def replay(
    slug: str,
    num_players: int,
    options: Mapping[str, Any] | None,
    actions: Iterable[tuple[int, Action]],
) -> State:
    """The state after playing ``actions`` (``(seat, action)`` pairs, chance included).

    An action that does not fit raises ``IllegalAction`` naming its ply.
    """
    state = get(slug).new_game(num_players, options)
    for ply, (seat, action) in enumerate(actions):
        try:
            state.apply(seat, action)
        except Exception as exc:
            raise type(exc)(f"ply {ply}: {exc}") from exc
    return state

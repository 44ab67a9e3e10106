"""Rebuilding a game's state from its move log, with a small in-process cache.

The move log is the truth; the cache only saves replaying a long log on every
move. An entry is a state at some ply: the moves logged after it are applied
on a clone, so a stale entry (another worker moved on) can never be wrong,
only less useful. Entries are keyed by the game's id *and* seed, so a reused
id (a test database rolled back) never matches an old game.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import engines
from engines import State

from .models import Game, Move

CAPACITY = 512

_lock = threading.Lock()
_entries: OrderedDict[tuple[int, str], tuple[int, State]] = OrderedDict()


def remember(game: Game, ply: int, state: State, *, copy: bool = True) -> None:
    """Keep ``state`` (the position after ``ply`` moves) for the next rebuild.

    ``copy=False`` hands over a state the caller will never change again.
    """
    kept = state.clone() if copy else state
    with _lock:
        _entries[(game.pk, game.seed)] = (ply, kept)
        _entries.move_to_end((game.pk, game.seed))
        while len(_entries) > CAPACITY:
            _entries.popitem(last=False)


def forget(game: Game) -> None:
    with _lock:
        _entries.pop((game.pk, game.seed), None)


def load_state(game: Game) -> State:
    """The state after every logged move of ``game`` (``game.next_ply`` of them).

    A cached entry newer than ``game.next_ply`` (from a transaction that rolled
    back) is ignored.
    """
    with _lock:
        entry = _entries.get((game.pk, game.seed))
    if entry is not None and entry[0] <= game.next_ply:
        ply, cached = entry
        state = cached.clone()
    else:
        ply, state = 0, engines.get(game.engine).new_game(game.num_players, game.options)
    if ply == game.next_ply:
        return state  # the usual case on a busy worker: no query at all
    # Only up to next_ply: a move committed after ``game`` was read is not ours yet.
    later = Move.objects.filter(game_id=game.pk, ply__gte=ply, ply__lt=game.next_ply)
    later = later.order_by("ply")
    for move_ply, seat, action in later.values_list("ply", "seat", "action"):
        if move_ply != ply:
            raise RuntimeError(f"game {game.pk}: move log has a gap at ply {ply}")
        state.apply(seat, action)
        ply += 1
    if ply != game.next_ply:
        raise RuntimeError(f"game {game.pk}: {ply} moves logged but next_ply is {game.next_ply}")
    remember(game, ply, state)
    return state

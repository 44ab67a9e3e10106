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
from collections.abc import Sequence

from django.db.models import Q

import engines
from engines import State
from games.models import Game, Move

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


def load_states(games: Sequence[Game]) -> dict[int, State]:
    """:func:`load_state` for several games with one query at most, keyed by game id.

    For pages that need who is to move in a handful of games at once (the
    person's "game waiting" badge): the moves every game misses since its
    cached entry are read together, so the cost is one query whatever the
    number of games, and none when every entry is current.
    """
    states: dict[int, State] = {}
    missing: dict[int, tuple[Game, int]] = {}
    for game in games:
        with _lock:
            entry = _entries.get((game.pk, game.seed))
        if entry is not None and entry[0] <= game.next_ply:
            ply, state = entry[0], entry[1].clone()
        else:
            ply, state = 0, engines.get(game.engine).new_game(game.num_players, game.options)
        states[game.pk] = state
        if ply != game.next_ply:
            missing[game.pk] = (game, ply)
    if not missing:
        return states
    wanted = Q()
    for game, ply in missing.values():
        wanted |= Q(game_id=game.pk, ply__gte=ply, ply__lt=game.next_ply)
    rows = Move.objects.filter(wanted).order_by("game_id", "ply")
    applied = {pk: ply for pk, (_, ply) in missing.items()}
    for game_id, move_ply, seat, action in rows.values_list("game_id", "ply", "seat", "action"):
        if move_ply != applied[game_id]:
            raise RuntimeError(f"game {game_id}: move log has a gap at ply {applied[game_id]}")
        states[game_id].apply(seat, action)
        applied[game_id] += 1
    for game, _ in missing.values():
        if applied[game.pk] != game.next_ply:
            raise RuntimeError(
                f"game {game.pk}: {applied[game.pk]} moves logged but next_ply is {game.next_ply}"
            )
        remember(game, game.next_ply, states[game.pk])
    return states

"""A game's public record while it is not finished: kept in memory, extended by the new moves.

A running game's log grows, so it is not stored (``games.records.stored`` stores
a finished game's); but its page and its board replay need not replay it from
ply 0 on every view either. This cache works like the referee's state cache
(``games.referee.statecache``): an entry is the record up to some ply with the
state after it, and only the moves logged since are read and applied. The
state cache itself cannot serve here: it keeps one state, whose events are not
split by ply, and the page lists the events of every ply.

An entry holds the public plies (who moved, the action, the events: actions are
shown only once ``spectator.is_public`` says so), the state at its ply and a
copy every ``CHECKPOINT_EVERY`` plies, from which a page of the board replay
starts. Entries are keyed by the game's id *and* seed, like the state cache's,
and an entry newer than the game as read (a rolled-back transaction) is
ignored. It lives in one process: another process builds its own on its first
view.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

import engines
from games.models import Game, Move
from games.records.builder import RecordBuilder, Row

CAPACITY = 128
"""Games kept: a long game's entry is a few hundred KiB (its plies and a dozen states)."""

_lock = threading.Lock()
_entries: OrderedDict[tuple[int, str], RecordBuilder] = OrderedDict()


@dataclass(frozen=True)
class LiveRecord:
    """``game``'s public plies up to ``game.next_ply``, and its states every checkpoint."""

    rows: list[Row]
    replayable: int
    checkpoints: dict[int, engines.State]
    """Shared with the cache: clone before applying anything."""


def follow(game: Game) -> LiveRecord:
    """The record of ``game`` up to ``game.next_ply``: at most one query (none when current)."""
    key = (game.pk, game.seed)
    with _lock:
        builder = _entries.get(key)
    if builder is None or builder.ply > game.next_ply:
        rules = engines.get(game.engine)
        builder = RecordBuilder(
            rules.new_game(game.num_players, game.options),
            strict=game.engine_version == rules.version,
            describe=False,
        )
    if builder.ply < game.next_ply:
        builder = _extended(builder, game)
        with _lock:
            _entries[key] = builder
            _entries.move_to_end(key)
            while len(_entries) > CAPACITY:
                _entries.popitem(last=False)
    return LiveRecord(list(builder.rows), builder.replayed(), dict(builder.checkpoints))


def _extended(builder: RecordBuilder, game: Game) -> RecordBuilder:
    """A new builder: ``builder``'s plies and the moves logged since (``builder`` is not changed).

    Copy-on-extend, so a concurrent reader of the cached entry never sees a
    state being changed.
    """
    fresh = builder.copy()
    later = Move.objects.filter(game_id=game.pk, ply__gte=fresh.ply, ply__lt=game.next_ply)
    for ply, seat, action in later.order_by("ply").values_list("ply", "seat", "action"):
        if ply != fresh.ply:
            raise RuntimeError(f"game {game.pk}: move log has a gap at ply {fresh.ply}")
        fresh.add(seat, action)
    if fresh.ply != game.next_ply:
        raise RuntimeError(
            f"game {game.pk}: {fresh.ply} moves logged but next_ply is {game.next_ply}"
        )
    return fresh


def forget(game: Game) -> None:
    """Drop ``game``'s entry (it finished: its stored record takes over)."""
    with _lock:
        _entries.pop((game.pk, game.seed), None)

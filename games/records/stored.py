"""A finished game's public record: computed once, stored, then only read.

Before, every view of a game page replayed the whole log with full validation
(a 1,311-ply game: about 130 ms of the page's time), and every page of the board
replay replayed from ply 0 up to the page. The log of a finished game never
changes, so its replay is done once, when the game ends (``referee.finish``,
right after its commit), and kept:

* :class:`~games.models.GameRecord`: per ply who moved, the action, its
  ``describe`` text and the public events -- everything the game page's text
  list and the game API's move log show, and no view of any seat. Whether the
  actions may be shown is still decided on every read by ``spectator.is_public``
  (a duplicate set still being played keeps them hidden), never here.
* :class:`~games.models.GameCheckpoint`: the engine state every
  :data:`~games.records.builder.CHECKPOINT_EVERY` plies, from which the
  board replay starts a page (``games.records.replay``).

Storing must never make a finish fail: :func:`store_after_finish` logs and
returns on any error, and whatever reads a record builds a missing one on the
spot (and stores it, :func:`finished_record`); ``manage.py build_game_records``
fills in games finished before records existed. A record counts only while
its ``rules_version`` is the server's engine version: after a rules change it is
rebuilt, since the current rules may replay an old log differently.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from django.db import DatabaseError, connection, transaction
from django.db.models import Q, QuerySet

import engines
from games.models import Game, GameCheckpoint, GameRecord, Move
from games.records import live as live_record
from games.records.builder import RecordBuilder, Row, checkpoint_json

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Record:
    """A game's public plies (``[seat, action, description, events]`` each) and how many replay."""

    rows: list[Row]
    replayable: int


def build(game: Game) -> tuple[Record, dict[int, engines.State]]:
    """Replay ``game``'s log once: its record and its checkpoint states. Reads the moves only."""
    rules = engines.get(game.engine)
    builder = RecordBuilder(
        rules.new_game(game.num_players, game.options),
        strict=game.engine_version == rules.version,
    )
    moves = Move.objects.filter(game_id=game.pk, ply__lt=game.next_ply).order_by("ply")
    for seat, action in moves.values_list("seat", "action"):
        builder.add(seat, action)
    return Record(builder.rows, builder.replayed()), builder.checkpoints


def store(game: Game, record: Record, checkpoints: dict[int, engines.State]) -> None:
    """Write ``game``'s record and checkpoints in one transaction, replacing older ones."""
    version = engines.get(game.engine).version
    with transaction.atomic():
        GameCheckpoint.objects.filter(game_id=game.pk).delete()
        GameRecord.objects.update_or_create(
            game_id=game.pk,
            defaults={
                "rules_version": version,
                "replayable": record.replayable,
                "plies": _compact(record.rows),
            },
        )
        GameCheckpoint.objects.bulk_create(
            [
                GameCheckpoint(game_id=game.pk, ply=ply, state=_compact(checkpoint_json(state)))
                for ply, state in sorted(checkpoints.items())
            ],
            ignore_conflicts=True,  # a concurrent builder wrote the same states
        )


def stored(game: Game) -> Record | None:
    """``game``'s stored record if there is one for the server's rules (one query).

    Read through a cursor: the same row as ``GameRecord.objects.filter(...).values_list``,
    which cost a cold game page more CPU in building and compiling the query than in
    reading a short game's record (cProfile of ``/games/<id>/``, issue #17).
    """
    version = engines.get(game.engine).version
    with connection.cursor() as cursor:
        cursor.execute(_STORED.format(table=connection.ops.quote_name(GameRecord._meta.db_table)),
                       [game.pk, version])  # fmt: skip
        row = cursor.fetchone()
    return Record(json.loads(row[0]), row[1]) if row is not None else None


_STORED = "SELECT plies, replayable FROM {table} WHERE game_id = %s AND rules_version = %s"


def finished_record(game: Game) -> Record:
    """The record of a finished ``game``: the stored one, else built now and stored.

    A failure to store is logged and the record built for this request is
    returned anyway (the next view tries again): a page never fails for it.
    """
    record = stored(game)
    if record is not None:
        return record
    record, checkpoints = build(game)
    store_quietly(game, record, checkpoints)
    return record


def store_quietly(game: Game, record: Record, checkpoints: dict[int, engines.State]) -> None:
    """:func:`store`, for a read that built a missing record: a failure is logged, not raised.

    The request goes on with the record it built; the next view tries again.
    """
    try:
        store(game, record, checkpoints)
    except DatabaseError:
        log.exception("game %s: could not store its public record", game.pk)


def public_record(game: Game) -> Record:
    """``game``'s record as far as it is logged: stored once finished, else the in-process one."""
    if game.status == Game.Status.FINISHED:
        return finished_record(game)
    live = live_record.follow(game)
    return Record(live.rows, live.replayable)


def store_after_finish(game_id: int) -> None:
    """Build and store a just-finished game's record; never raises (the finish is committed).

    Called on the finish's commit. Whatever goes wrong is logged: the game's
    pages then build the record on their first view, or the command does.
    """
    try:
        game = Game.objects.get(pk=game_id)
        if game.status == Game.Status.FINISHED:
            store(game, *build(game))
    except Exception:
        log.exception("game %s: could not store its public record after the finish", game_id)


def checkpoint(game: Game, ply: int) -> tuple[int, engines.State] | None:
    """The nearest stored state at or before ``ply`` of a finished ``game``, if any (one query).

    Only checkpoints of a record for the server's rules count (joined in the
    same query), so a record left from older rules is never half-used.
    """
    rules = engines.get(game.engine)
    row = (
        GameCheckpoint.objects.filter(
            game_id=game.pk, ply__lte=ply, game__record__rules_version=rules.version
        )
        .order_by("-ply")
        .values_list("ply", "state")
        .first()
    )
    if row is None:
        return None
    return row[0], rules.from_json(json.loads(row[1]))


def _compact(value: object) -> str:
    """JSON text without spaces, keys in their order (the engines' sentences follow it)."""
    return json.dumps(value, separators=(",", ":"))


def missing_records() -> QuerySet[Game]:
    """Finished games without a record for the server's current rules, oldest first."""
    fresh = Q()
    for rules in engines.all_engines():
        fresh |= Q(engine=rules.slug, record__rules_version=rules.version)
    return Game.objects.filter(status=Game.Status.FINISHED).exclude(fresh).order_by("pk")

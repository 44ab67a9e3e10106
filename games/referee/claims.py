"""Claiming plies: the one write that makes moves part of a game's log.

A claim advances the game's ``next_ply`` past some moves and logs them, only
if the game is still running at the ply the claimant read. The conditional
UPDATE is the lock: a second writer waits for the first to commit, then
matches no row and writes nothing, so every ply is logged exactly once.

On PostgreSQL a claim is one statement (a data-modifying CTE), prepared by
psycopg once per connection, and it can be *sent* without waiting for its
answer (:func:`send_claim`, in psycopg's pipeline mode): the referee asks the
next bot while the database commits the move before, and reads the answer
before it does anything that depends on it. Elsewhere (SQLite) a claim is a
short transaction, done at once.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import psycopg
from django.db import connections, transaction
from django.utils import timezone
from psycopg.pq import TransactionStatus
from psycopg.types.numeric import Int8Dumper

from games.models import Game, Move, Seat
from games.referee.decisions import Decision


def claim_plies(
    game: Game, ply: int, decisions: list[tuple[int, Decision]], seat_row: Seat | None = None
) -> list[Move] | None:
    """Log ``decisions`` as plies ``ply``, ``ply + 1``, ... atomically; None if the ply was taken.

    ``decisions`` are (seat, decision) pairs. ``seat_row``'s event cursor and
    time bank are stored in the same statement, only if the claim succeeds.
    Runs inside the caller's transaction, if there is one.
    """
    return send_claim(game, ply, decisions, seat_row, wait=True).result()


def send_claim(
    game: Game,
    ply: int,
    decisions: list[tuple[int, Decision]],
    seat_row: Seat | None = None,
    *,
    wait: bool = False,
) -> PendingClaim:
    """Start the claim of :func:`claim_plies`; its ``result()`` says how it went.

    Sent without waiting only on PostgreSQL outside a transaction (the claim
    commits on its own); the connection must not be used for anything else
    until ``result()`` was called. Otherwise, or with ``wait``, the claim is
    done before this returns.
    """
    moves = _moves(game, ply, decisions)
    conn = connections[Game.objects.db]
    if conn.vendor != "postgresql":
        return PendingClaim(moves, done=_claim_in_transaction(game, ply, moves, seat_row))
    params: list[Any] = [ply + len(moves), timezone.now(), game.pk, ply, Game.Status.RUNNING]
    if seat_row is not None:
        params += [seat_row.events_sent, seat_row.bank_left_ms, seat_row.pk]
    for move in moves:
        params += [f.get_db_prep_save(f.pre_save(move, add=True), conn) for f in _move_fields()]
    sql = _statement(with_seat=seat_row is not None, count=len(moves))
    if wait or conn.in_atomic_block or not conn.get_autocommit():
        conn.ensure_connection()
        with conn.wrap_database_errors:
            cursor = _cursor(conn.connection)
            cursor.execute(sql, params, prepare=True)
            return PendingClaim(moves, done=_numbered(moves, cursor.fetchall()))
    return PendingClaim(moves, sent=_Pipelined(conn, sql, params))


def _cursor(pg: psycopg.Connection) -> psycopg.Cursor:
    """A cursor that binds on the server, so that psycopg can prepare the claim.

    Django's own cursors bind on the client (they are never prepared).
    Integers go as bigint: psycopg would pick smallint or integer by value,
    and every list of parameter types is a statement of its own.
    """
    cursor = psycopg.Cursor(pg)
    cursor.adapters.register_dumper(int, Int8Dumper)
    return cursor


class PendingClaim:
    """A claim on its way: ``result()`` gives the logged moves, or None if the ply was taken."""

    def __init__(
        self,
        moves: list[Move],
        *,
        done: list[Move] | None = None,
        sent: _Pipelined | None = None,
    ) -> None:
        self._moves = moves
        self._done = done
        self._sent = sent

    def result(self) -> list[Move] | None:
        """Wait for the answer (once); raises the database's error if the statement failed."""
        if self._sent is not None:
            sent, self._sent = self._sent, None
            self._done = _numbered(self._moves, sent.rows())
        return self._done


class _Pipelined:
    """The claim sent in psycopg's pipeline mode on Django's connection, its answer read later.

    Between ``BEGIN`` and ``COMMIT``: a pipeline commits its implicit
    transaction only at a Sync, and psycopg's ``sync()`` waits for every
    answer, while the server runs and commits an explicit ``COMMIT`` as soon
    as it arrives (each ``execute`` in a pipeline is sent at once). ``rows``
    leaves the pipeline (the Sync) and reads the answers. Between the two
    nothing else may use the connection (the referee's thread owns it).
    """

    def __init__(self, conn: Any, sql: str, params: list[Any]) -> None:
        conn.ensure_connection()
        self.conn = conn
        pg = conn.connection
        with conn.wrap_database_errors, _rolled_back_on_error(pg), ExitStack() as pipeline:
            pipeline.enter_context(pg.pipeline())
            pg.execute("BEGIN")
            self.cursor = _cursor(pg)
            self.cursor.execute(sql, params, prepare=True)
            pg.execute("COMMIT")
            self._pipeline = pipeline.pop_all()

    def rows(self) -> list[tuple[int, int]]:
        """Wait for the answer; its (order, id) rows, or the database's error."""
        with self.conn.wrap_database_errors, _rolled_back_on_error(self.conn.connection):
            self._pipeline.close()
            return self.cursor.fetchall()


@contextmanager
def _rolled_back_on_error(pg: psycopg.Connection) -> Iterator[None]:
    """End the claim's ``BEGIN`` if it failed (its transaction would stay open, aborted)."""
    try:
        yield
    except BaseException:
        if not pg.broken and pg.info.transaction_status != TransactionStatus.IDLE:
            pg.rollback()
        raise


def _claim_in_transaction(
    game: Game, ply: int, moves: list[Move], seat_row: Seat | None
) -> list[Move] | None:
    """The portable claim: conditional UPDATE, then the inserts, in one transaction."""
    still_current = Game.objects.filter(pk=game.pk, status=Game.Status.RUNNING, next_ply=ply)
    with transaction.atomic():
        if not still_current.update(next_ply=ply + len(moves), last_progress_at=timezone.now()):
            return None
        for move in moves:
            move.save(force_insert=True)
        if seat_row is not None:
            Seat.objects.filter(pk=seat_row.pk).update(
                events_sent=seat_row.events_sent, bank_left_ms=seat_row.bank_left_ms
            )
    return moves


def _moves(game: Game, ply: int, decisions: list[tuple[int, Decision]]) -> list[Move]:
    return [
        Move(
            game_id=game.pk,
            ply=ply + offset,
            seat=seat,
            action=decision.action,
            source=decision.source,
            latency_ms=decision.latency_ms,
            fault_kind=decision.fault_kind,
            fault_detail=decision.fault_detail,
            request_excerpt=decision.request_excerpt,
            reply_excerpt=decision.reply_excerpt,
        )
        for offset, (seat, decision) in enumerate(decisions)
    ]


def _numbered(moves: list[Move], rows: list[tuple[int, int]]) -> list[Move] | None:
    """Give the moves the ids the statement returned (as (order, id) rows); None if no rows."""
    if not rows:
        return None
    for move, (_, pk) in zip(moves, sorted(rows), strict=True):
        move.pk = pk
        move._state.adding = False
    return moves


@functools.cache
def _move_fields() -> list:
    return [f for f in Move._meta.concrete_fields if not f.primary_key]


@functools.cache
def _statement(*, with_seat: bool, count: int) -> str:
    """The claim with ``%s`` placeholders: with or without the seat's update, for ``count`` moves.

    One ``INSERT ... SELECT ... FROM claimed`` per move (each row only if
    the claim matched), then their ids with their order.
    """
    q = _quote
    parts = [
        f"claimed AS (UPDATE {q(Game._meta.db_table)} "
        "SET next_ply = %s, last_progress_at = %s "
        "WHERE id = %s AND next_ply = %s AND status = %s RETURNING id)"
    ]
    if with_seat:
        parts.append(
            f"seat_kept AS (UPDATE {q(Seat._meta.db_table)} "
            "SET events_sent = %s, bank_left_ms = %s "
            "WHERE id = %s AND EXISTS (SELECT 1 FROM claimed))"
        )
    columns = ", ".join(q(f.column) for f in _move_fields())
    values = ", ".join("%s" for _ in _move_fields())
    for i in range(count):
        parts.append(
            f"m{i} AS (INSERT INTO {q(Move._meta.db_table)} ({columns}) "
            f"SELECT {values} FROM claimed RETURNING id)"
        )
    ids = " UNION ALL ".join(f"SELECT {i}, id FROM m{i}" for i in range(count))
    return f"WITH {', '.join(parts)} {ids}"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'

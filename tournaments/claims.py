"""Claiming plies: the one write that makes moves part of a game's log.

A claim advances the game's ``next_ply`` past some moves and logs them, only
if the game is still running at the ply the claimant read. The conditional
UPDATE is the lock: a second writer waits for the first to commit, then
matches no row and writes nothing, so every ply is logged exactly once.

On PostgreSQL a claim is one statement (a data-modifying CTE), prepared by
psycopg, and it can be *sent* without waiting for its answer
(:func:`send_claim`): another thread executes it while the referee asks the
next bot, and the referee reads the answer before it does anything that
depends on it. Elsewhere (SQLite) a claim is a short transaction, done at once.
"""

from __future__ import annotations

import functools
import os
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import psycopg
from django.db import connections, transaction
from django.utils import timezone

from .decisions import Decision
from .models import Game, Move, Seat


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
    conn.ensure_connection()
    params = {
        "game": game.pk,
        "ply": ply,
        "running": Game.Status.RUNNING.value,
        "next_ply": ply + len(moves),
        "now": timezone.now(),
        "seat": seat_row.pk if seat_row else None,  # no seat: the seat's UPDATE matches no row
        "events_sent": seat_row.events_sent if seat_row else None,
        "bank_left_ms": seat_row.bank_left_ms if seat_row else None,
    }
    for field in _move_fields():
        params[f"move_{field.column}"] = [
            field.get_db_prep_save(field.pre_save(move, add=True), conn) for move in moves
        ]
    # Bound on the server, so that psycopg can prepare it (Django's cursors bind on the client).
    cursor = psycopg.Cursor(conn.connection)
    if wait or conn.in_atomic_block or not conn.get_autocommit():
        with conn.wrap_database_errors:
            cursor.execute(_claim_sql(conn.alias), params, prepare=True)
        return PendingClaim(moves, done=_numbered(moves, cursor.fetchall()))
    executed = _claimer().submit(cursor.execute, _claim_sql(conn.alias), params, prepare=True)
    return PendingClaim(moves, sent=(conn, cursor, executed))


class PendingClaim:
    """A claim on its way: ``result()`` gives the logged moves, or None if the ply was taken."""

    def __init__(
        self,
        moves: list[Move],
        *,
        done: list[Move] | None = None,
        sent: tuple[Any, psycopg.Cursor, Future] | None = None,
    ) -> None:
        self._moves = moves
        self._done = done
        self._sent = sent

    def result(self) -> list[Move] | None:
        """Wait for the answer (once); raises the database's error if the statement failed."""
        if self._sent is not None:
            (conn, cursor, executed), self._sent = self._sent, None
            with conn.wrap_database_errors:
                executed.result()
            self._done = _numbered(self._moves, cursor.fetchall())
        return self._done


@functools.cache
def _claimer() -> ThreadPoolExecutor:
    """The threads that run sent claims (one per claim on its way; made when first needed).

    psycopg's pipeline mode would send the claim without a thread, but its
    Sync (which ends the pipeline) always waits for every answer, so reading
    the claim's answer would cost a round trip to the database on the
    referee's path; a blocking execute on another thread costs none.
    """
    return ThreadPoolExecutor(max_workers=64, thread_name_prefix="claim")


os.register_at_fork(after_in_child=_claimer.cache_clear)  # a fork has no threads


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
    """Give the moves the ids the statement returned (as (ply, id) rows); None if no rows."""
    if not rows:
        return None
    ids = dict(rows)
    for move in moves:
        move.pk = ids[move.ply]
        move._state.adding = False
    return moves


@functools.cache
def _move_fields() -> list:
    return [f for f in Move._meta.concrete_fields if not f.primary_key]


@functools.cache
def _claim_sql(alias: str) -> str:
    """The claim: the conditional UPDATE, the seat's, and the moves' INSERT, in one statement.

    The moves come as one array per column (so one statement serves any
    number of moves), inserted only if the claim matched; the answer is
    their (ply, id) rows.
    """
    conn = connections[alias]
    q = conn.ops.quote_name
    columns = [q(f.column) for f in _move_fields()]
    arrays = [f"%(move_{f.column})s::{_column_type(f, conn)}[]" for f in _move_fields()]
    return (
        f"WITH claimed AS (UPDATE {q(Game._meta.db_table)}"
        " SET next_ply = %(next_ply)s, last_progress_at = %(now)s"
        " WHERE id = %(game)s AND next_ply = %(ply)s AND status = %(running)s RETURNING id),"
        f" seat_kept AS (UPDATE {q(Seat._meta.db_table)}"
        " SET events_sent = %(events_sent)s, bank_left_ms = %(bank_left_ms)s"
        " WHERE id = %(seat)s AND EXISTS (SELECT 1 FROM claimed)),"
        f" logged AS (INSERT INTO {q(Move._meta.db_table)} ({', '.join(columns)})"
        f" SELECT m.* FROM claimed, unnest({', '.join(arrays)}) AS m RETURNING ply, id)"
        " SELECT ply, id FROM logged"
    )


def _column_type(field: Any, conn: Any) -> str:
    """The column's type for a cast (``varchar(10)`` → ``varchar``: too long still fails)."""
    if field.is_relation:
        field = field.target_field
    return field.db_type(conn).split("(")[0].strip()

"""Claiming plies: the one write that makes moves part of a game's log.

A claim advances the game's ``next_ply`` past some moves and logs them, only
if the game is still running at the ply the claimant read. The conditional
UPDATE is the lock: a second writer waits for the first to commit, then
matches no row and writes nothing, so every ply is logged exactly once.

On PostgreSQL a claim is one statement (a data-modifying CTE), and it can be
*sent* without waiting for its answer (:func:`send_claim`): the referee asks
the next bot while the database commits the move before, and reads the
answer before it does anything that depends on it. Elsewhere (SQLite) a
claim is a short transaction, done at once.
"""

from __future__ import annotations

import functools
import json
import select
import weakref
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import DatabaseError, IntegrityError, connections
from django.db.models import JSONField
from django.utils import timezone

from games.models import Game, Move, Seat
from games.referee.decisions import Decision

ANSWER_TIMEOUT_S = 60.0
"""How long a sent claim may take to answer before the connection is given up as broken."""


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
        params += [_value(f, f.pre_save(move, add=True)) for f in _move_fields()]
    shape = _Shape(with_seat=seat_row is not None, count=len(moves))
    if conn.in_atomic_block or not conn.get_autocommit():
        # Through Django's cursor, so that psycopg opens the transaction first.
        with conn.cursor() as cursor:
            cursor.execute(shape.sql("%s"), [_django_value(v, conn) for v in params])
            return PendingClaim(moves, done=_numbered(moves, cursor.fetchall()))
    pending = PendingClaim(moves, sent=_SentStatement(conn, shape, params))
    if wait:
        pending.result()
    return pending


class PendingClaim:
    """A claim on its way: ``result()`` gives the logged moves, or None if the ply was taken."""

    def __init__(
        self,
        moves: list[Move],
        *,
        done: list[Move] | None = None,
        sent: _SentStatement | None = None,
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


def _claim_in_transaction(
    game: Game, ply: int, moves: list[Move], seat_row: Seat | None
) -> list[Move] | None:
    """The portable claim: conditional UPDATE, then the inserts, in one transaction."""
    from django.db import transaction

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


def _numbered(moves: list[Move], rows: list[tuple[Any, Any]]) -> list[Move] | None:
    """Give the moves the ids the statement returned (as (order, id) rows); None if no rows."""
    if not rows:
        return None
    ordered = sorted((int(order), int(pk)) for order, pk in rows)
    for move, (_, pk) in zip(moves, ordered, strict=True):
        move.pk = pk
        move._state.adding = False
    return moves


class _SentStatement:
    """The claim sent as a prepared statement on Django's PostgreSQL connection, read later.

    psycopg's libpq layer (``psycopg.pq``) sends and receives. The statement
    is prepared once per connection and shape (``PREPARE``, with the column
    types), so each claim only sends its values, as text: no parsing or
    planning on the server, no quoting in Python. Between ``__init__`` and
    ``rows`` nothing else may use the connection (the referee's thread owns it).
    """

    def __init__(self, conn: Any, shape: _Shape, params: list[Any]) -> None:
        conn.ensure_connection()
        self.conn = conn
        self.shape = shape
        self.values = [_text(v) for v in params]
        self.pgconn = conn.connection.pgconn
        self._send()

    def _send(self) -> None:
        with self.conn.wrap_database_errors:
            name = self.shape.prepare(self.conn)
            self.pgconn.send_query_prepared(name, self.values)  # raises if it cannot
            while self.pgconn.flush():  # non-blocking: wait until it is all out
                _wait_for(self.pgconn.socket, write=True)

    def rows(self) -> list[tuple[bytes | None, ...]]:
        """Wait for the answer; its rows (text values), or the database's error."""
        try:
            return self._answer()
        except _Unprepared:  # the session lost its prepared statements (DISCARD ALL)
            _prepared_on(self.conn.connection).clear()
            self._send()
            return self._answer()

    def _answer(self) -> list[tuple[bytes | None, ...]]:
        from psycopg import pq

        pgconn = self.pgconn
        with self.conn.wrap_database_errors:
            pgconn.consume_input()
            while pgconn.is_busy():
                _wait_for(pgconn.socket, write=False)
                pgconn.consume_input()
            results = []
            while (result := pgconn.get_result()) is not None:
                results.append(result)
        rows: list[tuple[bytes | None, ...]] = []
        for result in results:
            if result.status == pq.ExecStatus.TUPLES_OK:
                rows += [
                    tuple(result.get_value(r, c) for c in range(result.nfields))
                    for r in range(result.ntuples)
                ]
            elif result.status != pq.ExecStatus.COMMAND_OK:
                error = _error_of(result)
                if not isinstance(error, IntegrityError | _Unprepared):
                    # What Django's error wrapper does for its own queries: an
                    # error that may have broken the connection marks it, so the
                    # check after the task or request tests it and closes it
                    # (a terminated backend answers with an error result here).
                    self.conn.errors_occurred = True
                raise error
        return rows


class _Unprepared(Exception):
    """The server no longer knows the prepared claim (its session was reset)."""


def _error_of(result: Any) -> Exception:
    from psycopg import pq

    sqlstate = (result.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode()
    message = result.error_message.decode("utf-8", "replace").strip()
    if sqlstate == "26000":  # invalid_sql_statement_name
        return _Unprepared(message)
    return IntegrityError(message) if sqlstate.startswith("23") else DatabaseError(message)


def _wait_for(sock: int, *, write: bool) -> None:
    """Block until the socket can be written (or read), at most ``ANSWER_TIMEOUT_S``."""
    poller = select.poll()
    poller.register(sock, select.POLLOUT if write else select.POLLIN)
    if not poller.poll(ANSWER_TIMEOUT_S * 1000):
        raise _broken("the database did not take or answer a claim in time")


def _broken(message: str) -> Exception:
    import psycopg

    return psycopg.OperationalError(message)


def _text(value: Any) -> bytes | None:
    """A value in PostgreSQL's text format (the prepared statement's types say what it is)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return b"t" if value else b"f"
    if isinstance(value, int):
        return str(value).encode()
    if isinstance(value, datetime):
        return value.isoformat().encode()
    if isinstance(value, _Json):
        return json.dumps(value.value).encode()
    return str(value).encode()


def _value(field: Any, value: Any) -> Any:
    return _Json(field, value) if isinstance(field, JSONField) else value


def _django_value(value: Any, conn: Any) -> Any:
    return value.field.get_db_prep_save(value.value, conn) if isinstance(value, _Json) else value


class _Json:
    """A JSON field's value (a plain str could be JSON or text: this says which)."""

    __slots__ = ("field", "value")

    def __init__(self, field: Any, value: Any) -> None:
        self.field = field
        self.value = value


_prepared: weakref.WeakKeyDictionary[Any, set[bytes]] = weakref.WeakKeyDictionary()


def _prepared_on(pg: Any) -> set[bytes]:
    """The claim statements prepared on this psycopg connection (a new connection has none)."""
    names = _prepared.get(pg)
    if names is None:
        names = _prepared[pg] = set()
    return names


@functools.cache
def _move_fields() -> list:
    return [f for f in Move._meta.concrete_fields if not f.primary_key]


@dataclass(frozen=True)
class _Shape:
    """Which claim statement: with or without the seat's update, and how many moves."""

    with_seat: bool
    count: int

    @property
    def name(self) -> bytes:
        return f"hm_claim_{'s' if self.with_seat else 'n'}{self.count}".encode()

    def prepare(self, conn: Any) -> bytes:
        """The statement's name, prepared on the connection first if it is not yet."""
        names = _prepared_on(conn.connection)
        if self.name not in names:
            types = ", ".join(self.types(conn))
            with conn.cursor() as cursor:
                cursor.execute(f"PREPARE {self.name.decode()} ({types}) AS {self.sql('$')}")
            names.add(self.name)
        return self.name

    def types(self, conn: Any) -> list[str]:
        game, seat = Game._meta, Seat._meta
        fields = [game.get_field(n) for n in ("next_ply", "last_progress_at", "id", "next_ply")]
        fields.append(game.get_field("status"))
        if self.with_seat:
            fields += [seat.get_field(n) for n in ("events_sent", "bank_left_ms", "id")]
        fields += _move_fields() * self.count
        return [_column_type(f, conn) for f in fields]

    @functools.cache  # noqa: B019 (a handful of shapes, kept for the process's life)
    def sql(self, style: str) -> str:
        """The statement, with ``%s`` placeholders (Django) or ``$n`` ones (PREPARE).

        One ``INSERT ... SELECT ... FROM claimed`` per move (each row only if
        the claim matched), then their ids with their order.
        """
        numbers = iter(range(1, 1_000_000))

        def p() -> str:
            return "%s" if style == "%s" else f"${next(numbers)}"

        def ps(k: int) -> str:
            return ", ".join(p() for _ in range(k))

        q = _quote
        parts = [
            f"claimed AS (UPDATE {q(Game._meta.db_table)} "
            f"SET next_ply = {p()}, last_progress_at = {p()} "
            f"WHERE id = {p()} AND next_ply = {p()} AND status = {p()} RETURNING id)"
        ]
        if self.with_seat:
            parts.append(
                f"seat_kept AS (UPDATE {q(Seat._meta.db_table)} "
                f"SET events_sent = {p()}, bank_left_ms = {p()} "
                f"WHERE id = {p()} AND EXISTS (SELECT 1 FROM claimed))"
            )
        columns = ", ".join(q(f.column) for f in _move_fields())
        for i in range(self.count):
            parts.append(
                f"m{i} AS (INSERT INTO {q(Move._meta.db_table)} ({columns}) "
                f"SELECT {ps(len(_move_fields()))} FROM claimed RETURNING id)"
            )
        ids = " UNION ALL ".join(f"SELECT {i}, id FROM m{i}" for i in range(self.count))
        return f"WITH {', '.join(parts)} {ids}"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _column_type(field: Any, conn: Any) -> str:
    """The column's type for PREPARE (``varchar(10)`` → ``varchar``; checks are not types)."""
    if field.is_relation:
        field = field.target_field
    return field.db_type(conn).split("(")[0].strip()

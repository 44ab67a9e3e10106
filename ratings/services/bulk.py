"""Writing many rows of one model from plain tuples, as fast as the database allows.

A recompute writes one ``RatingChange`` per competitor per game: 400,000 rows
for 100,000 four-player games. Building a model instance per row costs more
than the rating math, and one INSERT per row costs more still (the issue
measured 57% of a recompute in 80,000 single-row inserts), so rows stay
tuples and go to the database in bulk:

- PostgreSQL: ``COPY … FROM STDIN`` through psycopg 3's ``cursor.copy()``,
  one statement per :data:`COPY_ROWS_PER_STATEMENT` rows, sent by a worker
  thread while the caller goes on producing rows (:func:`_copy`). COPY
  keeps every constraint and index (the unique ``one_change_per_game``
  included) and fires the foreign-key triggers, so it is exactly as safe as
  INSERT;
- anything else (SQLite in development and tests): multi-row
  ``INSERT … VALUES (…), (…)`` statements, as many rows each as the
  backend's parameter limit allows.

Both run in the caller's transaction.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import islice
from typing import Any

from django.db import connection, models

INSERT_ROWS_PER_STATEMENT = 500
"""Upper bound of rows per multi-row INSERT (SQLite also caps the parameters)."""
COPY_ROWS_PER_STATEMENT = 5000
"""Rows per COPY statement: the last statement's server work is what the caller waits for."""
COPY_STATEMENTS_AHEAD = 4
"""Chunks the producer may run ahead of the worker (memory bound; back-pressure)."""


def write_rows(
    model: type[models.Model],
    fields: Sequence[str],
    rows: Iterable[Sequence[Any]],
    replacing: Mapping[str, Any] | None = None,
) -> int:
    """Insert ``rows`` (values in ``fields`` order, foreign keys as ids); return the count.

    ``replacing`` (field -> value, foreign keys as ids) first deletes the
    model's rows with all those values, as the writer's first statement: on
    PostgreSQL the worker thread runs it while the caller already produces
    rows, so a rebuild does not wait for the old rows' removal either. It is
    a plain ``DELETE``: no signals, no cascade (for models nothing refers to).
    """
    columns = [model._meta.get_field(name).column for name in fields]
    delete = _delete_statement(model, replacing) if replacing else None
    if connection.vendor == "postgresql":
        return _copy(model._meta.db_table, columns, rows, delete)
    if delete is not None:
        with connection.cursor() as cursor:
            cursor.execute(*delete)
    return _insert(model, fields, columns, rows)


def _delete_statement(model: type[models.Model], where: Mapping[str, Any]) -> tuple[str, list[Any]]:
    """``DELETE FROM table WHERE column = %s AND …`` and its parameters."""
    quote = connection.ops.quote_name
    names = sorted(where)
    conditions = " AND ".join(f"{quote(model._meta.get_field(n).column)} = %s" for n in names)
    return (
        f"DELETE FROM {quote(model._meta.db_table)} WHERE {conditions}",
        [where[n] for n in names],
    )


def _copy(
    table: str,
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    delete: tuple[str, list[Any]] | None = None,
) -> int:
    """COPY FROM STDIN in chunks from a worker thread, overlapping the caller's work.

    A recompute produces rows as it rates games; the server's share (parsing
    the COPY, inserting, updating the indexes, then checking every foreign key
    of every row) used to start only when the rows were all sent, and the
    foreign-key checks only at COMMIT (Django's are ``DEFERRABLE INITIALLY
    DEFERRED``): about 1.4 s for 80,000 rows that nothing overlapped. Here
    this thread keeps producing while a worker thread COPYs the previous
    chunk, and the table's deferred foreign keys are made ``IMMEDIATE`` for
    the duration, so each chunk is checked at the end of its own statement,
    while the next chunk is being computed. Same constraints, same
    transaction, checked earlier; afterwards they are deferred again.

    The worker uses the same psycopg connection (psycopg connections are
    thread-safe, and this thread does not touch it until the worker is done).
    ``cursor.copy`` is psycopg's own, past Django's error translation, so a
    failure is re-raised here through it: a broken constraint raises
    Django's ``IntegrityError`` as an INSERT would.
    """
    quote = connection.ops.quote_name
    sql = f"COPY {quote(table)} ({', '.join(quote(c) for c in columns)}) FROM STDIN"
    with connection.cursor() as cursor:  # opens the connection if needed
        deferred = _deferred_foreign_keys(cursor, table) if connection.in_atomic_block else []
        if deferred:
            cursor.execute(f"SET CONSTRAINTS {', '.join(map(quote, deferred))} IMMEDIATE")
    raw = connection.connection
    chunks: queue.Queue[list[Sequence[Any]] | None] = queue.Queue(COPY_STATEMENTS_AHEAD)
    failures: list[BaseException] = []

    def work() -> None:
        try:
            with raw.cursor() as worker_cursor:
                if delete is not None:
                    worker_cursor.execute(*delete)
                while (chunk := chunks.get()) is not None:
                    with worker_cursor.copy(sql) as copy:
                        write = copy.write_row
                        for row in chunk:
                            write(row)
        except BaseException as exc:  # re-raised by the producer below
            failures.append(exc)
            while chunks.get() is not None:  # never leave the producer blocked
                pass

    worker = threading.Thread(target=work, name=f"copy {table}", daemon=True)
    worker.start()
    count = 0
    iterator = iter(rows)
    try:
        while not failures and (chunk := list(islice(iterator, COPY_ROWS_PER_STATEMENT))):
            chunks.put(chunk)
            count += len(chunk)
    finally:
        chunks.put(None)
        worker.join()
    if failures:
        with connection.wrap_database_errors:
            raise failures[0]
    if deferred:
        with connection.cursor() as cursor:
            cursor.execute(f"SET CONSTRAINTS {', '.join(map(quote, deferred))} DEFERRED")
    return count


def _deferred_foreign_keys(cursor: Any, table: str) -> list[str]:
    """Names of ``table``'s foreign keys that are checked at commit (initially deferred)."""
    cursor.execute(
        "SELECT conname FROM pg_constraint"
        " WHERE conrelid = %s::regclass AND contype = 'f' AND condeferred ORDER BY conname",
        [connection.ops.quote_name(table)],
    )
    return [name for (name,) in cursor.fetchall()]


def _adapters(
    model: type[models.Model], fields: Sequence[str]
) -> list[Callable[[Any], Any]] | None:
    """Per-column adaptation for raw SQL: only datetimes need it (naive UTC on SQLite)."""
    adapters: list[Callable[[Any], Any]] = []
    needed = False
    for name in fields:
        field = model._meta.get_field(name)
        if isinstance(field, models.DateTimeField):
            adapters.append(lambda v, f=field: f.get_db_prep_value(v, connection))
            needed = True
        else:
            adapters.append(lambda v: v)
    return adapters if needed else None


def _insert(
    model: type[models.Model],
    fields: Sequence[str],
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
) -> int:
    """Batched multi-row INSERTs, sized to the backend's parameter limit."""
    quote = connection.ops.quote_name
    limit = connection.features.max_query_params or 32766
    per_statement = max(1, min(INSERT_ROWS_PER_STATEMENT, limit // len(columns)))
    head = (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(c) for c in columns)}) "
        "VALUES "
    )
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    adapters = _adapters(model, fields)
    pending: list[Sequence[Any]] = []
    count = 0

    def flush(cursor: Any) -> None:
        params = [value for row in pending for value in row]
        cursor.execute(head + ", ".join([one] * len(pending)), params)
        pending.clear()

    with connection.cursor() as cursor:
        for row in rows:
            if adapters is not None:
                row = [adapt(v) for adapt, v in zip(adapters, row, strict=True)]
            pending.append(row)
            count += 1
            if len(pending) == per_statement:
                flush(cursor)
        if pending:
            flush(cursor)
    return count

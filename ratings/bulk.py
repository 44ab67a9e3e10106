"""Writing many rows of one model from plain tuples, as fast as the database allows.

A recompute writes one ``RatingChange`` per competitor per game: 400,000 rows
for 100,000 four-player games. Building a model instance per row costs more
than the rating math, and one INSERT per row costs more still (the issue
measured 57% of a recompute in 80,000 single-row inserts), so rows stay
tuples and go to the database in bulk:

- PostgreSQL: ``COPY … FROM STDIN`` through psycopg 3's ``cursor.copy()``,
  one stream for all rows. COPY keeps every constraint and index (the
  unique ``one_change_per_game`` included) and fires the foreign-key
  triggers, so it is exactly as safe as INSERT;
- anything else (SQLite in development and tests): multi-row
  ``INSERT … VALUES (…), (…)`` statements, as many rows each as the
  backend's parameter limit allows.

Both run in the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db import connection, models

INSERT_ROWS_PER_STATEMENT = 500
"""Upper bound of rows per multi-row INSERT (SQLite also caps the parameters)."""


def write_rows(
    model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]
) -> int:
    """Insert ``rows`` (values in ``fields`` order, foreign keys as ids); return the count."""
    columns = [model._meta.get_field(name).column for name in fields]
    if connection.vendor == "postgresql":
        return _copy(model._meta.db_table, columns, rows)
    return _insert(model, fields, columns, rows)


def _copy(table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """One COPY FROM STDIN; psycopg adapts each value (floats keep every bit).

    ``cursor.copy`` is psycopg's own, past Django's error translation, so the
    stream is wrapped: a broken constraint raises Django's ``IntegrityError``
    as an INSERT would.
    """
    quote = connection.ops.quote_name
    sql = f"COPY {quote(table)} ({', '.join(quote(c) for c in columns)}) FROM STDIN"
    count = 0
    with connection.wrap_database_errors, connection.cursor() as cursor, cursor.copy(sql) as copy:
        write = copy.write_row
        for row in rows:
            write(row)
            count += 1
    return count


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

"""Empty PostgreSQL's tables after a transactional test with DELETE instead of TRUNCATE,
and keep the rows ``post_migrate`` would only make again.

Django empties every table after a ``transaction=True`` test (and before a
live-server or worker test) with one ``TRUNCATE`` of them all. On PostgreSQL
a TRUNCATE gives each table and each of its indexes a new file, and the
tables of a test hold a few rows: on this project's 2-core machines it took
0.05-1.9 s per test where ``DELETE`` of the same rows takes milliseconds, and
flushes were about a tenth of the whole suite's time.

After the flush Django sends ``post_migrate``, whose receivers (contenttypes'
and auth's) make every model's content type and permission again: some 80
queries, 0.2-1 s a flush on a busy 2-core machine, most of a flush's time once
the DELETEs were fast. Those rows depend only on the installed models, never
on a test (no test makes or deletes one), so the DELETE flush leaves
``django_content_type`` and ``auth_permission`` as they are and the signal is
not sent after it (unless they are empty, as a TRUNCATE flush that inhibited
the signal leaves them): the same rows (with the same ids, so ContentType's cache
stays right) and nothing else in any table.

Django creates its foreign keys ``DEFERRABLE INITIALLY DEFERRED`` (and no
migration adds another kind), so the deletes may come in any order once the
constraints are deferred. Sequences are left alone, as Django's own flush
leaves them unless a test asks ``reset_sequences``, which keeps TRUNCATE's
``RESTART IDENTITY`` and the ``post_migrate`` that follows it.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import flush
from django.db import connections
from django.db.backends.postgresql.operations import DatabaseOperations

KEPT_TABLES = frozenset({"django_content_type", "auth_permission"})
"""What contenttypes' and auth's ``post_migrate`` receivers fill from the models alone."""

_truncate = DatabaseOperations.sql_flush
_emit_post_migrate = flush.emit_post_migrate_signal
_last_flush_kept_tables = False
"""Whether the newest flush SQL made here left KEPT_TABLES alone (the flush command
asks for its SQL just before it would send ``post_migrate``)."""


def _delete_flush(
    self: DatabaseOperations,
    style: Any,
    tables: list[str],
    *,
    reset_sequences: bool = False,
    allow_cascade: bool = False,
) -> list[str]:
    global _last_flush_kept_tables
    _last_flush_kept_tables = False
    if not tables or reset_sequences:
        return _truncate(
            self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
    _last_flush_kept_tables = True
    deletes = [
        f"DELETE FROM {self.quote_name(table)}" for table in tables if table not in KEPT_TABLES
    ]
    return ["SET CONSTRAINTS ALL DEFERRED", *deletes]


def _post_migrate_unless_kept(verbosity: int, interactive: bool, database: str) -> None:
    """``post_migrate`` after a TRUNCATE flush, as Django sends it; nothing after a DELETE one,
    unless the kept tables are empty (a TRUNCATE flush that inhibited the signal left them so)."""
    if _last_flush_kept_tables:
        with connections[database].cursor() as cursor:
            cursor.execute(
                "SELECT EXISTS (SELECT FROM django_content_type)"
                " AND EXISTS (SELECT FROM auth_permission)"
            )
            if cursor.fetchone()[0]:
                return
    _emit_post_migrate(verbosity, interactive, database)


def install() -> None:
    """Use DELETE for the test database's flushes in this process (PostgreSQL only)."""
    DatabaseOperations.sql_flush = _delete_flush  # type: ignore[method-assign]
    flush.emit_post_migrate_signal = _post_migrate_unless_kept

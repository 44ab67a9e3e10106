"""SQL the ORM does not spell: one item of a JSON array, chosen by another column.

A game's ranks and scores are kept in seat order in ``Outcome.ranks`` and
``Outcome.scores`` (JSON arrays), and a seat knows its ``position``; reading
``ranks[position]`` in SQL lets the statistics be aggregated by the database
(averages, counts per opponent) instead of by a Python loop over every game.
"""

from __future__ import annotations

from typing import Any

from django.db import NotSupportedError
from django.db.models import Expression, F, FloatField, Func


class JsonArrayItem(Func):
    """``array[index]`` as a float (SQL NULL for a JSON null or a missing item).

    PostgreSQL (``jsonb ->> integer``) and SQLite (``json_extract``) only, the
    two databases the project runs on.
    """

    output_field = FloatField()
    arity = 2

    def __init__(self, array: str | Expression, index: str | Expression, **extra: Any) -> None:
        array = F(array) if isinstance(array, str) else array
        index = F(index) if isinstance(index, str) else index
        super().__init__(array, index, **extra)

    def _parts(self, compiler: Any, connection: Any) -> tuple[str, str, list[Any]]:
        array, index = self.get_source_expressions()
        array_sql, array_params = compiler.compile(array)
        index_sql, index_params = compiler.compile(index)
        return array_sql, index_sql, [*array_params, *index_params]

    def as_sql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list[Any]]:
        raise NotSupportedError(f"JsonArrayItem is not written for {connection.vendor}")

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list[Any]]:
        array, index, params = self._parts(compiler, connection)
        return f"(({array}) ->> ({index})::integer)::double precision", params

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list[Any]]:
        array, index, params = self._parts(compiler, connection)
        return f"CAST(json_extract({array}, '$[' || ({index}) || ']') AS REAL)", params

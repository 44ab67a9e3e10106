"""Page-number pagination for most lists (``?page=2&page_size=100``); cursor pages for games.

Strict, like every other input: ``page`` and ``page_size`` must be whole
numbers in range (DRF would quietly use the default for ``page_size=abc``
or ``page=``); a bad one is a 400 naming it. A page past the end is a 404.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import connections
from django.db.models import QuerySet
from django.utils.dateparse import parse_datetime
from rest_framework import pagination
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

PAGE_BY_CURSOR = "only 1: this list pages by cursor; follow `next` (and `previous`)"


def _whole_number(request: Any, name: str, most: int | None) -> int | None:
    """The query parameter ``name`` as an int from 1 to ``most``, None if absent; else a 400."""
    if name not in request.query_params:
        return None
    text = request.query_params[name]
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise ValidationError({name: ["a whole number from 1 up"]})
    if most is not None and int(text) > most:
        raise ValidationError({name: [f"at most {most}"]})
    return int(text)


class PageNumberPagination(pagination.PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    last_page_strings = ()

    def get_page_size(self, request: Any) -> int:
        chosen = _whole_number(request, self.page_size_query_param, self.max_page_size)
        return self.page_size if chosen is None else chosen

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        _whole_number(request, self.page_query_param, None)
        return super().paginate_queryset(queryset, request, view)

    def check_query(self, request: Any) -> None:
        """A 400 for a bad ``page`` or ``page_size``, for an answer that is not paged (a CSV)
        but whose schema still lists them."""
        _whole_number(request, self.page_query_param, None)
        self.get_page_size(request)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"]["maximum"] = self.max_page_size
        return parameters


class MoveLogPagination(PageNumberPagination):
    """Move logs are long (chance moves count); bigger pages by default."""

    page_size = 200
    max_page_size = 1000


def _is_datetime(text: str) -> bool:
    try:
        return parse_datetime(text) is not None
    except ValueError:  # well formed, out of range
        return False


def counted(queryset: QuerySet[Any], exact_up_to: int) -> int:
    """How many rows ``queryset`` has: exact up to ``exact_up_to``, the planner's estimate above.

    Counting a whole table on every page grows with it; this reads at most
    ``exact_up_to + 1`` index entries, then (on PostgreSQL) asks the planner,
    whose estimate comes from the table's statistics. Other databases (the
    embedded SQLite) count exactly.
    """
    rows = queryset.order_by().values("pk")
    seen = rows[: exact_up_to + 1].count()
    if seen <= exact_up_to:
        return seen
    if connections[rows.db].vendor != "postgresql":
        return rows.count()
    plan = json.loads(rows.explain(format="json"))
    return max(int(plan[0]["Plan"]["Plan Rows"]), seen)


class NewestFirstCursorPagination(pagination.CursorPagination):
    """Cursor pages of a newest-first list: ``?cursor=`` from ``next``/``previous``, ``?page_size``.

    Every page costs the same however deep it is (no OFFSET, no full count),
    and games created meanwhile do not shift the pages. The response keeps the
    page-number shape (``count``, ``next``, ``previous``, ``results``) so
    clients reading it keep working; ``count`` is exact up to 1,000 and an
    estimate above. ``?page=1`` is the first page; any other ``page`` is a 400
    naming it, rather than the first page again (which a client counting
    pages until a 404 would loop on forever).
    """

    ordering = ("-created_at", "-id")
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    exact_count_up_to = 1000
    template = None

    def get_page_size(self, request: Any) -> int:
        chosen = _whole_number(request, self.page_size_query_param, self.max_page_size)
        return self.page_size if chosen is None else chosen

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        if _whole_number(request, "page", None) not in (None, 1):
            raise ValidationError({"page": [PAGE_BY_CURSOR]})
        self.count = counted(queryset, self.exact_count_up_to)
        return super().paginate_queryset(queryset, request, view)

    def decode_cursor(self, request: Any) -> Any:
        cursor = super().decode_cursor(request)
        if cursor is not None and cursor.position is not None and not _is_datetime(cursor.position):
            raise NotFound(self.invalid_cursor_message)  # a forged position: a 404, not a 500
        return cursor

    def get_paginated_response(self, data: Any) -> Response:
        return Response(
            {
                "count": self.count,
                "next": self.get_next_link(),
                "previous": self.get_previous_link(),
                "results": data,
            }
        )

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        shape = super().get_paginated_response_schema(schema)
        shape["required"] = ["count", "next", "previous", "results"]
        shape["properties"] = {
            "count": {
                "type": "integer",
                "example": 123,
                "description": f"Exact up to {self.exact_count_up_to}; an estimate above.",
            },
            **shape["properties"],
        }
        return shape

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_page_size)
            if parameter["name"] == self.cursor_query_param:
                parameter["description"] = (
                    "Where the page starts: take it from `next` or `previous` (opaque)."
                )
        parameters.append(
            {
                "name": "page",
                "required": False,
                "in": "query",
                "deprecated": True,
                "description": PAGE_BY_CURSOR,
                "schema": {"type": "integer", "minimum": 1, "maximum": 1},
            }
        )
        return parameters

"""Page-number pagination for every list (``?page=2&page_size=100``).

Strict, like every other input: ``page`` and ``page_size`` must be whole
numbers in range (DRF would quietly use the default for ``page_size=abc``
or ``page=``); a bad one is a 400 naming it. A page past the end is a 404.
"""

from __future__ import annotations

from typing import Any

from rest_framework import pagination
from rest_framework.exceptions import ValidationError


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

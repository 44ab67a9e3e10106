"""Small filters of the competitor sections (``templates/stats/_competitor.html``)."""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import urlencode

from django import template

from stats.selectors.competitor import HeadToHead
from stats.selectors.filters import GameFilters

register = template.Library()


@register.filter
def get_item(mapping: dict[Any, Any], key: Any) -> Any:
    """``mapping[key]``, or an empty list: Django templates cannot index by a variable."""
    return mapping.get(key, [])


@register.filter
def games_against(filters: GameFilters, row: HeadToHead) -> str:
    """The query string listing the games shared with ``row``'s opponent in its engine: what
    ``GameFilters(engine=..., opponent=...).query()`` writes, without a ``QueryDict`` per row
    (a head-to-head table has up to 200; ``tests/stats`` compares the two)."""
    return f"{_engine_part(row.engine)}&opponent={int(row.opponent_id)}"


@functools.lru_cache(maxsize=64)
def _engine_part(engine: str) -> str:
    return urlencode({"engine": engine})

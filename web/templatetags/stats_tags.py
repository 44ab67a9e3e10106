"""Small filters of the competitor sections (``templates/stats/_competitor.html``)."""

from __future__ import annotations

from typing import Any

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
    """The query string listing the games shared with ``row``'s opponent in its engine."""
    return GameFilters(engine=row.engine, opponent=row.opponent_id).query()

"""Cheap filters for the row-heavy lists: a link by id, a number, a minute.

The game lists, leaderboards and a competitor's tables write dozens to
hundreds of rows, and per row ``{% url %}`` (a resolver walk) and
``floatformat`` (a ``Decimal`` parse and localisation) were most of the
render. These give the same text for less: the link's path is reversed once
per route and the id put in its place (:mod:`web.id_paths`), the number is
rounded as ``floatformat`` rounds it (:mod:`web.numbers`). Both return plain
strings; the template escapes and marks up.
"""

from __future__ import annotations

from datetime import datetime

from django import template

from web.id_paths import id_path
from web.numbers import decimal_separator, fixed, minute

register = template.Library()


@register.filter
def path(pk: int, name: str) -> str:
    """``{{ game.pk|path:"tournaments:game" }}``: ``reverse(name, args=[pk])``."""
    return id_path(name, pk)


@register.filter(name="fixed")
def fixed_filter(value: float | int | None, places: int) -> str:
    """``{{ score|fixed:-2 }}``: ``floatformat``'s text, in the current language's separator."""
    return fixed(value, int(places), decimal_separator())


@register.filter(name="minute")
def minute_filter(moment: datetime | None) -> str:
    """``{{ game.started_at|minute }}``: ``date:"Y-m-d H:i"`` in the current time zone."""
    return minute(moment)

"""The Jinja2 environment of the pages' row-heavy partials (Django's Jinja2 backend).

A first, uncached view renders every row of its lists: a person's games, head
to head and results by seat, a leaderboard, a game's plies. Through the Django
template language those loops cost about twice the CPU of the rest of the page
(decision 0032 has the figures), so these partials are Jinja2 templates
(``jinja2/``), included from the Django templates with ``{% jinja %}``
(``web.templatetags.jinja_partials``). Their filters are cheap: a link by id
(the route reversed once, the id put in: ``web.id_paths``), a number as
``floatformat`` writes it (``web.numbers``), a head-to-head row's query string
written once per engine; strings built in Python are URLs and numbers, never
markup.
"""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import urlencode

from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import json_script
from jinja2.runtime import Context

from jinja2 import Environment, pass_context
from stats.selectors.competitor import HeadToHead
from stats.selectors.filters import GameFilters
from web.id_paths import id_path
from web.numbers import decimal_separator, fixed, minute
from web.templatetags.event_names import breakable


@pass_context
def _fixed(context: Context, value: float | int | None, places: int) -> str:
    """``floatformat``'s text, with the separator ``{% jinja %}`` looked up once per partial."""
    return fixed(value, places, context.get("decimal_separator") or decimal_separator())


def get_item(mapping: dict[Any, Any], key: Any) -> Any:
    """``mapping[key]``, or an empty list."""
    return mapping.get(key, [])


def games_against(filters: GameFilters, row: HeadToHead) -> str:
    """The query string listing the games shared with ``row``'s opponent in its engine: what
    ``GameFilters(engine=..., opponent=...).query()`` writes, without a ``QueryDict`` per row
    (a head-to-head table has up to 200; ``tests/stats/test_jinja_partials.py`` compares)."""
    return f"{_engine_part(row.engine)}&opponent={int(row.opponent_id)}"


@functools.lru_cache(maxsize=64)
def _engine_part(engine: str) -> str:
    return urlencode({"engine": engine})


def _pluralize(count: Any, suffix: str = "s") -> str:
    return "" if count == 1 else suffix


def environment(**options: Any) -> Environment:
    """Django's ``OPTIONS["environment"]``: Jinja2's own, with the pages' filters."""
    env = Environment(**options)
    env.globals.update(static=static, url=lambda name, *args: reverse(name, args=args))
    env.filters.update(
        path=lambda pk, name: id_path(name, pk),
        fixed=_fixed,
        minute=minute,
        breakable=breakable,
        games_against=games_against,
        get_item=get_item,
        json_script=json_script,
        pluralize=_pluralize,
    )
    return env

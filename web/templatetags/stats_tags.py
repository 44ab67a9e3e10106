"""Small filters of the competitor sections (``templates/stats/_competitor.html``)."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any
from urllib.parse import quote_plus

from django import template
from django.utils.safestring import SafeString, mark_safe

from stats.competitor import CompetitorGame, HeadToHead, SeatResults
from stats.filters import GameFilters
from stats.pages import LatestRating
from web.id_paths import id_paths
from web.numbers import decimal_separator, fixed
from web.templatetags import game_rows

register = template.Library()


@register.filter
def get_item(mapping: dict[Any, Any], key: Any) -> Any:
    """``mapping[key]``, or an empty list: Django templates cannot index by a variable."""
    return mapping.get(key, [])


@register.filter
def games_against(filters: GameFilters, row: HeadToHead) -> str:
    """The query string listing the games shared with ``row``'s opponent in its engine."""
    return GameFilters(engine=row.engine, opponent=row.opponent_id).query()


def _engine_cells(row: HeadToHead) -> tuple[str, str]:
    """A row's engine name, escaped, and the start of its link's query (what :func:`games_against`
    writes, without a ``QueryDict`` or ``urlencode``, up to the opponent's id): the same for every
    row of an engine (a table has a few engines and up to 200 rows), so written once per engine."""
    return escape(row.engine_name), escape(f"engine={quote_plus(row.engine)}&opponent=")


@register.simple_tag
def head_to_head_rows(rows: Iterable[HeadToHead]) -> SafeString:
    """The head-to-head table's rows, the markup the template loop wrote.

    In Python because it is the competitor page's bulk (up to
    ``stats.competitor.OPPONENTS`` rows): through ``{% for %}`` their lookups,
    escaping and number formatting per cell were the largest part of a cold
    render under cProfile (10-15% of the page measured, within the noise).
    Numbers are written by :func:`web.numbers.fixed` (the text of
    ``floatformat``, without its ``Decimal`` parsing and localisation per call,
    which were still a third of a cold person page's render) and the links by
    :func:`web.id_paths.id_paths`, so they read exactly as before
    (``tests/stats/test_head_to_head_rows.py`` compares the two).
    """
    parts = []
    separator = decimal_separator()
    competitor_path = id_paths("stats:competitor")
    engines: dict[tuple[str, str], tuple[str, str]] = {}
    kinds: dict[str, str] = {}
    for row in rows:
        opponent = escape(str(row.opponent)).replace("/", "/<wbr>")
        if (row.engine, row.engine_name) not in engines:
            engines[row.engine, row.engine_name] = _engine_cells(row)
        if row.kind not in kinds:
            kinds[row.kind] = escape(row.kind)
        engine, against = engines[row.engine, row.engine_name]
        kind = kinds[row.kind]
        difference = fixed(row.score_difference, 1, separator) or "—"
        page = competitor_path(row.opponent_id)
        parts.append(
            "\n    <tr>\n"
            f'      <td><a class="competitor" href="{page}">{opponent}</a> '
            f'<span class="muted wide-only">({kind})</span>'
            f'<span class="narrow-only muted small"><br>{engine}</span></td>\n'
            f'      <td class="wide-only">{engine}</td>\n'
            f'      <td class="num"><a href="?{against}{int(row.opponent_id)}#games" '
            f'title="these games">{int(row.games)}</a></td>\n'
            f'      <td class="num">{int(row.ahead)} · {int(row.level)} · {int(row.behind)}</td>\n'
            f'      <td class="num">{fixed(row.my_average_rank, 2, separator)} <span class="muted">'
            f"({fixed(row.their_average_rank, 2, separator)})</span></td>\n"
            f'      <td class="num wide-only">{difference}</td>\n'
            "    </tr>\n  "
        )
    return mark_safe("".join(parts))


@register.simple_tag
def options(choices: Iterable[tuple[Any, Any]], chosen: Any) -> SafeString:
    """A filter's ``<option>`` per (value, label), ``selected`` where the value is ``chosen``.

    In Python because the opponent filter lists up to ``stats.competitor.OPPONENTS``
    names: through ``{% for %}`` with an ``{% if %}`` per option it was the
    largest loop left in a cold competitor page (cProfile). The markup the loop
    wrote (``tests/stats/test_head_to_head_rows.py`` compares them).
    """
    return mark_safe(
        "".join(
            f'<option value="{escape(str(value))}"{" selected" if value == chosen else ""}>'
            f"{escape(str(label))}</option>"
            for value, label in choices
        )
    )


@register.simple_tag
def competitor_game_rows(rows: Iterable[CompetitorGame], me: int) -> SafeString:
    """The competitor's games table rows: the game lists' rows (``{% game_rows %}``, written in
    Python for the same reason) with ``me``'s seat marked and a game's event named."""
    separator, paths = decimal_separator(), game_rows.paths_now()
    return mark_safe(
        "".join(
            game_rows.row(row.summary, separator, me, tournaments=True, paths=paths) for row in rows
        )
    )


@register.simple_tag
def seat_rows(rows: Iterable[SeatResults]) -> SafeString:
    """The results-by-seat table's rows, the markup the template loop wrote.

    In Python because, a dozen rows, the loop's seven lookups and two ``floatformat``
    calls per row were a sixteenth of the cold person page's render (0.8 of 5.1 ms CPU
    in ``bench.pages``' database); the numbers by :func:`web.numbers.fixed`
    (``tests/stats/test_section_rows.py`` compares the two).
    """
    separator = decimal_separator()
    return mark_safe(
        "".join(
            f'\n    <tr><td>{escape(row.engine_name)}</td><td class="num">{int(row.players)}</td>'
            f'<td class="num">{int(row.position)}</td><td class="num">{int(row.games)}</td>'
            f'<td class="num">{int(row.firsts)}</td>'
            f'<td class="num">{fixed(row.average_rank, 2, separator)}</td>'
            f'<td class="num wide-only">{fixed(row.average_score, 1, separator) or "—"}</td>'
            "</tr>\n  "
            for row in rows
        )
    )


@register.simple_tag
def latest_ratings(ratings: Iterable[LatestRating]) -> SafeString:
    """A chart's heading: each system's latest rating (Elo whole, the others' score with μ
    and sigma), the markup the template loop wrote, for the same reason as :func:`seat_rows`
    (four ``floatformat`` calls a system; ``tests/stats/test_section_rows.py``)."""
    separator = decimal_separator()
    return mark_safe(
        " · ".join(
            f"{escape(rating.name)} {fixed(rating.value, 0, separator)}"
            if rating.sigma is None
            else f"{escape(rating.name)} {fixed(rating.score, 1, separator)} "
            f'<span class="wide-only">(μ {fixed(rating.value, 1, separator)} ± '
            f"{fixed(rating.sigma, 1, separator)})</span>"
            for rating in ratings
        )
    )

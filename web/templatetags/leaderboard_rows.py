"""``{% leaderboard_rows board %}``: a leaderboard table's rows, one ``<tr>`` per entry.

Written in Python rather than as a template loop because the 50 rows are the
bulk of a leaderboard page: per row the loop did about a dozen lookups, two
``{% if %}`` on the row and one on the board, and the ``breakable`` filter
(cProfile of a cold ``/leaderboards/manila/``: the rows were most of the
template's time once the numbers were formatted in Python). The markup is the
loop's, byte for byte (``tests/tournaments/test_leaderboard_rows.py`` renders
both); text is escaped with ``html.escape``, as Django's ``escape`` does.
"""

from __future__ import annotations

from html import escape

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from web.id_paths import id_paths
from web.leaderboards.pages import Board
from web.leaderboards.ranking import LeaderboardRow

register = template.Library()


def anchor_mark(row: LeaderboardRow) -> str:
    """The "anchor" mark after a house anchor's name: what it is, linked to the anchors page."""
    if not row.anchor:
        return ""
    title = escape(f"house anchor: {row.anchor_summary}")
    href = escape(f"{reverse('stats:anchors')}#{row.anchor}")
    return f' <a class="tag anchor" href="{href}" title="{title}">anchor</a>'


def _row(row: LeaderboardRow, bayesian: bool, tag: str, url: str) -> str:
    """One entry, linking to ``url``; ``tag`` is the provisional mark this board writes after a
    provisional name; a house anchor's name gets :func:`anchor_mark`."""
    name = escape(str(row.competitor)).replace("/", "/<wbr>")  # as the ``breakable`` filter
    numbers = f"      <td>{row.score_text}</td>\n      "
    if bayesian:
        numbers += (
            f'<td class="wide-only">{row.value_text}</td>\n'
            f'      <td class="wide-only">{row.sigma_text}</td>\n      '
        )
    mark = ' class="provisional"' if row.provisional else ""
    return (
        f"\n    <tr{mark}>\n"
        f"      <td>{int(row.rank)}</td>\n"
        f'      <td><a class="competitor" href="{escape(url)}">{name}</a> '
        f'<span class="muted wide-only">({escape(str(row.kind))})</span>'
        f"{anchor_mark(row)}{tag if row.provisional else ''}</td>\n"
        f"{numbers}<td>{int(row.games)}</td>\n"
        "    </tr>\n  "
    )


@register.simple_tag
def leaderboard_rows(board: Board) -> SafeString:
    """The rows of ``tournaments/_leaderboard.html``'s table for ``board``."""
    tag = (
        ' <span class="tag" title="fewer than '
        f'{escape(str(board.provisional_games))} rated games">provisional</span>'
    )
    bayesian, path = board.ladder.bayesian, id_paths("stats:competitor")  # ``row.url``, once
    return mark_safe(
        "".join(_row(row, bayesian, tag, path(row.competitor_id)) for row in board.rows)
    )

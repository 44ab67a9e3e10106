"""``{% game_rows games %}``: a game list's rows (and, through :func:`row`, a competitor's).

Written in Python rather than as a template loop because the rows are what a
game list page renders: home and a leaderboard page show 20, ``/games/`` 50,
a competitor's page 20, and per row the loop did about 25 lookups, a
``{% url %}``, a ``floatformat`` per seat and a ``date`` (cProfile of a cold
``/games/`` page: the loop was most of the template's time). The markup is
byte for byte the loop's (``tests/tournaments/test_game_rows.py`` renders
both); every text is escaped with ``html.escape``, as Django's ``escape``
does, and numbers and dates are written by :mod:`web.numbers`, as
``floatformat:"-2"`` and ``date:"Y-m-d H:i"`` wrote them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from html import escape
from typing import NamedTuple

from django import template
from django.utils.safestring import SafeString, mark_safe

from games.listings import GameSummary
from games.spectator import PublicSeat
from web.id_paths import id_paths
from web.numbers import decimal_separator, fixed, minute

register = template.Library()


class Paths(NamedTuple):
    """The links of a row: a game's page, an event's page and a player's page, by id."""

    game: Callable[[int], str]
    tournament: Callable[[int], str]
    competitor: Callable[[int], str]


def paths_now() -> Paths:
    """The rows' links for this request's URLconf and script prefix, looked up once."""
    return Paths(
        id_paths("tournaments:game"),
        id_paths("tournaments:tournament"),
        id_paths("stats:competitor"),
    )


def _seat(seat: PublicSeat, finished: bool, separator: str, me: int | None, paths: Paths) -> str:
    """One ``<li>`` of the standings: rank, linked name, and score and forfeit once finished."""
    mark = ' class="me"' if me is not None and seat.competitor_id == me else ""
    rank = f'<span class="rank">{escape(str(seat.rank))}.</span> ' if finished else ""
    name = escape(str(seat.competitor))
    href = paths.competitor(seat.competitor_id)
    item = f'<li{mark}>{rank}<a class="competitor" href="{href}">{name}</a>'
    if finished:
        item += f' <span class="score">{fixed(seat.score, -2, separator)}</span>'
        if seat.forfeited:
            item += ' <span class="muted">(forfeited)</span>'
    return f"\n          {item}</li>\n        "


def row(
    item: GameSummary,
    separator: str,
    me: int | None = None,
    tournaments: bool = False,
    paths: Paths | None = None,
) -> str:
    """One ``<tr>``, scores with ``separator`` (``numbers.decimal_separator``).

    ``me`` marks that competitor's seat (``class="me"``) and ``tournaments``
    adds the game's event to its engine's cell, as a competitor's games list
    shows them. ``paths``: :func:`paths_now`, looked up when not given.
    """
    paths = paths or paths_now()
    game = item.game
    status = escape(str(game.status))
    engine = escape(str(item.engine_name))
    if tournaments and game.tournament_id:
        event = escape(str(game.tournament.name))
        href = paths.tournament(game.tournament_id)
        engine += f' <span class="muted">· <a href="{href}">{event}</a></span>'
    unrated = "" if game.rated else ' <span class="muted">(unrated)</span>'
    finished = item.finished
    seats = "".join(_seat(seat, finished, separator, me, paths) for seat in item.standings)
    return (
        "\n    <tr>\n"
        f'      <td><a href="{paths.game(game.pk)}">#{int(game.pk)}</a></td>\n'
        f"      <td>{engine}</td>\n"
        f'      <td><span class="status status-{status}">{status}</span>{unrated}</td>\n'
        '      <td class="players">\n'
        f'        <ol class="standings">\n        {seats}\n        </ol>\n'
        "      </td>\n"
        f'      <td class="started">{minute(game.started_at or game.created_at)}</td>\n'
        "    </tr>\n  "
    )


@register.simple_tag
def game_rows(games: Iterable[GameSummary]) -> SafeString:
    """The rows of ``tournaments/_game_list.html`` (home, ``/games/``, leaderboards, leagues)."""
    separator, paths = decimal_separator(), paths_now()
    return mark_safe("".join(row(item, separator, paths=paths) for item in games))

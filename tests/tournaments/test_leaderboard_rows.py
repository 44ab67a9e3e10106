"""``{% leaderboard_rows %}`` writes what the template loop it replaced wrote.

The loop is kept here as the oracle, over boards in each system (Elo has no
mu and sigma columns), with provisional entries, names to escape and a bot's
``owner/name`` (a ``<wbr>`` after the slash).
"""

from __future__ import annotations

import pytest
from django.template import Context, Template

from games.models import Competitor
from ratings.models import Rating
from ratings.services.scopes import global_scope
from tests.factories import BotFactory
from tests.tournaments.ladders import ladder
from web.leaderboards import pages as ladder_pages

pytestmark = pytest.mark.django_db

LOOP = (
    "{% load event_names %}"
    "  {% for row in board.rows %}\n"
    '    <tr{% if row.provisional %} class="provisional"{% endif %}>\n'
    "      <td>{{ row.rank }}</td>\n"
    '      <td><a class="competitor" href="{{ row.url }}">{{ row.competitor|breakable }}</a> '
    '<span class="muted wide-only">({{ row.kind }})</span>{% if row.anchor %} '
    '<a class="tag anchor" href="/anchors/#{{ row.anchor }}" title="house anchor: '
    '{{ row.anchor_summary }}">anchor</a>{% endif %}{% if row.provisional %} '
    '<span class="tag" title="fewer than {{ board.provisional_games }} rated games">'
    "provisional</span>{% endif %}</td>\n"
    "      <td>{{ row.score_text }}</td>\n"
    '      {% if board.ladder.bayesian %}<td class="wide-only">{{ row.value_text }}</td>\n'
    '      <td class="wide-only">{{ row.sigma_text }}</td>\n'
    "      {% endif %}<td>{{ row.games }}</td>\n"
    "    </tr>\n"
    "  {% endfor %}\n"
)
TAG = "{% load leaderboard_rows %}  {% leaderboard_rows board %}\n"


@pytest.mark.parametrize("system", ["trueskill", "openskill", "elo"])
def test_the_tag_writes_what_the_loop_wrote(system: str) -> None:
    people = ladder("manila", [10.0, 2.5, 2.5, -0.004, -7.125, 0.0], kinds=lambda i: "bot")
    names = ["ann/<b>bold</b>", "bo & co", "=SUM(1)", "ünï/x/y"]
    for person, name in zip(people, names, strict=False):
        Competitor.objects.filter(pk=person.pk).update(name=name, kind="person")
    Rating.objects.filter(competitor__in=people[:3]).update(games=3)  # provisional
    BotFactory(competitor=people[0], anchor="search-32")  # a house anchor, provisional too
    BotFactory(competitor=people[4], anchor="random")
    board = ladder_pages.board(global_scope("manila"), {"system": system})
    assert len(board.rows) == 6 and any(row.provisional for row in board.rows)
    context = Context({"board": board})
    expected = Template(LOOP).render(context)
    written = Template(TAG).render(context)
    assert written == expected
    assert "/<wbr>" in written and "&lt;b&gt;" in written
    assert written.count('class="tag anchor"') == 2

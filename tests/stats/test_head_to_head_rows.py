"""``{% head_to_head_rows %}`` writes exactly what the template loop it replaced wrote."""

from __future__ import annotations

import itertools

import pytest
from django.template import Context, Template

from stats.selectors.competitor import HeadToHead

LOOP = (
    "{% load event_names stats_tags %}"
    "  {% for row in stats.head_to_head %}\n"
    "    <tr>\n"
    '      <td><a class="competitor" href="{% url \'stats:competitor\' row.opponent_id %}">'
    '{{ row.opponent|breakable }}</a> <span class="muted wide-only">({{ row.kind }})</span>'
    '<span class="narrow-only muted small"><br>{{ row.engine_name }}</span></td>\n'
    '      <td class="wide-only">{{ row.engine_name }}</td>\n'
    '      <td class="num"><a href="?{{ stats.selectors.filters|games_against:row }}#games" '
    'title="these games">{{ row.games }}</a></td>\n'
    '      <td class="num">{{ row.ahead }} · {{ row.level }} · {{ row.behind }}</td>\n'
    '      <td class="num">{{ row.my_average_rank|floatformat:2 }} <span class="muted">'
    "({{ row.their_average_rank|floatformat:2 }})</span></td>\n"
    '      <td class="num wide-only">{{ row.score_difference|floatformat:1|default:"—" }}</td>\n'
    "    </tr>\n"
    "  {% endfor %}\n"
)
TAG = "{% load stats_tags %}  {% head_to_head_rows stats.head_to_head %}\n"
NAMES = ["plain", "ada/duelist", "<script>\"x\" & 'y'</script>", "=HYPERLINK()", "ünï"]
NUMBERS = [1.0, 2.125, 2.135, 1.005, 0.0, -0.04, -3.25, 1234567.891, 1 / 3]


def rows() -> list[HeadToHead]:
    found = []
    for n, (name, number) in enumerate(itertools.product(NAMES, NUMBERS)):
        found.append(
            HeadToHead(
                opponent_id=n + 1,
                opponent=name,
                kind="bot" if n % 2 else "person",
                engine="grog_island" if n % 3 else "manila",
                engine_name="Grog Island" if n % 3 else "Manila",
                games=n * 1001,
                my_average_rank=number,
                their_average_rank=number * 2,
                ahead=n,
                level=n % 3,
                behind=1000 + n,
                score_difference=None if n % 4 == 0 else -number,
            )
        )
    return found


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_tag_writes_what_the_loop_wrote(settings, language: str) -> None:
    from django.utils import translation

    from stats.selectors.filters import GameFilters

    context = {"stats": {"head_to_head": rows(), "filters": GameFilters()}}
    with translation.override(language):
        expected = Template(LOOP).render(Context(context))
        written = Template(TAG).render(Context(context))
    assert written == expected


OPTIONS_LOOP = (
    '{% for pk, name in choices %}<option value="{{ pk }}"{% if chosen == pk %} selected'
    "{% endif %}>{{ name }}</option>{% endfor %}"
)


@pytest.mark.parametrize("chosen", [None, 3, "manila", 999])
def test_the_options_tag_writes_what_the_loop_wrote(chosen: object) -> None:
    choices = [(n + 1, name) for n, name in enumerate(NAMES)]
    choices += [("manila", "Manila"), ("a<b", "x & y"), (1234567, "big")]
    context = Context({"choices": choices, "chosen": chosen})
    expected = Template(OPTIONS_LOOP).render(context)
    written = Template("{% load stats_tags %}{% options choices chosen %}").render(context)
    assert written == expected
    assert written.count(" selected") == (chosen in dict(choices))

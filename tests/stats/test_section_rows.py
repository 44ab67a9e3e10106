"""``{% seat_rows %}`` and ``{% latest_ratings %}`` write exactly what the template loops wrote.

The loops are kept here as the oracle, over names to escape, missing averages,
numbers that round either way, Elo (no sigma) beside TrueSkill/OpenSkill, in two
languages (the decimal separator).
"""

from __future__ import annotations

import itertools

import pytest
from django.template import Context, Template
from django.utils import translation

from stats.selectors.competitor import SeatResults
from stats.selectors.pages import LatestRating

SEAT_LOOP = (
    "  {% for row in seats %}\n"
    '    <tr><td>{{ row.engine_name }}</td><td class="num">{{ row.players }}</td>'
    '<td class="num">{{ row.position }}</td><td class="num">{{ row.games }}</td>'
    '<td class="num">{{ row.firsts }}</td><td class="num">{{ row.average_rank|floatformat:2 }}'
    '</td><td class="num wide-only">{{ row.average_score|floatformat:1|default:"—" }}</td>'
    "</tr>\n"
    "  {% endfor %}\n"
)
SEAT_TAG = "{% load stats_tags %}  {% seat_rows seats %}\n"
LATEST_LOOP = (
    "{% for rating in ratings %}{% if not forloop.first %} · {% endif %}{{ rating.name }} "
    "{% if rating.sigma is None %}{{ rating.value|floatformat:0 }}{% else %}"
    '{{ rating.score|floatformat:1 }} <span class="wide-only">(μ {{ rating.value|floatformat:1 }}'
    " ± {{ rating.sigma|floatformat:1 }})</span>{% endif %}{% endfor %}"
)
LATEST_TAG = "{% load stats_tags %}{% latest_ratings ratings %}"
NAMES = ["Manila", "Grog <Island> & 'co'", "ünï"]
NUMBERS = [None, 0.0, 1.005, 2.125, 2.135, -0.04, 1 / 3, 1234.5, 1500.4999, 7]


def seats() -> list[SeatResults]:
    return [
        SeatResults(
            engine="manila",
            engine_name=name,
            players=n % 4 + 2,
            position=n % 3,
            games=n * 1001,
            firsts=n,
            average_rank=rank,
            average_score=None if rank is None else -rank * 10,
        )
        for n, (name, rank) in enumerate(itertools.product(NAMES, NUMBERS))
    ]


def ratings() -> list[LatestRating]:
    found = []
    for name, value in itertools.product(NAMES, [v for v in NUMBERS if v is not None]):
        found.append(LatestRating(name, value * 100, None, value * 100))  # Elo
        found.append(LatestRating(name, value * 10, value, value * 10 - 3 * value))
    return found


@pytest.mark.parametrize("language", ["en", "de"])
def test_seat_rows_write_what_the_loop_wrote(language: str) -> None:
    context = {"seats": seats()}
    with translation.override(language):
        expected = Template(SEAT_LOOP).render(Context(context))
        written = Template(SEAT_TAG).render(Context(context))
    assert written == expected
    assert written.count("<tr>") == len(context["seats"]) and "&lt;Island&gt;" in written


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("count", [0, 1, 3, None])
def test_latest_ratings_write_what_the_loop_wrote(language: str, count: int | None) -> None:
    context = {"ratings": ratings()[:count]}
    with translation.override(language):
        expected = Template(LATEST_LOOP).render(Context(context))
        written = Template(LATEST_TAG).render(Context(context))
    assert written == expected

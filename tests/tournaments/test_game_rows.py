"""``{% game_rows %}`` and ``{% competitor_game_rows %}`` write what the template loops wrote.

The loops are kept here as the oracle, rendered over games of every kind a
list shows: finished (whole and fractional scores, a missing score, a
forfeit), running, unrated, an event's, names that need escaping, a game not
started yet (its creation time shown).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.template import Context, Template
from django.utils import timezone, translation

from games import listings
from games.models import Game, Seat
from stats.competitor import game_rows, games_of
from stats.filters import GameFilters
from tests.factories import CompetitorFactory, GameFactory, finished_game
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

ITEM = (
    "    <tr>\n"
    "      <td><a href=\"{% url 'tournaments:game' item.game.pk %}\">#{{ item.game.pk }}</a></td>\n"
    "      <td>{{ item.engine_name }}ENGINE_EXTRA</td>\n"
    '      <td><span class="status status-{{ item.game.status }}">{{ item.game.status }}</span>'
    '{% if not item.game.rated %} <span class="muted">(unrated)</span>{% endif %}</td>\n'
    '      <td class="players">\n'
    '        <ol class="standings">\n'
    "        {% for seat in item.standings %}\n"
    '          <liME>{% if item.finished %}<span class="rank">{{ seat.rank }}.</span> {% endif %}'
    '<a class="competitor" href="{% url \'stats:competitor\' seat.competitor_id %}">'
    "{{ seat.competitor }}</a>{% if item.finished %} "
    '<span class="score">{{ seat.score|floatformat:"-2" }}</span>{% if seat.forfeited %} '
    '<span class="muted">(forfeited)</span>{% endif %}{% endif %}</li>\n'
    "        {% endfor %}\n"
    "        </ol>\n"
    "      </td>\n"
    '      <td class="started">{{ item.game.started_at|default:item.game.created_at'
    '|date:"Y-m-d H:i" }}</td>\n'
    "    </tr>\n"
)
LIST_LOOP = (
    "  {% for item in games %}\n"
    + ITEM.replace("ENGINE_EXTRA", "").replace("ME", "")
    + "  {% endfor %}\n"
)
COMPETITOR_LOOP = (
    "  {% for row in rows %}{% with item=row.summary %}\n"
    + ITEM.replace(
        "ENGINE_EXTRA",
        '{% if item.game.tournament_id %} <span class="muted">· <a href="{% url '
        "'tournaments:tournament' item.game.tournament_id %}\">{{ item.game.tournament.name }}"
        "</a></span>{% endif %}",
    ).replace("ME", '{% if seat.competitor_id == me %} class="me"{% endif %}')
    + "  {% endwith %}{% endfor %}\n"
)


def _games() -> tuple[object, list[Game]]:
    names = ["plain", "ada/duelist", "<script>\"x\" & 'y'</script>", "=HYPERLINK()"]
    me, *others = [CompetitorFactory(name=name) for name in names]
    cup = Tournament.objects.create(name='Cup <&> "one"', engine="manila", status="finished")
    start = datetime(2026, 3, 1, 23, 59, 30, tzinfo=UTC)
    made = [
        finished_game([me, *others[:2]], [1, 2, 3], scores=[10, 7.5, 2.675], started_at=start),
        finished_game([others[2], me], [2, 1], scores=[-0.004, 3], forfeited=[True, False]),
        finished_game([me, others[0]], [1, 1], scores=[5.0, None], rated=False),
        finished_game([others[1], me], [1, 2], scores=[1.005, 0], tournament=cup),
    ]
    running = GameFactory(num_players=2, status=Game.Status.RUNNING, started_at=start)
    Seat.objects.create(game=running, position=0, competitor=others[0])
    Seat.objects.create(game=running, position=1, competitor=me, substituted=True)
    waiting = GameFactory(num_players=2, status=Game.Status.SCHEDULED, rated=False)
    Seat.objects.create(game=waiting, position=0, competitor=me)
    Seat.objects.create(game=waiting, position=1, competitor=others[2])
    Game.objects.filter(pk=made[0].pk).update(created_at=start - timedelta(hours=1))
    return me, made


@pytest.mark.parametrize(("zone", "language"), [("UTC", "en"), ("America/St_Johns", "de")])
def test_game_rows_write_what_the_loop_wrote(zone: str, language: str) -> None:
    _games()
    games = listings.recent_games(limit=50)
    assert len(games) == 6
    context = Context({"games": games})
    with timezone.override(zone), translation.override(language):
        expected = Template(LIST_LOOP).render(context)
        written = Template("{% load game_rows %}  {% game_rows games %}\n").render(context)
    assert written == expected
    for shown in (
        "(forfeited)",
        "(unrated)",
        "&lt;script&gt;",
        ">2.68<".replace(".", "," if language == "de" else "."),
        ">7.50<".replace(".", "," if language == "de" else "."),
        ">0<",
        "running",
    ):
        assert shown in written, shown


@pytest.mark.parametrize(("zone", "language"), [("UTC", "de"), ("Europe/Amsterdam", "en")])
def test_competitor_game_rows_write_what_the_loop_wrote(zone: str, language: str) -> None:
    me, _ = _games()
    rows = game_rows(me, list(games_of(me, GameFilters())))
    assert len(rows) == 6 and any(row.game.tournament_id for row in rows)
    context = Context({"rows": rows, "me": me.pk})
    tag = "{% load stats_tags %}  {% competitor_game_rows rows me %}\n"
    with timezone.override(zone), translation.override(language):
        expected = Template(COMPETITOR_LOOP).render(context)
        written = Template(tag).render(context)
    assert written == expected
    assert written.count('class="me"') == 6
    assert "Cup &lt;&amp;&gt; &quot;one&quot;" in written


def test_seats_read_as_rows_are_the_prefetched_seats() -> None:
    from games import spectator

    _games()
    prefetched = list(listings.games_with_seats().order_by("id"))
    rows = spectator.attach_seat_rows(list(listings.games_with_results().order_by("id")))
    assert len(rows) == len(prefetched) == 6
    for with_objects, with_rows in zip(prefetched, rows, strict=True):
        assert spectator.public_seats(with_rows) == spectator.public_seats(with_objects)
    assert any(seat.substituted for game in rows for seat in spectator.public_seats(game))
    assert spectator.attach_seat_rows([]) == []

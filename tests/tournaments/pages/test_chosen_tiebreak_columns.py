"""An event's own tie-breaks are the standings' columns, in its order (issue #31, point 6).

The tournament page, the paged standings page, the print view and the CSV
show the tie-breaks the organiser chose after the points, and none of the
default ones it left out; an event that chose none keeps the default three.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.tournaments.pages.builders import make_event
from tournaments.models import Tournament
from tournaments.selectors import standings_table as event_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def chosen() -> Tournament:
    event = make_event(entrants=9, table_size=3, rounds=2).tournament
    Tournament.objects.filter(pk=event.pk).update(tie_breaks=["wins", "beaten_points"])
    cache.clear()
    event.refresh_from_db()
    return event


def headings(html: str) -> list[str]:
    return re.findall(r'data-tie-break="([a-z_]+)"', html)


def test_the_rows_carry_the_chosen_tie_breaks_in_order(chosen) -> None:
    rows = event_standings.standings(chosen)
    for row in rows:
        assert [tb.name for tb in row.tie_breaks] == ["wins", "beaten_points"]
    wins = [row.tie_breaks[0].value for row in rows]
    assert sum(wins) >= 6, "each of the 6 tables has at least one winner"
    keys = [(row.points, *(tb.value for tb in row.tie_breaks)) for row in rows]
    assert keys == sorted(keys, reverse=True), "the columns are what ranked them"


@pytest.mark.parametrize("name", ["tournaments:tournament", "tournaments:standings"])
def test_the_pages_show_the_chosen_columns_only(client: Client, chosen, name: str) -> None:
    html = client.get(reverse(name, args=[chosen.pk])).content.decode()
    assert headings(html) == ["wins", "beaten_points"]
    assert "Tablemates" not in html and "H2H" not in html
    assert "<strong>Wins</strong> (tables won), then <strong>Beaten</strong>" in html


def test_the_print_view_shows_the_chosen_columns(client: Client, chosen) -> None:
    html = client.get(reverse("tournaments:print", args=[chosen.pk])).content.decode()
    assert '<th class="num" title="tables won">Wins</th>' in html
    assert "Tablemates" not in html
    assert "ties broken by tables won, points of those beaten, then seed." in html


def test_the_csv_has_the_chosen_columns_after_points(client: Client, chosen) -> None:
    response = client.get(reverse("tournaments:standings-csv", args=[chosen.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        "rank", "entrant", "kind", "status", "points", "wins", "beaten_points",
        "tables", "byes", "reason",
    ]  # fmt: skip
    first = event_standings.standings(chosen)[0]
    assert rows[1][5] == f"{first.tie_breaks[0].value:g}"


def test_an_event_that_chose_none_keeps_the_default_three(client: Client) -> None:
    event = make_event(entrants=9, table_size=3, rounds=1).tournament
    html = client.get(reverse("tournaments:tournament", args=[event.pk])).content.decode()
    assert headings(html) == ["tablemates_points", "game_score", "head_to_head"]
    response = client.get(reverse("tournaments:standings-csv", args=[event.pk]))
    header = response.content.decode().splitlines()[0]
    assert header == (
        "rank,entrant,kind,status,points,tablemates_points,game_score,head_to_head,"
        "tables,byes,reason"
    )

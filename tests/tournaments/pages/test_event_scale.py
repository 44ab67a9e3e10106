"""An event's page shows the head of its lists, whatever the event's size; the rest is paged.

A 256-entrant event's page reads as many queries as a 16-entrant one's and
renders a bounded number of standings rows, crosstable cells, tables and
entrant rows; every entrant, every meeting and every table is reachable by the
links to the paged standings, crosstable, entrants and round pages, and the
standings there are the standings, in order.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.tournaments.pages.builders import make_event
from tests.tournaments.pages.test_tournament_pages import page
from tournaments.selectors import standings_table as event_standings
from web.events import parts, views

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

BIG = 256


def big_event():
    """256 entrants in tables of 4: round 1 finished, round 2 (64 tables) being played."""
    return make_event(entrants=BIG, table_size=4, rounds=3, played=1, under_way=True)


def section(html: str, name: str) -> str:
    """The page's section ``name``, up to the next of the page's sections (rounds hold others)."""
    start = html.index(f'<section id="{name}">')
    end = html.find('<section id="', start + 1)
    return html[start : end if end > 0 else len(html)]


def rows_of(html: str) -> list[str]:
    return re.findall(r"<tr[ >].*?</tr>", html, re.S)[1:]  # the header row left out


def names_in(rows: list[str]) -> list[str]:
    """The entrant's name in each row (the first competitor link), <wbr> taken out."""
    names = [re.search(r'class="competitor"[^>]*>(.*?)</', row, re.S) for row in rows]
    return [found[1].replace("<wbr>", "") for found in names if found]


def every_page(client: Client, url: str) -> list[str]:
    """The pages of a paged list, following its "Next" links from ``url``."""
    pages = []
    while url:
        html = page(client, url)
        pages.append(html)
        following = re.search(r'<a href="(\?page=\d+)" rel="next">', html)
        url = url.split("?")[0] + following[1] if following else ""
    return pages


def test_the_event_page_reads_and_renders_the_same_at_16_and_256_entrants(
    client: Client,
) -> None:
    queries, cells = [], []
    for entrants in (16, BIG):
        event = make_event(entrants=entrants, table_size=4, rounds=3, played=1, under_way=True)
        url = f"/tournaments/{event.tournament.pk}/"
        page(client, url)  # once: whatever a first request builds
        with CaptureQueriesContext(connection) as captured:
            html = page(client, url)
        queries.append(len(captured))
        cells.append(
            {
                "standings rows": len(rows_of(section(html, "standings"))),
                "crosstable cells": section(html, "crosstable").count("<td"),
                "tables": section(html, "rounds").count('<article class="event-table">'),
                "entrant rows": len(rows_of(section(html, "entrants"))),
            }
        )
    assert queries[0] == queries[1], "the page reads the same queries whatever the event's size"
    small, big = cells
    assert small == {
        "standings rows": 16,
        "crosstable cells": 16 * 16,
        "tables": 8,
        "entrant rows": 16,
    }, "a small event is shown whole"
    assert big == {
        "standings rows": views.STANDINGS_SHOWN,
        "crosstable cells": views.CROSSTABLE_SHOWN**2,
        "tables": views.TABLES_SHOWN,
        "entrant rows": views.ENTRANTS_SHOWN,
    }


def test_a_big_events_lists_are_all_reachable_and_the_standings_in_order(
    client: Client,
) -> None:
    event = big_event()
    t = event.tournament
    html = page(client, f"/tournaments/{t.pk}/")
    standings = event_standings.standings(t)
    names = [row.entrant.name for row in standings]

    # The event page's head of the standings is the standings' head, and links the rest.
    assert names_in(rows_of(section(html, "standings"))) == names[: views.STANDINGS_SHOWN]
    assert f'href="/tournaments/{t.pk}/standings/"' in html
    pages = every_page(client, f"/tournaments/{t.pk}/standings/")
    assert len(pages) == BIG // parts.STANDINGS_PER_PAGE
    shown = [re.findall(r"<td>(\d+)</td>", row)[0] for p in pages for row in rows_of(p)]
    assert [int(rank) for rank in shown] == [row.rank for row in standings]
    assert [n for p in pages for n in names_in(rows_of(p))] == names

    # The crosstable: the top against each other here, every row's meetings on its pages.
    crosstable = section(html, "crosstable")
    assert names_in(rows_of(crosstable)) == names[: views.CROSSTABLE_SHOWN]
    assert f'href="/tournaments/{t.pk}/crosstable/"' in crosstable
    whole = event_standings.crosstable(t)  # the API's N x N table
    expected = [
        [f"{place}: {cell.text}" for place, cell in enumerate(row.cells, start=1) if cell]
        for row in whole.rows
    ]
    pages = every_page(client, f"/tournaments/{t.pk}/crosstable/")
    assert len(pages) == BIG // parts.MEETINGS_PER_PAGE
    rows = [row for p in pages for row in rows_of(p)]
    assert names_in(rows) == names
    met = [re.findall(r'<span class="met" title="[^"]*">(.*?)</span>', row) for row in rows]
    assert met == expected
    assert sum(map(len, met)) == BIG * 3, "round 1: three tablemates each"

    # Rounds: the newest round's first tables here, every table of every round on its pages.
    rounds = section(html, "rounds")
    assert rounds.index('id="round-2"') < rounds.index('id="round-1"')
    assert f'href="/tournaments/{t.pk}/rounds/2/"' in rounds
    assert f'href="/tournaments/{t.pk}/rounds/1/"' in rounds
    assert 'id="round-1"' in rounds and "<th>Place</th>" not in rounds, "round 1 behind a link"
    linked = []
    for number in (1, 2):
        for p in every_page(client, f"/tournaments/{t.pk}/rounds/{number}/"):
            assert p.count('<article class="event-table">') <= parts.TABLES_PER_PAGE
            linked += [int(pk) for pk in re.findall(r'href="/games/(\d+)/"', p)]
    assert sorted(linked) == sorted(game.pk for game in event.games)

    # Entrants, by seed.
    assert f'href="/tournaments/{t.pk}/entrants/"' in html
    pages = every_page(client, f"/tournaments/{t.pk}/entrants/")
    seeds = [int(re.findall(r"<td>(\d+)</td>", row)[0]) for p in pages for row in rows_of(p)]
    assert seeds == list(range(1, BIG + 1))


def test_paged_lists_read_leniently_and_refuse_what_is_not_there(client: Client) -> None:
    event = make_event(entrants=9, played=1, under_way=True)
    t = event.tournament
    for url in ("standings/", "crosstable/", "entrants/", "rounds/1/"):
        for query in ("", "?page=0", "?page=99", "?page=x"):
            assert client.get(f"/tournaments/{t.pk}/{url}{query}").status_code == 200
    assert client.get(f"/tournaments/{t.pk}/rounds/9/").status_code == 404
    assert client.get("/tournaments/999999/standings/").status_code == 404

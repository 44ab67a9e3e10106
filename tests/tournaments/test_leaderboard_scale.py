"""Leaderboards ranked and paged in the database: a page reads its rows only, at any size.

Rank is 1 + the number of entries with a strictly better score, whichever
page shows the row; the page's query count does not depend on the ladder's
size; the SQL of the rows has a LIMIT and builds no more ``Rating`` objects
than the page shows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import connection
from django.db.models.signals import post_init
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Competitor
from ratings.models import Rating
from ratings.scopes import global_scope
from tests.factories import CompetitorFactory
from tests.tournaments.ladders import ladder
from web.leaderboards import ranking as leaderboards
from web.leaderboards.ranking import Ladder

pytestmark = pytest.mark.django_db


@contextmanager
def ratings_built() -> Iterator[list[Rating]]:
    """Every Rating instance Django builds meanwhile."""
    built: list[Rating] = []

    def count(sender, instance, **kwargs) -> None:
        built.append(instance)

    post_init.connect(count, sender=Rating)
    try:
        yield built
    finally:
        post_init.disconnect(count, sender=Rating)


def expected_ranks(scores: list[float]) -> list[int]:
    """1 + the number of strictly better scores, best first."""
    ordered = sorted(scores, reverse=True)
    return [1 + sum(other > score for other in ordered) for score in ordered]


def every_other_a_person(i: int) -> str:
    return "person" if i % 2 else "bot"


@pytest.mark.parametrize(
    "query",
    [
        "?page=1",
        "?system=openskill&page=2",
        "?system=elo&kind=person&page=2",
        "?kind=bot",
    ],
)
def test_a_leaderboard_page_reads_only_its_rows_whatever_the_ladders_size(
    client: Client, query: str
) -> None:
    ladder("batavia", [float(i % 97) for i in range(230)], kinds=every_other_a_person)
    ladder("manila", [float(i % 97) for i in range(600)], kinds=every_other_a_person)
    counts = {}
    for engine in ("batavia", "manila"):
        with CaptureQueriesContext(connection) as queries, ratings_built() as built:
            response = client.get(f"/leaderboards/{engine}/{query}")
        assert response.status_code == 200
        counts[engine] = len(queries)
        ladder_sql = [q["sql"] for q in queries if "RANK()" in q["sql"]]
        assert len(ladder_sql) == 1
        limit = re.search(r"LIMIT (\d+)", ladder_sql[0])
        assert limit and int(limit[1]) <= leaderboards.PAGE_SIZE, ladder_sql[0]
        assert len(built) <= leaderboards.PAGE_SIZE, "only the page's rows become objects"
        assert len(response.context["board"].rows) == leaderboards.PAGE_SIZE
    assert counts["batavia"] == counts["manila"]


def test_the_api_page_reads_only_its_rows_whatever_the_ladders_size(client: Client) -> None:
    ladder("batavia", [float(i % 97) for i in range(230)], kinds=every_other_a_person)
    ladder("manila", [float(i % 97) for i in range(600)], kinds=every_other_a_person)
    counts = {}
    for engine in ("batavia", "manila"):
        with CaptureQueriesContext(connection) as queries, ratings_built() as built:
            response = client.get(f"/api/v1/leaderboards/{engine}/?system=openskill&kind=person")
        assert response.status_code == 200 and len(response.json()["results"]) == 50
        counts[engine] = len(queries)
        assert len(built) <= leaderboards.PAGE_SIZE
    assert counts["batavia"] == counts["manila"]


def test_the_deep_page_counts_the_whole_ladder(client: Client) -> None:
    ladder("manila", [float(i % 97) for i in range(300)])
    deep = client.get("/leaderboards/manila/?page=6")
    assert deep.status_code == 200
    assert "Page 6 of 6 (rows 251 to 300 of 300)" in deep.content.decode()


def test_ranks_survive_pages_and_ties() -> None:
    # Ties straddle the first page break (rows 49 to 52) and sit inside the second page.
    scores = [100.0 - i for i in range(48)] + [10.0] * 4 + [5.0] * 3 + [1.0 - i for i in range(45)]
    ladder("manila", scores)
    scope = global_scope("manila")
    shown = []
    for number in (1, 2, 3):
        page = leaderboards.page(scope, Ladder("trueskill"), number, per_page=40)
        shown += [(row.rank, row.score) for row in page.object_list]
    assert [score for _, score in shown] == sorted(scores, reverse=True)
    assert [rank for rank, _ in shown] == expected_ranks(scores)
    assert [rank for rank, _ in shown][48:55] == [49, 49, 49, 49, 53, 53, 53]
    second = leaderboards.page(scope, Ladder("trueskill"), 2, per_page=50).object_list
    assert second[0].rank == 49, "a tie begun on page 1 keeps its rank on page 2"


def test_sorting_by_elo_ranks_by_elo_and_shows_elo_only(client: Client) -> None:
    people = ladder("manila", [3.0, 2.0, 1.0], elo=[1400.0, 1600.0, 1600.0])
    page = leaderboards.page(global_scope("manila"), Ladder("elo"))
    rows = page.object_list
    assert [row.competitor for row in rows] == [people[1].name, people[2].name, people[0].name]
    assert [row.rank for row in rows] == [1, 1, 3]
    assert (rows[0].value, rows[0].sigma, rows[0].score) == (1600.0, None, 1600.0)
    for query in ("?by=elo", "?system=elo"):
        html = client.get(f"/leaderboards/manila/{query}").content.decode()
        cells = re.findall(r"<tr>\s*<td>(\d+)</td>", html)
        assert cells == ["1", "1", "3"], query
        assert "<th>Elo</th>" in html and '<th class="wide-only">' not in html


def test_the_overview_reads_one_query_per_engine_whatever_the_size(client: Client) -> None:
    ladder("manila", [float(i) for i in range(8)])
    first = ladder("batavia", [float(i) for i in range(8)])
    with CaptureQueriesContext(connection) as small:
        client.get("/leaderboards/")
    Competitor.objects.filter(pk__in=[c.pk for c in first]).delete()
    ladder("batavia", [float(i) for i in range(200)])
    with CaptureQueriesContext(connection) as large, ratings_built() as built:
        html = client.get("/leaderboards/").content.decode()
    assert len(small) == len(large)
    assert len(built) <= 4 * leaderboards.TOP_ROWS
    assert re.search(r'<li value="1"><a [^>]*>batavia-0199<', html) and "batavia-0194" not in html
    with CaptureQueriesContext(connection) as openskill:
        html = client.get("/leaderboards/?system=openskill").content.decode()
    assert len(openskill) == len(large)
    assert re.search(r'<li value="1"><a [^>]*>batavia-0000<', html), "OpenSkill: the other way"


def test_a_league_leaderboard_pages_too(client: Client) -> None:
    from ratings.scopes import league_scope
    from tests.factories import LeagueFactory

    league = LeagueFactory(slug="harbour")
    scope = league_scope(league)
    people = CompetitorFactory.create_batch(60)
    Rating.objects.bulk_create(
        Rating(competitor=p, scope=scope, system=system, value=i, sigma=1, score=i, games=1)
        for i, p in enumerate(people)
        for system in ("elo", "trueskill", "openskill")
    )
    html = client.get("/leagues/harbour/?page=2").content.decode()
    assert "Page 2 of 2 (rows 51 to 60 of 60)" in html
    assert people[0].name in html and people[59].name not in html


def test_empty_ladders_still_render(client: Client) -> None:
    assert client.get("/leaderboards/").status_code == 200
    page = client.get("/leaderboards/manila/?page=7&by=elo")
    assert (
        page.status_code == 200
        and "No rated Manila game has finished yet." in page.content.decode()
    )
    assert leaderboards.top(None) == []
    html = client.get("/leaderboards/manila/?system=openskill&kind=person").content.decode()
    assert "No rated Manila game has finished yet." not in html
    assert "nobody of this kind is rated here yet" in html

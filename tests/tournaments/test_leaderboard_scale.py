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

from ratings.models import Rating
from ratings.scopes import global_scope
from tests.factories import CompetitorFactory
from tournaments import leaderboards
from tournaments.models import Competitor

pytestmark = pytest.mark.django_db


def ladder(engine: str, scores: list[float], elo: list[float] | None = None) -> list[Competitor]:
    """Competitors rated in ``engine``'s ladder: TrueSkill scores as given (sigma 1), Elo too."""
    scope = global_scope(engine)
    people = Competitor.objects.bulk_create(
        [Competitor(kind="bot", name=f"{engine}-{i:04d}") for i in range(len(scores))]
    )
    elo = elo if elo is not None else [1500 + s for s in scores]
    rows = []
    for person, score, rating in zip(people, scores, elo, strict=True):
        rows.append(
            Rating(
                competitor=person,
                scope=scope,
                system="trueskill",
                value=score + 3,
                sigma=1,
                score=score,
                games=4,
            )
        )
        rows.append(
            Rating(
                competitor=person, scope=scope, system="elo", value=rating, score=rating, games=4
            )
        )
    Rating.objects.bulk_create(rows)
    return people


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


def test_a_leaderboard_page_reads_only_its_rows_whatever_the_ladders_size(client: Client) -> None:
    ladder("batavia", [float(i % 97) for i in range(30)])
    ladder("manila", [float(i % 97) for i in range(300)])
    counts = {}
    for engine in ("batavia", "manila"):
        with CaptureQueriesContext(connection) as queries, ratings_built() as built:
            response = client.get(f"/leaderboards/{engine}/?page=1")
        assert response.status_code == 200
        counts[engine] = len(queries)
        ladder_sql = [q["sql"] for q in queries if "RANK()" in q["sql"]]
        assert len(ladder_sql) == 1
        limit = re.search(r"LIMIT (\d+)", ladder_sql[0])
        assert limit and int(limit[1]) <= leaderboards.PAGE_SIZE, ladder_sql[0]
        assert len(built) <= leaderboards.PAGE_SIZE, "only the page's rows become objects"
    assert counts["batavia"] == counts["manila"]
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
        page = leaderboards.page(scope, "trueskill", number, per_page=40)
        shown += [(row.rank, row.trueskill_score) for row in page.object_list]
    assert [score for _, score in shown] == sorted(scores, reverse=True)
    assert [rank for rank, _ in shown] == expected_ranks(scores)
    assert [rank for rank, _ in shown][48:55] == [49, 49, 49, 49, 53, 53, 53]
    second = leaderboards.page(scope, "trueskill", 2, per_page=50).object_list
    assert second[0].rank == 49, "a tie begun on page 1 keeps its rank on page 2"


def test_sorting_by_elo_ranks_by_elo_and_shows_both_systems(client: Client) -> None:
    people = ladder("manila", [3.0, 2.0, 1.0], elo=[1400.0, 1600.0, 1600.0])
    page = leaderboards.page(global_scope("manila"), "elo")
    rows = page.object_list
    assert [row.competitor for row in rows] == [people[1].name, people[2].name, people[0].name]
    assert [row.rank for row in rows] == [1, 1, 3]
    assert (rows[0].elo, rows[0].trueskill_score, rows[0].trueskill_mu) == (1600.0, 2.0, 5.0)
    html = client.get("/leaderboards/manila/?by=elo").content.decode()
    cells = re.findall(r"<tr>\s*<td>(\d+)</td>", html)
    assert cells == ["1", "1", "3"]


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
    assert '<li value="1">batavia-0199' in html and "batavia-0194" not in html


def test_a_league_leaderboard_pages_too(client: Client) -> None:
    from ratings.scopes import league_scope
    from tests.factories import LeagueFactory

    league = LeagueFactory(slug="harbour")
    scope = league_scope(league)
    people = CompetitorFactory.create_batch(60)
    Rating.objects.bulk_create(
        Rating(competitor=p, scope=scope, system=system, value=i, sigma=1, score=i, games=1)
        for i, p in enumerate(people)
        for system in ("elo", "trueskill")
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

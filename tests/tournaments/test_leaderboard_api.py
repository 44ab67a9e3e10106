"""The leaderboard export: ``GET /api/v1/leaderboards/{engine}/`` and a league's, as JSON or CSV.

The rows equal the page's (same order, ranks, numbers), the CSV is every row
with formula-looking names written as text, and what cannot be read is a 400
naming it; an unknown engine or league a 404 ``{detail, code}``.
"""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from games.models import Competitor
from ratings.models import Rating
from ratings.services.scopes import global_scope, league_scope
from tests.factories import LeagueFactory
from tests.tournaments.ladders import ladder
from web.leaderboards import ranking as leaderboards
from web.leaderboards.ranking import Ladder

pytestmark = pytest.mark.django_db

HOSTILE = '=HYPERLINK("http://evil.example","click")'


def csv_rows(response) -> list[dict[str, str]]:
    body = b"".join(response.streaming_content).decode()
    return list(csv.DictReader(io.StringIO(body)))


def mixed_ladder() -> list[Competitor]:
    people = ladder(
        "manila",
        [float(i % 7) for i in range(160)],
        kinds=lambda i: "person" if i % 3 == 0 else "bot",
        games=10,
    )
    Competitor.objects.filter(pk=people[0].pk).update(name=HOSTILE)
    Rating.objects.filter(competitor=people[1]).update(games=9)
    return people


@pytest.mark.parametrize("query", ["", "?system=openskill", "?system=elo&kind=person", "?kind=bot"])
def test_json_rows_equal_the_pages(client: Client, query: str) -> None:
    mixed_ladder()
    joiner = "&" if query else "?"
    for number in (1, 2):
        api = client.get(f"/api/v1/leaderboards/manila/{query}{joiner}page={number}")
        assert api.status_code == 200
        page = client.get(f"/leaderboards/manila/{query}{joiner}page={number}")
        rows = page.context["board"].rows
        got = api.json()["results"]
        assert [r["competitor"] for r in got] == [row.competitor_id for row in rows]
        assert [r["rank"] for r in got] == [row.rank for row in rows]
        assert [(r["value"], r["sigma"], r["score"]) for r in got] == [
            (row.value, row.sigma, row.score) for row in rows
        ]
        assert api.json()["count"] == page.context["board"].page.paginator.count


def test_a_json_row_has_every_field(client: Client) -> None:
    people = mixed_ladder()
    rows = client.get("/api/v1/leaderboards/manila/?system=elo&page_size=200").json()["results"]
    by_id = {row["competitor"]: row for row in rows}
    first, second = by_id[people[0].pk], by_id[people[1].pk]
    assert first == {
        "rank": first["rank"],
        "competitor": people[0].pk,
        "name": HOSTILE,
        "kind": "person",
        "games": 10,
        "provisional": False,
        "value": 1500.0,
        "sigma": None,
        "score": 1500.0,
        "url": f"/competitors/{people[0].pk}/",
        "anchor": None,
    }
    assert second["provisional"] is True and second["games"] == 9
    assert client.get(first["url"]).status_code in (302, 404)  # a competitor without a page


@pytest.mark.parametrize("how", ["query", "accept"])
def test_csv_is_every_row_and_names_are_text(client: Client, how: str) -> None:
    mixed_ladder()
    if how == "query":
        response = client.get("/api/v1/leaderboards/manila/?system=openskill&format=csv")
    else:
        response = client.get(
            "/api/v1/leaderboards/manila/?system=openskill", HTTP_ACCEPT="text/csv"
        )
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="manila-openskill-leaderboard.csv"' in response["Content-Disposition"]
    rows = csv_rows(response)
    expected = list(leaderboards.every_row(global_scope("manila"), Ladder("openskill")))
    assert len(rows) == 160 == len(expected)
    assert [int(r["rank"]) for r in rows] == [row.rank for row in expected]
    assert [int(r["competitor"]) for r in rows] == [row.competitor_id for row in expected]
    assert list(rows[0]) == [
        "rank", "competitor", "name", "kind", "games", "provisional", "value", "sigma",
        "score", "url",
    ]  # fmt: skip
    hostile = next(r for r in rows if r["name"].endswith('"click")'))
    assert hostile["name"] == "'" + HOSTILE
    assert {r["provisional"] for r in rows} == {"true", "false"}
    api = client.get("/api/v1/leaderboards/manila/?system=openskill&page_size=200").json()
    assert [float(r["score"]) for r in rows] == [r["score"] for r in api["results"]]


def test_csv_reads_the_ladder_in_chunks(client: Client, monkeypatch) -> None:
    mixed_ladder()
    monkeypatch.setattr(leaderboards, "EXPORT_CHUNK", 10)
    response = client.get("/api/v1/leaderboards/manila/?kind=person&format=csv")
    rows = csv_rows(response)
    assert (len(rows) == 25 and [r["rank"] for r in rows][:3] == ["1", "1", "1"]) or rows
    assert {r["kind"] for r in rows} == {"person"}
    assert 'filename="manila-trueskill-person-leaderboard.csv"' in response["Content-Disposition"]


def test_a_league_board_in_the_api(client: Client) -> None:
    league = LeagueFactory(slug="harbour")
    scope = league_scope(league)
    people = Competitor.objects.bulk_create(Competitor(kind="bot", name=f"b{i}") for i in range(3))
    Rating.objects.bulk_create(
        Rating(competitor=p, scope=scope, system="elo", value=v, score=v, games=3)
        for p, v in zip(people, [1500.0, 1600.0, 1550.0], strict=True)
    )
    scope.systems = {"elo": scope.systems["elo"]}
    scope.save()
    body = client.get("/api/v1/leagues/harbour/leaderboard/?system=elo").json()
    assert [r["name"] for r in body["results"]] == ["b1", "b2", "b0"]
    assert all(r["provisional"] for r in body["results"])
    refused = client.get("/api/v1/leagues/harbour/leaderboard/")
    assert refused.status_code == 400
    assert refused.json() == {"system": ["this ladder is not rated in trueskill; it is in: elo"]}
    response = client.get("/api/v1/leagues/harbour/leaderboard/?system=elo&format=csv")
    assert [r["name"] for r in csv_rows(response)] == ["b1", "b2", "b0"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("system=glicko", "system"),
        ("system=", "system"),
        ("kind=robot", "kind"),
        ("page=0", "page"),
        ("page=abc", "page"),
        ("page_size=500", "page_size"),
        ("system=glicko&format=csv", "system"),
        ("page=-1.5&format=csv", "page"),
        ("page_size=true&format=csv", "page_size"),
    ],
)
def test_bad_parameters_are_a_400_naming_them(client: Client, query: str, field: str) -> None:
    mixed_ladder()
    response = client.get(f"/api/v1/leaderboards/manila/?{query}")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert field in response.json()


def test_unknown_engine_league_or_page_is_a_404(client: Client) -> None:
    for url in (
        "/api/v1/leaderboards/chess/",
        "/api/v1/leaderboards/chess/?format=csv",
        "/api/v1/leagues/nowhere/leaderboard/",
        "/api/v1/leaderboards/manila/?page=2",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        body = response.json()
        assert set(body) == {"detail", "code"} and body["code"] == "not_found", url
    assert "chess" in client.get("/api/v1/leaderboards/chess/").json()["detail"]


def test_an_empty_board(client: Client) -> None:
    body = client.get("/api/v1/leaderboards/batavia/?system=openskill&kind=person").json()
    assert body == {"count": 0, "next": None, "previous": None, "results": []}
    rows = csv_rows(client.get("/api/v1/leaderboards/batavia/?format=csv"))
    assert rows == []

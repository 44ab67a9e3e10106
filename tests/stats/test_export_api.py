"""GET /api/v1/competitors/{id}/games/: JSON pages or one CSV, the page's filters, JSON errors."""

from __future__ import annotations

import csv
import io

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from tests.factories import CompetitorFactory, finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def url(world, query: str = "") -> str:
    return f"/api/v1/competitors/{world.alpha.pk}/games/{query}"


def csv_rows(response) -> list[dict[str, str]]:
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    text = b"".join(response.streaming_content).decode()
    return list(csv.DictReader(io.StringIO(text)))


def test_json_lists_the_games_newest_first_with_results_when_public(api, world) -> None:
    body = api.get(url(world)).json()
    assert body["count"] == 8  # the unlisted game is left out
    records = {r["id"]: r for r in body["results"]}
    g2 = records[world.counted[1].pk]
    assert g2["seat"] == {"position": 1, "competitor_id": world.alpha.pk, "competitor": "ann/alpha",
                          "kind": "bot", "forfeited": False, "substituted": False, "rank": 1,
                          "score": 25.0, "rank_note": None}  # fmt: skip
    assert [s["rank"] for s in g2["seats"]] == [1, 1, 3]
    hidden = records[world.set_open.pk]
    assert hidden["seat"]["rank"] is None and hidden["seat"]["score"] is None
    assert all(s["rank"] is None for s in hidden["seats"])
    assert records[world.counted[0].pk]["tournament_name"] == "Spring cup"


def test_json_filters_and_pages(api, world) -> None:
    g1, _, _, g4, g8 = world.counted
    ids = lambda q: [r["id"] for r in api.get(url(world, q)).json()["results"]]  # noqa: E731
    assert ids("?engine=batavia") == [g8.pk]
    assert ids("?rated=false") == [g8.pk]
    assert ids(f"?tournament={world.tournament.pk}") == [g1.pk]
    assert ids(f"?opponent={world.delta.pk}") == [world.running.pk, g4.pk]
    first = api.get(url(world, "?page_size=3")).json()
    assert len(first["results"]) == 3 and first["next"]


@pytest.mark.parametrize(
    ("query", "name"),
    [("?engine=chess", "engine"), ("?rated=maybe", "rated"), ("?opponent=x", "opponent"),
     ("?tournament=0", "tournament"), ("?engine=", "engine")],
)  # fmt: skip
def test_bad_filters_are_400_naming_them_also_for_csv(api, world, query: str, name: str) -> None:
    for suffix in ("", "&format=csv"):
        response = api.get(url(world, query + suffix))
        assert response.status_code == 400, (query, suffix)
        assert response["Content-Type"] == "application/json"
        assert name in response.json()


def test_pages_are_checked_for_json(api, world) -> None:
    response = api.get(url(world, "?page_size=0"))
    assert response.status_code == 400 and "page_size" in response.json()
    assert api.get(url(world, "?page=2")).status_code == 404


@pytest.mark.parametrize("query", ["?page=-1.5", "?page_size=0", "?page_size=100000"])
def test_paging_parameters_are_checked_for_csv_too(api, world, query: str) -> None:
    """The schema lists them for both answers: a CSV refuses a bad one rather than ignore it."""
    response = api.get(url(world, query + "&format=csv"))
    assert response.status_code == 400, query
    assert response["Content-Type"] == "application/json"


def test_unknown_competitor_and_format_are_404_as_json(api, world) -> None:
    missing = "/api/v1/competitors/999999/games/"
    for path in (missing, missing + "?format=csv", url(world, "?format=xml")):
        response = api.get(path)
        assert response.status_code == 404, path
        assert response.json()["code"] == "not_found"


def test_csv_is_every_matching_game(api, world) -> None:
    response = api.get(url(world, "?format=csv"))
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="ann-alpha-{world.alpha.pk}-games.csv"'
    )
    rows = csv_rows(response)
    assert len(rows) == 8
    g2 = next(r for r in rows if r["game"] == str(world.counted[1].pk))
    assert (g2["seat"], g2["rank"], g2["score"], g2["rated"]) == ("1", "1", "25", "true")
    assert g2["opponents"] == "bravo (1); charlie (3)"
    assert g2["url"] == f"/games/{world.counted[1].pk}/"
    hidden = next(r for r in rows if r["game"] == str(world.set_open.pk))
    assert hidden["rank"] == "" and hidden["score"] == "" and "(" not in hidden["opponents"]
    batavia = csv_rows(api.get(url(world, "?engine=batavia&format=csv")))
    assert [r["game"] for r in batavia] == [str(world.counted[4].pk)]
    accept = api.get(url(world), HTTP_ACCEPT="text/csv")
    assert len(csv_rows(accept)) == 8


def test_csv_writes_formulas_as_text(api) -> None:
    me = CompetitorFactory(name='=HYPERLINK("http://x")')
    other = CompetitorFactory(name="@SUM(A1)")
    finished_game([me, other], [1, 2], scores=[3, 1], rated=False)
    rows = csv_rows(api.get(f"/api/v1/competitors/{me.pk}/games/?format=csv"))
    assert rows[0]["opponents"] == "'@SUM(A1) (2)"


def test_csv_reads_in_chunks(api, monkeypatch) -> None:
    from stats.selectors import export

    monkeypatch.setattr(export, "CHUNK", 2)
    me, other = CompetitorFactory(), CompetitorFactory()
    games = [finished_game([me, other], [1, 2], rated=False) for _ in range(5)]
    rows = csv_rows(api.get(f"/api/v1/competitors/{me.pk}/games/?format=csv"))
    assert [r["game"] for r in rows] == [str(g.pk) for g in reversed(games)]


def test_the_export_is_in_the_schema_with_its_errors() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operation = schema["paths"]["/api/v1/competitors/{id}/games/"]["get"]
    assert set(operation["responses"]) == {"200", "400", "401", "404"}
    ok = operation["responses"]["200"]["content"]
    assert set(ok) == {"application/json", "text/csv"}
    assert ok["application/json"]["schema"]["$ref"].endswith("PaginatedCompetitorGameList")
    for status in ("400", "401", "404"):
        assert "application/json" in operation["responses"][status]["content"]
    names = {p["name"] for p in operation["parameters"]}
    assert {"engine", "tournament", "rated", "opponent", "format", "page", "page_size"} <= names

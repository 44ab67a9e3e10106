"""The tournaments API's reads: public, paginated, drafts left out, the event seed held back."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tournaments.pages.builders import make_event, withdraw
from tournaments.models import Entrant, Table, Tournament
from tournaments.selectors import standings_table as event_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


def get(client: APIClient, url: str, status: int = 200):
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code, response.content[:300])
    return response.json()


def test_the_list_is_paginated_running_first_and_without_drafts(anonymous) -> None:
    finished = make_event(name="Spring")
    running = make_event(name="Summer", played=1, under_way=True)
    make_event(name="Draft", played=0, status=Tournament.Status.DRAFT)
    body = get(anonymous, "/api/v1/tournaments/")
    assert body["count"] == 2 and body["next"] is None
    assert [t["name"] for t in body["results"]] == ["Summer", "Spring"]
    summer, spring = body["results"]
    assert summer["id"] == running.tournament.pk and summer["status"] == "running"
    assert summer["entrant_count"] == 9 and summer["current_round"] == 2
    assert summer["total_rounds"] == 3 and summer["format"] == "swiss"
    assert summer["seed"] is None, "secret while the event runs"
    assert summer["seed_commitment"] == running.tournament.seed_commitment
    assert spring["seed"] == finished.tournament.seed, "revealed at the end"
    page = get(anonymous, "/api/v1/tournaments/?page_size=1&page=2")
    assert [t["name"] for t in page["results"]] == ["Spring"]
    get(anonymous, "/api/v1/tournaments/?page=3", 404)


def test_one_tournament_with_its_entrants(anonymous) -> None:
    event = make_event(played=1, under_way=True)
    gone = withdraw(event, 2, "its server went away")
    body = get(anonymous, f"/api/v1/tournaments/{event.tournament.pk}/")
    assert body["name"] == "Club night" and body["seed"] is None
    entrants = body["entrants"]
    assert [e["seed_order"] for e in entrants] == list(range(1, 10))
    left = next(e for e in entrants if e["id"] == gone.pk)
    assert left["status"] == "withdrawn" and left["reason"] == "its server went away"
    assert left["name"] == gone.competitor.name and left["kind"] == "bot"


def test_the_detail_shows_the_organisers_rules_read_only(anonymous) -> None:
    event = make_event(played=1, under_way=True)
    Tournament.objects.filter(pk=event.tournament.pk).update(
        tie_breaks=["wins", "game_score"],
        check_in=True,
        seeding=Tournament.Seeding.ENTERED,
        allow_same_owner_tables=True,
        review_rounds=True,
        absence_grace_s=90,
    )
    body = get(anonymous, f"/api/v1/tournaments/{event.tournament.pk}/")
    assert body["tie_breaks"] == ["wins", "game_score"]
    assert body["check_in"] is True and body["seeding"] == "entered"
    assert body["allow_same_owner_tables"] is True and body["review_rounds"] is True
    assert body["absence_grace_s"] == 90
    Tournament.objects.filter(pk=event.tournament.pk).update(tie_breaks=[])
    body = get(anonymous, f"/api/v1/tournaments/{event.tournament.pk}/")
    assert body["tie_breaks"] == ["tablemates_points", "game_score", "head_to_head"]
    listed = get(anonymous, "/api/v1/tournaments/")["results"][0]
    assert "tie_breaks" not in listed, "the rules are on the detail only"


@pytest.mark.parametrize(
    "path", ["", "rounds/", "standings/", "crosstable/"], ids=["detail", "rounds", "st", "x"]
)
def test_drafts_and_bad_ids_are_404_in_the_error_shape(anonymous, path: str) -> None:
    draft = make_event(played=0, status=Tournament.Status.DRAFT).tournament
    for tid in (draft.pk, 987654, "abc", "12x", 2**70):
        body = get(anonymous, f"/api/v1/tournaments/{tid}/{path}", 404)
        assert body["code"] == "not_found" and set(body) == {"detail", "code"}


def test_rounds_show_tables_in_seat_order_with_games_and_results(anonymous) -> None:
    event = make_event(entrants=10, played=1, under_way=True)
    t = event.tournament
    rounds = get(anonymous, f"/api/v1/tournaments/{t.pk}/rounds/")
    assert [r["number"] for r in rounds] == [1, 2]
    assert [r["status"] for r in rounds] == ["finished", "running"]
    games = {g.table_id: g for g in event.games}
    for body in rounds:
        assert len(body["byes"]) == 1, "10 entrants in tables of exactly 3"
        for table in body["tables"]:
            row = Table.objects.get(round__tournament=t, round__number=body["number"],
                                    number=table["number"])  # fmt: skip
            assert [seat["entrant"]["id"] for seat in table["seats"]] == row.seats
            assert [seat["position"] for seat in table["seats"]] == [0, 1, 2]
            assert [g["id"] for g in table["games"]] == [games[row.pk].pk]
            if body["number"] == 1:
                game = games[row.pk]
                assert table["status"] == "finished"
                assert [s["rank"] for s in table["seats"]] == game.outcome.ranks
                assert [s["score"] for s in table["seats"]] == game.outcome.scores
                points = [s["points"] for s in table["seats"]]
                assert sum(points) == pytest.approx(8.0), "6/2/0 at a table of 3, ties split"
                if len(set(game.outcome.ranks)) == 3:
                    by_rank = dict(zip(game.outcome.ranks, points, strict=True))
                    assert by_rank == {1: 6.0, 2: 2.0, 3: 0.0}
            else:
                assert table["status"] == "running"
                assert {s["rank"] for s in table["seats"]} == {None}


def test_standings_and_crosstable_are_the_adapters(anonymous) -> None:
    event = make_event(entrants=10, rounds=3)
    withdraw(event, 0, "gone")
    t = event.tournament
    body = get(anonymous, f"/api/v1/tournaments/{t.pk}/standings/")
    rows = event_standings.standings(t)
    assert [(b["rank"], b["entrant"]["id"], b["points"]) for b in body] == [
        (r.rank, r.entrant.id, r.points) for r in rows
    ]
    first = body[0]
    assert set(first) == {"rank", "entrant", "points", "tablemates_points", "game_score",
                          "head_to_head", "tables", "byes", "placings"}  # fmt: skip
    statuses = {b["entrant"]["id"]: b["entrant"]["status"] for b in body}
    assert statuses[event.entrants[0].pk] == Entrant.Status.WITHDRAWN
    cross = get(anonymous, f"/api/v1/tournaments/{t.pk}/crosstable/")
    assert [e["id"] for e in cross["entrants"]] == [r.entrant.id for r in rows]
    grid = event_standings.crosstable(t)
    for row, expected in zip(cross["rows"], grid.rows, strict=True):
        assert row["entrant"]["id"] == expected.entrant.id
        met = [cell for cell in expected.cells if cell is not None]
        assert [m["opponent_id"] for m in row["meetings"]] == [c.opponent_id for c in met]
        assert [m["above"] for m in row["meetings"]] == [c.above for c in met]


def test_the_event_seed_is_in_no_answer_while_the_event_runs(anonymous) -> None:
    for status in ("entries_open", "running", "paused"):
        event = make_event(played=1, under_way=True, status=status,
                           event_seed=f"hidden-{status}-seed")  # fmt: skip
        t = event.tournament
        for path in ("", f"{t.pk}/", f"{t.pk}/rounds/", f"{t.pk}/standings/",
                     f"{t.pk}/crosstable/"):  # fmt: skip
            response = anonymous.get(f"/api/v1/tournaments/{path}")
            assert response.status_code == 200
            assert t.seed.encode() not in response.content, (status, path)
        page = APIClient().get(f"/tournaments/{t.pk}/").content
        assert t.seed.encode() not in page
        t.status = Tournament.Status.FINISHED
        t.save()
        assert get(anonymous, f"/api/v1/tournaments/{t.pk}/")["seed"] == t.seed


def test_a_bad_token_is_401_even_on_public_reads(anonymous) -> None:
    anonymous.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    body = get(anonymous, "/api/v1/tournaments/", 401)
    assert body["code"] == "authentication_failed"

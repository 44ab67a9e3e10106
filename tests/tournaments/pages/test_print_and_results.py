"""Print views and the results CSV (#31, point 8).

The print page holds the standings, the crosstable and every round's tables,
one sheet per round (the print stylesheet breaks a page after each); the
results CSV has one row per seat of every game, with rank and score only
where the pages show them (a finished public game, or an adjudication), and
nothing of a duplicate set still being played.
"""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from games.models import Competitor, Game, Seat
from tests.tournaments.pages.builders import make_event
from tournaments.models import Adjudication, Table
from tournaments.selectors import standings_table as event_standings
from web.events.exports import RESULTS_COLUMNS

pytestmark = pytest.mark.django_db


def results(client: Client, pk: int) -> list[dict[str, str]]:
    response = client.get(f"/tournaments/{pk}/results.csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].endswith(f'-{pk}-results.csv"')
    text = b"".join(response.streaming_content).decode()
    reader = csv.DictReader(io.StringIO(text))
    assert tuple(reader.fieldnames) == RESULTS_COLUMNS
    return list(reader)


def test_the_results_csv_has_every_seat_of_every_game_with_ranks_and_scores(client) -> None:
    event = make_event(entrants=7, rounds=2, played=1, under_way=True)
    t = event.tournament
    rows = results(client, t.pk)
    assert len(rows) == Seat.objects.filter(game__tournament=t).count()
    assert [r["round"] for r in rows] == sorted((r["round"] for r in rows), key=int)
    finished = Game.objects.filter(tournament=t, status=Game.Status.FINISHED).order_by("pk").first()
    seats = list(finished.seats.order_by("position"))
    mine = [r for r in rows if r["game"] == str(finished.pk)]
    assert [r["seat"] for r in mine] == [str(n) for n in range(1, len(seats) + 1)], "from 1"
    assert [r["entrant"] for r in mine] == [s.competitor.name for s in seats]
    assert [int(r["rank"]) for r in mine] == finished.outcome.ranks
    assert [float(r["score"]) for r in mine] == [float(s) for s in finished.outcome.scores]
    assert {r["result"] for r in mine} == {"played"}
    running = [r for r in rows if r["round"] == "2"]
    assert running and all(r["rank"] == r["score"] == r["result"] == "" for r in running)


def test_an_adjudicated_game_is_exported_with_the_organiser_s_result(client) -> None:
    event = make_event(entrants=6, rounds=2, played=1, under_way=True)
    game = Game.objects.filter(tournament=event.tournament, round_number=2).first()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    Adjudication.objects.create(
        game=game, ranks=[2, 1, 3], scores=[1, 2, 0], reason="froze", by_name="ada"
    )
    mine = [r for r in results(client, event.tournament.pk) if r["game"] == str(game.pk)]
    assert [(r["result"], r["rank"], r["score"]) for r in mine] == [
        ("adjudicated", "2", "1"),
        ("adjudicated", "1", "2"),
        ("adjudicated", "3", "0"),
    ]
    assert {r["game_status"] for r in mine} == {"aborted"}


def test_a_duplicate_set_still_playing_shows_no_result_of_its_finished_games(client) -> None:
    event = make_event(entrants=6, rounds=1, played=1)
    table = Table.objects.filter(round__tournament=event.tournament).first()
    finished = Game.objects.get(table=table)
    sibling = Game.objects.create(
        engine="manila", engine_version=finished.engine_version, num_players=3,
        seed=finished.seed, seed_commitment=finished.seed_commitment,
        status=Game.Status.RUNNING, tournament=event.tournament, table=table, round_number=1,
    )  # fmt: skip
    for seat in finished.seats.all():
        Seat.objects.create(game=sibling, position=seat.position, competitor=seat.competitor)
    rows = [r for r in results(client, event.tournament.pk) if r["table"] == str(table.number)]
    assert rows and all(r["rank"] == "" and r["score"] == "" for r in rows)


def test_names_are_made_safe_for_spreadsheets(client) -> None:
    event = make_event(entrants=6, rounds=1, played=1)
    Competitor.objects.filter(pk__in=[b.competitor_id for b in event.bots]).update(
        name="=HYPERLINK(1)"
    )
    rows = results(client, event.tournament.pk)
    assert rows and all(r["entrant"].startswith("'=") for r in rows)


def test_the_print_page_has_standings_crosstable_and_a_sheet_per_round(client) -> None:
    event = make_event(entrants=7, rounds=3, played=2, under_way=True)
    t = event.tournament
    page = client.get(f"/tournaments/{t.pk}/print/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'href="/static/css/print.css"' in html or "css/print.css" in html
    assert "site-header" not in html, "no site navigation on paper"
    assert html.count('class="sheet round-sheet"') == 3, "one sheet per round"
    assert "Standings (so far)" in html and "Crosstable" in html
    for row in event_standings.standings(t):
        assert row.entrant.name in html
    table = Table.objects.filter(round__tournament=t, round__number=1, number=1).first()
    first = Game.objects.get(table=table)
    assert f"Table 1 · game #{first.pk}" in html
    assert '<td class="num">1</td><td>' in html, "seats are numbered from 1"

    one = client.get(f"/tournaments/{t.pk}/print/?round=2").content.decode()
    assert one.count('class="sheet round-sheet"') == 1 and "— round 2</h2>" in one
    assert "Standings" not in one
    assert client.get(f"/tournaments/{t.pk}/print/?round=9").status_code == 404


def test_the_event_page_links_the_print_view_and_both_csv_files(client) -> None:
    t = make_event(entrants=6, rounds=1, played=1).tournament
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    for url in ("print/", "results.csv", "standings.csv"):
        assert f'href="/tournaments/{t.pk}/{url}"' in html


def test_drafts_have_neither_print_view_nor_results(client) -> None:
    t = make_event(entrants=6, rounds=1, played=0, status="draft").tournament
    assert client.get(f"/tournaments/{t.pk}/print/").status_code == 404
    assert client.get(f"/tournaments/{t.pk}/results.csv").status_code == 404


def test_large_fields_print_each_entrant_s_meetings_instead_of_a_grid(client) -> None:
    t = make_event(entrants=18, rounds=1, played=1).tournament
    html = client.get(f"/tournaments/{t.pk}/print/").content.decode()
    assert "Against (place: record)" in html and 'class="grid crosstable"' not in html

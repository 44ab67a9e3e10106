"""The standings adapter over real rows, the CSV export, and that both read few queries.

The adapter's numbers are checked against facts the rows show on their own
(every table hands out 6/2/0, everyone plays one table or a bye per round,
the crosstable counts exactly the tables two entrants shared), not against
the pure function it calls.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from itertools import combinations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ratings.services import apply_game_result
from tests.factories import CompetitorFactory, LeagueFactory, finished_game
from tests.tournaments.pages.builders import make_event, withdraw
from tournaments.events import standings_table as event_standings
from tournaments.models import Entrant, Table

pytestmark = pytest.mark.django_db


def test_standings_add_up_to_what_the_tables_handed_out() -> None:
    event = make_event(entrants=10, table_size=3, rounds=3)
    t = event.tournament
    rows = event_standings.standings(t)
    assert len(rows) == 10
    tables = Table.objects.filter(round__tournament=t).count()
    byes = sum(len(r.byes) for r in t.rounds_played.all())
    assert byes == 3, "10 in tables of exactly 3: one bye a round"
    assert sum(row.points for row in rows) == pytest.approx(tables * 8 + byes * 8 / 3)
    for row in rows:
        assert row.tables + row.byes == 3
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)
    keys = [(row.points, row.tablemates_points, row.game_score) for row in rows]
    assert keys == sorted(keys, reverse=True)
    assert {row.entrant.name for row in rows} == {b.competitor.name for b in event.bots}


def test_withdrawn_entrants_keep_their_points_and_say_so() -> None:
    event = make_event(played=2, under_way=True)
    before = {row.entrant.id: row.points for row in event_standings.standings(event.tournament)}
    gone = withdraw(event, 0, "owner asked")
    rows = {row.entrant.id: row for row in event_standings.standings(event.tournament)}
    assert rows[gone.pk].points == before[gone.pk]
    assert rows[gone.pk].entrant.status == Entrant.Status.WITHDRAWN
    assert rows[gone.pk].entrant.reason == "owner asked"


def test_the_crosstable_counts_the_tables_each_pair_shared() -> None:
    event = make_event(entrants=9, table_size=3, rounds=3)
    shared: Counter[tuple[int, int]] = Counter()
    for table in Table.objects.filter(round__tournament=event.tournament):
        for a, b in combinations(table.seats, 2):
            shared[(a, b)] += 1
            shared[(b, a)] += 1
    cross = event_standings.crosstable(event.tournament)
    assert [c.id for c in cross.columns] == [row.entrant.id for row in cross.rows]
    seen = 0
    for i, row in enumerate(cross.rows):
        for j, cell in enumerate(row.cells):
            other = cross.columns[j].id
            if cell is None:
                assert i == j or shared[(row.entrant.id, other)] == 0
                continue
            seen += 1
            assert cell.meetings == shared[(row.entrant.id, other)]
            assert cell.above + cell.below + cell.level == cell.meetings
            mirror = cross.rows[j].cells[i]
            assert (mirror.above, mirror.below) == (cell.below, cell.above)
    assert seen == sum(1 for count in shared.values() if count)


def test_an_event_without_rounds_lists_its_entrants_at_zero() -> None:
    event = make_event(entrants=4, played=0)
    rows = event_standings.standings(event.tournament)
    assert [row.entrant.seed_order for row in rows] == [1, 2, 3, 4], "seed breaks the last tie"
    assert {row.points for row in rows} == {0}
    assert {row.rank for row in rows} == {1}


def read_csv(client: Client, url: str) -> tuple[object, list[dict[str, str]]]:
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return response, list(csv.DictReader(io.StringIO(response.content.decode())))


def test_the_csv_rows_are_the_standings(client: Client) -> None:
    event = make_event(entrants=10, table_size=3, rounds=3, name="Spring Open")
    withdraw(event, 2, "left early, sorry")
    t = event.tournament
    response, lines = read_csv(client, f"/tournaments/{t.pk}/standings.csv")
    assert response["Content-Disposition"] == (
        f'attachment; filename="spring-open-{t.pk}-standings.csv"'
    )
    rows = event_standings.standings(t)
    assert len(lines) == len(rows) == 10
    for line, row in zip(lines, rows, strict=True):
        assert line["rank"] == str(row.rank)
        assert line["entrant"] == row.entrant.name
        assert float(line["points"]) == pytest.approx(row.points, abs=1e-6)
        assert float(line["tablemates_points"]) == pytest.approx(row.tablemates_points, abs=1e-6)
        assert float(line["game_score"]) == pytest.approx(row.game_score, abs=1e-6)
        assert float(line["head_to_head"]) == pytest.approx(row.head_to_head, abs=1e-6)
        assert int(line["tables"]) == row.tables and int(line["byes"]) == row.byes
        assert line["status"] == row.entrant.status
    assert [line["reason"] for line in lines if line["status"] == "withdrawn"] == [
        "left early, sorry"
    ]


def test_a_name_a_spreadsheet_would_run_stays_text(client: Client) -> None:
    event = make_event(entrants=3, played=0)
    person = CompetitorFactory(kind="person", name='=HYPERLINK("http://x.test","win")')
    Entrant.objects.create(tournament=event.tournament, competitor=person, seed_order=4)
    _, lines = read_csv(client, f"/tournaments/{event.tournament.pk}/standings.csv")
    names = [line["entrant"] for line in lines]
    assert "'" + person.name in names and person.name not in names


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


PAGES = (
    "/tournaments/{pk}/",
    "/tournaments/{pk}/standings.csv",
    "/api/v1/tournaments/{pk}/",
    "/api/v1/tournaments/{pk}/rounds/",
    "/api/v1/tournaments/{pk}/standings/",
    "/api/v1/tournaments/{pk}/crosstable/",
)


def test_queries_do_not_grow_with_the_event(client: Client) -> None:
    small = make_event(entrants=9, table_size=3, rounds=3, played=2, under_way=True)
    large = make_event(entrants=22, table_size=4, min_table_size=3, rounds=5, played=4,
                       under_way=True)  # fmt: skip
    withdraw(large, 5, "gone")
    for url in PAGES:
        few = queries(client, url.format(pk=small.tournament.pk))
        many = queries(client, url.format(pk=large.tournament.pk))
        assert few == many, (url, few, many)
        assert many <= 12, (url, many)
    make_event(entrants=5, played=0, name="Third")
    for url in ("/tournaments/", "/api/v1/tournaments/"):
        assert queries(client, url) <= 4, url


def test_league_page_queries_do_not_grow_with_the_league(client: Client) -> None:
    counts = []
    for slug, size, arena_games in (("small", 6, 1), ("large", 15, 8)):
        league = LeagueFactory(slug=slug)
        event = make_event(entrants=size, rounds=2, league=league, rated=True)
        for game in event.games:
            apply_game_result(game)
        for n in range(arena_games):
            players = [bot.competitor for bot in event.bots[n % 2 : n % 2 + 3]]
            apply_game_result(finished_game(players, [1, 2, 3], league=league, rated=True))
        counts.append(queries(client, f"/leagues/{slug}/"))
    assert counts[0] == counts[1] <= 10, counts

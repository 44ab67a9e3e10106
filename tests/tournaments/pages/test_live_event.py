"""A real event through the services, read by the pages and the API at each stage.

Owners enter their pull bots through the API, the scheduler (``tournaments.events``)
pairs Swiss rounds and starts their games, the referee finishes them; at each
stage the page, the CSV and the API say what a visitor should see, and the
event seed shows up only at the very end, matching the commitment published
when entries opened.
"""

from __future__ import annotations

import csv
import hashlib
import io

import pytest
from rest_framework.test import APIClient

from tests.factories import BotFactory, UserFactory
from tests.tournaments.events.conftest import finish_games, running_games
from tests.tournaments.pages.test_tournament_pages import text
from tournaments import events
from tournaments.events import standings_table as event_standings
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def secret_nowhere(client: APIClient, t: Tournament) -> None:
    for url in (
        "/tournaments/",
        f"/tournaments/{t.pk}/",
        f"/tournaments/{t.pk}/standings.csv",
        "/api/v1/tournaments/",
        f"/api/v1/tournaments/{t.pk}/",
        f"/api/v1/tournaments/{t.pk}/rounds/",
        f"/api/v1/tournaments/{t.pk}/standings/",
        f"/api/v1/tournaments/{t.pk}/crosstable/",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert t.seed.encode() not in response.content, url


def test_an_event_from_entries_to_final_standings() -> None:
    t = Tournament.objects.create(
        name="Thursday Swiss", engine="manila", format="swiss", table_size=3,
        min_table_size=3, rounds=2, move_time_ms=60_000,
    )  # fmt: skip
    events.open_entries(t)
    t.refresh_from_db()
    visitor = APIClient()
    bots = []
    for n in range(9):
        owner = UserFactory(password=None)
        bot = BotFactory(owner=owner, mode="pull", endpoint_url="", name=f"pull-{n}")
        owner_api = APIClient()
        owner_api.force_authenticate(owner)
        entered = owner_api.post(f"/api/v1/tournaments/{t.pk}/entries/", {"bot": bot.pk})
        assert entered.status_code == 201, entered.content
        bots.append(bot)
    listed = visitor.get(f"/api/v1/tournaments/{t.pk}/").json()
    assert listed["status"] == "entries_open" and listed["entrant_count"] == 9
    assert listed["seed_commitment"] == hashlib.sha256(t.seed.encode()).hexdigest()
    secret_nowhere(visitor, t)

    events.start(t)
    t.refresh_from_db()
    first = running_games(t, 1)
    page = visitor.get(f"/tournaments/{t.pk}/").content.decode()
    for game in first:
        assert f'href="/games/{game.pk}/"' in page
    secret_nowhere(visitor, t)

    finish_games(first, seed=1)
    t.refresh_from_db()
    assert t.current_round == 2
    rounds = visitor.get(f"/api/v1/tournaments/{t.pk}/rounds/").json()
    assert [r["status"] for r in rounds] == ["finished", "running"]
    assert all(table["status"] == "finished" for table in rounds[0]["tables"])
    assert all(seat["rank"] for table in rounds[0]["tables"] for seat in table["seats"])
    secret_nowhere(visitor, t)

    finish_games(running_games(t, 2), seed=2)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    page = visitor.get(f"/tournaments/{t.pk}/").content.decode()
    assert t.seed in page and "Standings (final)" in text(page.encode())
    assert events.verify_seeds(t) == []
    response = visitor.get(f"/tournaments/{t.pk}/standings.csv")
    lines = list(csv.DictReader(io.StringIO(response.content.decode())))
    rows = event_standings.standings(t)
    assert [(line["rank"], line["entrant"]) for line in lines] == [
        (str(row.rank), row.entrant.name) for row in rows
    ]
    assert sum(row.points for row in rows) == pytest.approx(2 * 3 * 8)
    assert visitor.get(f"/api/v1/tournaments/{t.pk}/").json()["seed"] == t.seed

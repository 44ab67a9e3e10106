"""``make demo``'s club event: a Swiss of the example bots that the scheduler plays to its end."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from botapi.models import Bot
from games.models import Game
from games.records.verification import verify_game
from harbormaster.demo import CLUB_LEAGUE_SLUG, EXAMPLE_BOTS
from ratings.models import RatingChange
from tournaments import events
from tournaments.models import League, Round, Table, Tournament

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _demo_settings(settings) -> None:
    settings.DEBUG = True
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.BOT_ENDPOINT_ALLOW = ["loopback"]


def test_the_club_event_runs_to_its_end_and_says_where_to_look() -> None:
    out = StringIO()
    call_command("demo_setup", games_per_engine=0, event_rounds=2, stdout=out)
    output = out.getvalue()
    league = League.objects.get(slug=CLUB_LEAGUE_SLUG)
    assert league.pool == League.Pool.BOTS and league.engine == "manila"
    event = Tournament.objects.get(league=league)
    assert event.status == Tournament.Status.FINISHED, event.status_reason
    assert event.organiser.username == "admin"
    assert event.entrants.count() == len(EXAMPLE_BOTS) == 6
    assert Round.objects.filter(tournament=event).count() == 2
    assert Table.objects.filter(round__tournament=event).count() == 4, "two tables a round"
    games = list(Game.objects.filter(tournament=event))
    assert len(games) == 4
    for game in games:
        assert game.status == Game.Status.FINISHED and verify_game(game).ok
        assert not game.moves.exclude(fault_kind="").exists(), "an example bot faulted"
        scopes = set(RatingChange.objects.filter(game=game).values_list("scope__kind", flat=True))
        assert scopes == {"global", "league"}
    assert events.verify_seeds(event) == []
    assert f"seed commitment: {event.seed_commitment}" in output
    assert "final standings: 1. " in output
    assert f"event seed (revealed): {event.seed}" in output
    assert f"tournament page: http://127.0.0.1:8000/tournaments/{event.pk}/" in output
    # The example bots stopped answering with the command; the house anchors play in-process.
    assert set(Bot.objects.filter(anchor="").values_list("status", flat=True)) == {"suspended"}

    call_command("demo_setup", games_per_engine=0, event_rounds=1, stdout=StringIO())
    assert Tournament.objects.filter(league=league).count() == 2, "each run adds an event"
    assert Tournament.objects.get(name="Harbour club Swiss #2").status == "finished"

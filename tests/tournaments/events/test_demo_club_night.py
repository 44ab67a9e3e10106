"""``make demo``'s mixed club night (issue #31, point 1): ``visitor`` entered, plays in a browser.

``demo_setup`` opens a Swiss in the "bots and people" league with the demo
person entered by themselves (their consent given); ``demo_serve`` enters
the example bots once they answer and starts it, so round 1 seats
``visitor`` at a rated table with two bots, their game waiting for them.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Game
from harbormaster.demo import (
    CLUB_NIGHT_LEAGUE_SLUG,
    DEMO_PERSON_USERNAME,
    open_club_night,
    start_club_night,
)
from tests.factories import BotFactory
from tournaments.models import Entrant, League, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _demo_settings(settings) -> None:
    settings.DEBUG = True
    settings.CELERY_TASK_ALWAYS_EAGER = True


def test_demo_setup_opens_the_club_night_with_visitor_entered() -> None:
    out = StringIO()
    call_command("demo_setup", games_per_engine=0, event_rounds=0, stdout=out)
    night = Tournament.objects.get(league__slug=CLUB_NIGHT_LEAGUE_SLUG)
    assert night.league.pool == League.Pool.MIXED and night.rated
    assert night.status == Tournament.Status.ENTRIES_OPEN
    [entrant] = night.entrants.all()
    assert entrant.competitor.user.username == DEMO_PERSON_USERNAME
    assert entrant.status == Entrant.Status.ACTIVE and entrant.entered_by.username == "visitor"
    assert f"/tournaments/{night.pk}/" in out.getvalue()
    assert open_club_night(night.organiser).pk == night.pk, "a second run reuses it"
    assert night.entrants.count() == 1


def test_the_club_night_starts_with_the_bots_and_seats_visitor_at_a_rated_table() -> None:
    call_command("demo_setup", games_per_engine=0, event_rounds=0, stdout=StringIO())
    bots = [BotFactory(mode="pull", endpoint_url="") for _ in range(6)]  # nobody is called
    night = start_club_night(bots)
    assert night is not None and night.status == Tournament.Status.RUNNING
    assert night.entrants.count() == 6, "the person and five bots: two tables of three"
    games = Game.objects.filter(tournament=night, round_number=1)
    [mine] = [g for g in games if g.seats.filter(competitor__user__username="visitor").exists()]
    assert mine.rated and mine.seats.filter(competitor__kind="bot").count() == 2
    assert start_club_night(bots) is None, "nothing left to start"

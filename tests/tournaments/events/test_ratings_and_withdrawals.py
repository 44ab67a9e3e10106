"""Event games rate through the one exactly-once path; a withdrawn seat forfeits, unrated."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from games.models import Move, Seat
from games.referee import steps as referee
from ratings.models import Rating, RatingChange, RatingScope
from tests.factories import LeagueFactory
from tests.tournaments.played import play_as_people
from tournaments import events
from tournaments.models import Entrant, Round, Table, Tournament
from web.sockets import person_moves

from .conftest import finish_games, make_event, people, running_games

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def league_event(count: int = 6) -> Tournament:
    event = make_event(league=LeagueFactory(), rated=True)
    events.open_entries(event)
    for person in people(count):
        events.enter(event, person, by=person.user)
    events.start(event)
    return event


def test_a_rated_event_game_counts_in_the_league_and_the_global_scope() -> None:
    event = league_event()
    game = running_games(event, 1)[0]
    finish_games([game])
    scopes = set(RatingChange.objects.filter(game=game).values_list("scope__kind", flat=True))
    assert scopes == {RatingScope.Kind.LEAGUE, RatingScope.Kind.GLOBAL}
    league_scope = RatingScope.objects.get(league=event.league)
    assert RatingChange.objects.filter(game=game, scope=league_scope).count() == 3 * 3
    assert RatingChange.objects.filter(game=game).count() == 3 * 3 * 2  # seats, systems, scopes
    assert referee.finish(game.pk) is False, "a second finish of the same game does nothing"
    assert RatingChange.objects.filter(game=game).count() == 3 * 3 * 2


def test_a_withdrawn_entrant_forfeits_its_running_seat_unrated_and_is_not_paired_again() -> None:
    event = league_event()
    game = running_games(event, 1)[0]
    seat = Seat.objects.get(game=game, position=1)
    entrant = Entrant.objects.get(tournament=event, competitor=seat.competitor)
    events.withdraw(entrant, reason="had to leave")
    seat.refresh_from_db()
    assert seat.forfeited and seat.withdrawn and seat.substituted
    assert person_moves.substitution_reason(seat) == "withdrawn"
    play_as_people(game, random.Random(4), absent=1)  # the referee never waits for them
    game.refresh_from_db()
    sources = set(
        Move.objects.filter(game=game, seat=1, ply__gt=0).values_list("source", flat=True)
    )
    assert "house" in sources and "default" not in sources, "a house bot played the person's seat"
    assert game.outcome.ranks[1] == 3, "ranked last"
    rated = set(RatingChange.objects.filter(game=game).values_list("competitor_id", flat=True))
    others = set(game.seats.exclude(position=1).values_list("competitor_id", flat=True))
    assert rated == others, "the withdrawn seat changes no rating; the others rate each other"
    assert not Rating.objects.filter(competitor=seat.competitor).exists()

    finish_games(running_games(event, 1))
    assert Round.objects.filter(tournament=event, number=2).exists()
    seated = [key for t in Table.objects.filter(round__number=2, round__tournament=event)
              for key in t.seats]  # fmt: skip
    assert entrant.pk not in seated and len(seated) == 3, "5 left: one table of 3, two byes"
    table = events.standings_of(event)
    assert len(table) == 6 and [row.key for row in table if not row.active] == [entrant.pk]
    assert next(row for row in table if row.key == entrant.pk).games == 1, "its result counts"

    live = sorted(Rating.objects.values_list("competitor_id", "scope_id", "system", "value"))
    call_command("recompute_ratings", "--no-progress")
    assert sorted(Rating.objects.values_list("competitor_id", "scope_id", "system", "value")) == (
        live
    ), "a recompute leaves the withdrawn seat out exactly as the live path did"


def test_a_disqualified_entrant_forfeits_even_while_the_event_is_paused() -> None:
    event = league_event(3)
    events.pause(event, reason="investigating")
    game = running_games(event, 1)[0]
    seat = Seat.objects.get(game=game, position=0)
    entrant = Entrant.objects.get(tournament=event, competitor=seat.competitor)
    events.disqualify(entrant, reason="used two accounts")
    seat.refresh_from_db()
    assert seat.forfeited and seat.withdrawn
    assert Entrant.objects.get(pk=entrant.pk).status == Entrant.Status.DISQUALIFIED

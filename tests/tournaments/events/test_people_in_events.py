"""People in an event with bots (issue #31, point 1): entered, seated, told, waited for.

A person who entered themselves (with their consent to bot opponents in a
rated event) is paired like any entrant; their game shows in their "game
waiting" badge, the round's start is mailed to them after the pairing
commits, and one who took their consent back is refused at the start with
a sentence, nothing changed.
"""

from __future__ import annotations

import random

import pytest
from django.core import mail
from django.test import Client

from games.models import Game
from games.referee import steps as referee
from games.referee.decisions import Decision
from games.referee.statecache import load_state
from people import services as person_services
from tests.factories import LeagueFactory
from tests.tournaments.played import fast_forward
from tests.tournaments.test_house_bot import play_with_an_absent_person
from tournaments import events
from tournaments.models import League, Tournament
from web.people.waiting import games_waiting_for

from .conftest import make_event, people, pull_bots, running_games

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def mixed_event(**fields) -> Tournament:
    league = LeagueFactory(engine="manila", pool=League.Pool.MIXED)
    event = make_event(league=league, rated=True, rounds=1, **fields)
    events.open_entries(event)
    return event


def test_a_person_is_paired_with_bots_mailed_and_waited_for(settings) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    event = mixed_event()
    [person] = people(1)
    events.enter(event, person, by=person.user)
    for bot in pull_bots(2):
        events.enter(event, bot.competitor, by=bot.owner)
    mail.outbox.clear()
    events.start(event)
    [game] = running_games(event, 1)
    assert game.rated and person.pk in set(game.seats.values_list("competitor_id", flat=True))
    [sent] = mail.outbox
    assert sent.to == [person.user.email]
    assert f"Round 1 of {event.name}" in sent.subject
    assert f"/games/{game.pk}/play/" in sent.body
    assert "house bot" in sent.body, "the mail says what a missed game means"
    mine = game.seats.get(competitor=person).position
    rng = random.Random(0)
    for _ in range(200):  # the bots' seats move (pull bots wait) until the person's turn
        game.refresh_from_db()
        seat = load_state(game).to_move[0]
        if seat == mine:
            break
        assert games_waiting_for(person.user) == [], "not their turn: no badge"
        action = rng.choice(load_state(game).legal_actions(seat))
        referee.submit(game.pk, game.next_ply, seat, Decision(action))
    assert [g.id for g in games_waiting_for(person.user)] == [game.pk]


def test_nobody_is_mailed_for_a_bots_only_round(settings) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    event = mixed_event()
    for bot in pull_bots(3):
        events.enter(event, bot.competitor, by=bot.owner)
    mail.outbox.clear()
    events.start(event)
    assert running_games(event, 1) and mail.outbox == []


def test_consent_taken_back_is_refused_at_the_start_with_a_sentence() -> None:
    event = mixed_event()
    [person] = people(1)
    events.enter(event, person, by=person.user)
    for bot in pull_bots(2):
        events.enter(event, bot.competitor, by=bot.owner)
    person_services.set_consent(person.user, False)
    with pytest.raises(events.EventError, match="not accepted bot opponents in rated games"):
        events.start(event)
    event.refresh_from_db()
    assert event.status == Tournament.Status.ENTRIES_OPEN
    assert not Game.objects.filter(tournament=event).exists()


def test_a_person_without_consent_cannot_enter_a_rated_event_with_bots() -> None:
    event = mixed_event()
    [person] = people(1, consent=False)
    with pytest.raises(events.EventError, match=r"/me/"):
        events.enter(event, person, by=person.user)
    assert not event.entrants.exists()
    people_only = make_event(
        name="People night", rated=True,
        league=LeagueFactory(engine="manila", pool=League.Pool.PEOPLE),
    )  # fmt: skip
    events.open_entries(people_only)
    assert events.enter(people_only, person, by=person.user).status == "active"


def test_a_person_who_misses_their_game_is_played_by_the_house_bot_and_marked(settings) -> None:
    event = mixed_event(move_time_ms=1000, format="swiss")  # a real format: its page renders
    [person] = people(1)
    events.enter(event, person, by=person.user)
    for bot in pull_bots(2):
        events.enter(event, bot.competitor, by=bot.owner)
    events.start(event)
    [game] = running_games(event, 1)
    absent = game.seats.get(competitor=person).position
    rng = random.Random(3)
    # Enough of the game left for the person's clock to run out more often than the fault
    # limit (their defaults pass, which can shorten what is left of it).
    fast_forward(game, rng, leave=150)
    waited = play_with_an_absent_person(game, absent, rng)  # the bots move; the person never
    row = game.seats.get(competitor=person)
    assert row.substituted and row.forfeited, (
        f"the existing house-bot rule, in an event too (waited at plies {waited})"
    )
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED, "the round (and the event) went on"
    html = Client().get(f"/tournaments/{event.pk}/").content.decode()
    assert 'class="seat-mark substituted"' in html

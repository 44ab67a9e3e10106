"""What holds an event up, as the organiser reads it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from botapi.models import Bot
from games.models import Game, Seat
from tournaments import events
from tournaments.models import Round, Tournament

from .conftest import make_event, people, pull_bots

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_referee")]


@pytest.fixture
def started(django_capture_on_commit_callbacks):
    """``started(competitors)``: a running event whose game has come to a player's turn."""

    def start(competitors) -> Tournament:
        event = make_event(move_time_ms=5000)
        events.open_entries(event)
        for competitor in competitors:
            events.enter(event, competitor, by=competitor.user)
        with django_capture_on_commit_callbacks(execute=True):
            events.start(event)
        return event

    return start


def age(game: Game, minutes: int) -> None:
    Game.objects.filter(pk=game.pk).update(
        last_progress_at=timezone.now() - timedelta(minutes=minutes)
    )


def test_a_fresh_event_has_no_problems_and_a_slow_game_is_not_stuck_yet(started) -> None:
    event = started(people(3))
    assert events.problems(event) == []
    age(Game.objects.get(tournament=event), 1)
    assert events.problems(event) == [], "within its clock and the margin"


def test_a_stuck_game_names_its_round_table_and_the_seat_to_move(started) -> None:
    event = started(people(3))
    game = Game.objects.get(tournament=event)
    age(game, 30)
    assert game.next_ply > 0, "chance has been dealt: a person is to move"
    (sentence,) = events.problems(event)
    assert sentence.startswith(f"Game {game.pk} (round 1, table 1) has made no move for 30 min")
    assert "(5 s per move)" in sentence
    seat = Seat.objects.get(game=game, position=int(sentence.split("; seat ")[1].split()[0]))
    assert f"({seat.competitor.name}) is to move: a person" in sentence


def test_a_suspended_bot_is_named_as_the_reason(started) -> None:
    bots = pull_bots(3)
    event = started([bot.competitor for bot in bots])
    game = Game.objects.get(tournament=event)
    Bot.objects.filter(pk__in=[b.pk for b in bots]).update(
        status=Bot.Status.SUSPENDED, status_reason="owner's server is down"
    )
    age(game, 30)
    found = events.problems(event)
    assert "the bot is suspended (owner's server is down)" in found[0]
    assert len(found) == 4, "and each entrant that can no longer play"
    assert "can no longer play: bot" in found[1] and "withdraw it" in found[1]


def test_an_aborted_game_is_named_with_its_reason(started) -> None:
    event = started(people(3))
    game = Game.objects.get(tournament=event)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED, status_reason="Broken.")
    assert events.problems(event) == [
        f"Game {game.pk} (round 1, table 1) was aborted (Broken.), so its table in round 1 "
        "has no result; the round goes on without it. Ask an operator to look at it."
    ]


def test_a_round_long_finished_without_its_successor_is_a_problem(started) -> None:
    event = started(people(3))
    Game.objects.filter(tournament=event).update(status=Game.Status.FINISHED)
    Round.objects.filter(tournament=event).update(
        status=Round.Status.FINISHED, finished_at=timezone.now() - timedelta(minutes=5)
    )
    (sentence,) = events.problems(event)
    assert "round 2 has not been paired yet" in sentence and "beat" in sentence


def test_an_event_over_has_no_problems(started) -> None:
    event = started(people(3))
    age(Game.objects.get(tournament=event), 30)
    events.cancel(event, reason="done")
    assert events.problems(event) == []

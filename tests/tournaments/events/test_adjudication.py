"""Adjudication (#31, point 5): the organiser's result for an aborted or broken event game.

The game stays aborted (its record is what was played) and changes no
rating; the event's standings count the table with the organiser's ranks;
who entered it and why is kept. Every refusal is a sentence and changes
nothing.
"""

from __future__ import annotations

import pytest
from django.db import transaction

from games.models import Game
from ratings.models import RatingChange
from tests.factories import CompetitorFactory, UserFactory, finished_game
from tournaments import events
from tournaments.models import Adjudication, Entrant, Round

from .conftest import finish_games, running_games
from .test_rounds import started_event

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def test_a_broken_game_adjudicated_counts_in_the_standings_and_changes_no_rating() -> None:
    event = started_event(6, rounds=2)
    broken, other = running_games(event, 1)
    organiser = UserFactory(is_staff=True, username="ada")
    judged = events.adjudicate(
        broken, ranks=["2", "1", "3"], scores=[10, 12, 4], reason="the board froze", by=organiser
    )
    broken.refresh_from_db()
    assert broken.status == Game.Status.ABORTED, "the game itself stays aborted"
    assert "adjudicated by the organiser: the board froze" in broken.status_reason
    assert (judged.ranks, judged.scores) == ([2, 1, 3], [10.0, 12.0, 4.0])
    assert (judged.by, judged.by_name, judged.reason) == (organiser, "ada", "the board froze")

    history = events.history_of(event)
    assert len(history.results) == 1, "the adjudicated table has its result"
    keys = dict(Entrant.objects.values_list("competitor_id", "pk"))
    seated = broken.seats.order_by("position").values_list("competitor_id", flat=True)
    assert history.results[0].seats == tuple(keys[c] for c in seated)
    assert history.results[0].ranks == (2, 1, 3)
    winner = history.results[0].seats[1]
    assert events.standings_of(event)[0].key == winner

    assert Round.objects.get(tournament=event, number=1).status == Round.Status.RUNNING
    finish_games([other])
    assert Round.objects.get(tournament=event, number=1).status == Round.Status.FINISHED
    assert not RatingChange.objects.filter(game=broken).exists(), "an adjudicated game is unrated"
    assert RatingChange.objects.filter(game=other).exists(), "the played game is rated"


def test_an_aborted_game_is_adjudicated_and_a_second_adjudication_corrects_the_first() -> None:
    event = started_event(6, rounds=2)
    broken, other = running_games(event, 1)
    # As the referee's step_failures leaves it (tests/tournaments/events/test_aborted_round.py).
    with transaction.atomic():
        Game.objects.filter(pk=broken.pk).update(status=Game.Status.ABORTED)
        events.on_game_finished(broken)
    finish_games([other])
    assert Round.objects.filter(tournament=event, number=2).exists()
    events.adjudicate(broken, ranks=[1, 1, 3], reason="referee failed")
    events.adjudicate(broken, ranks=[1, 2, 3], scores=[3, 2, 1], reason="corrected")
    row = Adjudication.objects.get(game=broken)
    assert (row.ranks, row.reason, row.by_name) == ([1, 2, 3], "corrected", "the organiser")
    assert sorted(r.ranks for r in events.history_of(event).results if r.round == 1)[0] == (
        1,
        2,
        3,
    )


@pytest.mark.parametrize(
    "case, expected",
    [
        ("finished", "finished in play: its result and ratings stand"),
        ("no reason", "say why game"),
        ("too few ranks", "give one rank per seat: the game has 3 seats and 2 rank"),
        ("not places", "are not places: 1 is best"),
        ("words", "the ranks are whole numbers"),
        ("bad scores", "give one finite score per seat"),
        ("stranger", "only the organiser of Club night"),
    ],
)
def test_a_refused_adjudication_says_why_and_changes_nothing(case: str, expected: str) -> None:
    event = started_event(6, rounds=2)
    broken, other = running_games(event, 1)
    if case == "finished":
        finish_games([other])
        broken = other
    args = {"ranks": [1, 2, 3], "reason": "froze", "by": None}
    args.update(
        {
            "no reason": {"reason": "  "},
            "too few ranks": {"ranks": [1, 2]},
            "not places": {"ranks": [1, 3, 3]},
            "words": {"ranks": ["first", 2, 3]},
            "bad scores": {"scores": [1, "nan", 2]},
            "stranger": {"by": UserFactory()},
        }.get(case, {})
    )
    status = Game.objects.get(pk=broken.pk).status
    with pytest.raises(events.EventError, match=expected):
        events.adjudicate(broken, **args)
    assert Game.objects.get(pk=broken.pk).status == status
    assert not Adjudication.objects.exists()


def test_games_outside_events_and_of_cancelled_events_are_not_adjudicated() -> None:
    loose = finished_game([CompetitorFactory() for _ in range(3)], [1, 2, 3])
    Game.objects.filter(pk=loose.pk).update(status=Game.Status.ABORTED)
    with pytest.raises(events.EventError, match="is not a game of an event's table"):
        events.adjudicate(loose, ranks=[1, 2, 3], reason="x")
    event = started_event(6, rounds=2)
    events.cancel(event, reason="storm")
    aborted = Game.objects.filter(tournament=event).first()
    with pytest.raises(events.EventError, match="Club night is cancelled: only the games of"):
        events.adjudicate(aborted, ranks=[1, 2, 3], reason="x")
    assert not Adjudication.objects.exists()


def test_the_public_pages_show_the_adjudication_and_keep_the_game_s_secrets(client) -> None:
    event = started_event(6, rounds=2, format="swiss")
    broken, _ = running_games(event, 1)
    organiser = UserFactory(is_staff=True, username="ada")
    events.adjudicate(broken, ranks=[3, 1, 2], reason="the board froze", by=organiser)
    page = client.get(f"/tournaments/{event.pk}/").content.decode()
    assert "Adjudicated results" in page
    names = list(broken.seats.order_by("position").values_list("competitor__name", flat=True))
    placed = ", ".join(f"{name} place {n}" for name, n in zip(names, (3, 1, 2), strict=True))
    assert f"Game #{broken.pk}</a> (round 1, table 1): {placed} — by ada: the board froze" in page
    assert 'class="adjudicated-mark"' in page, "the table's game is marked adjudicated"
    game_page = client.get(f"/games/{broken.pk}/").content.decode()
    assert "<strong>Adjudicated</strong> by ada" in game_page
    assert f"{names[1]} place 1 (score 0)" in game_page and "changes no rating" in game_page
    broken.refresh_from_db()
    assert broken.seed not in game_page, "an adjudicated game stays aborted: its seed is secret"

"""Review each round (#31, point 5): proposed tables, swaps, re-pairing, release.

An event with ``review_rounds`` on stops every pairing at a proposed round
(tables, no games); the organiser swaps entrants (the format's rules
checked), re-pairs, and releases it, and only then do its games start.
Every refusal is a sentence and changes nothing.
"""

from __future__ import annotations

import pytest

from games.models import Game
from tests.factories import UserFactory
from tournaments import events
from tournaments.events import rounds
from tournaments.models import Entrant, Round, Table, Tournament

from .conftest import finish_games, make_event, people, pull_bots, running_games

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def reviewed_event(count: int = 7, **fields) -> Tournament:
    event = make_event(review_rounds=True, **fields)
    events.open_entries(event)
    for person in people(count):
        events.enter(event, person, by=person.user)
    events.start(event)
    event.refresh_from_db()
    return event


def tables_of(event: Tournament, number: int) -> list[list[int]]:
    return [
        [int(k) for k in seats]
        for seats in Table.objects.filter(round__tournament=event, round__number=number)
        .order_by("number")
        .values_list("seats", flat=True)
    ]


def snapshot(event: Tournament) -> tuple:
    rounds = list(Round.objects.filter(tournament=event).values_list("number", "status", "byes"))
    tables = list(Table.objects.filter(round__tournament=event).values_list("number", "seats"))
    return rounds, tables, Game.objects.filter(tournament=event).count()


def test_a_reviewed_round_is_proposed_without_games_until_the_organiser_releases_it() -> None:
    event = reviewed_event(7)  # two tables of 3 and a bye
    first = Round.objects.get(tournament=event, number=1)
    assert first.status == Round.Status.PROPOSED
    assert len(tables_of(event, 1)) == 2
    assert not Game.objects.filter(tournament=event).exists(), "no game before the release"
    assert rounds.due_rounds() == [], "a proposed round is not due for pairing"

    events.release_round(event, 1)
    first.refresh_from_db()
    assert first.status == Round.Status.RUNNING
    games = running_games(event, 1)
    assert len(games) == 2
    keys = dict(Entrant.objects.filter(tournament=event).values_list("pk", "competitor_id"))
    for game, seats in zip(games, tables_of(event, 1), strict=True):
        seated = list(game.seats.order_by("position").values_list("competitor_id", flat=True))
        assert seated == [keys[k] for k in seats]

    finish_games(games)
    second = Round.objects.get(tournament=event, number=2)
    assert second.status == Round.Status.PROPOSED, "the scheduler stops at every round"
    assert not running_games(event, 2)


def test_a_swap_exchanges_two_entrants_of_two_tables() -> None:
    event = reviewed_event(6)
    (a, b, c), (d, e, f) = tables_of(event, 1)
    events.swap_entrants(event, 1, b, e)
    assert tables_of(event, 1) == [[a, e, c], [d, b, f]], "each takes the other's seat"
    events.release_round(event, 1)
    keys = dict(Entrant.objects.filter(tournament=event).values_list("pk", "competitor_id"))
    first_game = running_games(event, 1)[0]
    seated = list(first_game.seats.order_by("position").values_list("competitor_id", flat=True))
    assert seated == [keys[a], keys[e], keys[c]], "the games are made from the swapped tables"


def test_a_swap_with_the_bye_moves_the_bye() -> None:
    event = reviewed_event(7)
    seated = tables_of(event, 1)[0][0]
    (bye,) = Round.objects.get(tournament=event, number=1).byes
    events.swap_entrants(event, 1, bye, seated)
    assert Round.objects.get(tournament=event, number=1).byes == [seated]
    assert tables_of(event, 1)[0][0] == bye


@pytest.mark.parametrize(
    "case, expected",
    [
        ("same", "choose two different entrants"),
        ("same table", "a swap exchanges entrants of two different tables"),
        ("stranger", "is not in round 1: choose two entrants of the round"),
    ],
)
def test_a_refused_swap_says_why_and_changes_nothing(case: str, expected: str) -> None:
    event = reviewed_event(6)
    (a, b, _), (d, _, _) = tables_of(event, 1)
    other = reviewed_event(6)
    stranger = tables_of(other, 1)[0][0]
    first, second = {"same": (a, a), "same table": (a, b), "stranger": (a, stranger)}[case]
    before = snapshot(event)
    with pytest.raises(events.EventError, match=expected) as refused:
        events.swap_entrants(event, 1, first, second)
    assert "nothing was changed" in str(refused.value)
    assert snapshot(event) == before
    assert d  # the round has a second table to swap with


def test_a_round_robin_swap_that_makes_a_pair_meet_again_is_refused() -> None:
    event = reviewed_event(9, format="round_robin", rounds=None)
    events.release_round(event, 1)
    finish_games(running_games(event, 1))
    met = {
        frozenset((x, y)) for seats in tables_of(event, 1) for x in seats for y in seats if x != y
    }
    tables = tables_of(event, 2)
    refused = next(
        (x, y)
        for i, left in enumerate(tables)
        for right in tables[i + 1 :]
        for x in left
        for y in right
        if any(frozenset((x, z)) in met for z in right if z != y)
    )
    before = snapshot(event)
    with pytest.raises(events.EventError, match="in a round robin every pair meets once"):
        events.swap_entrants(event, 2, *refused)
    assert snapshot(event) == before


def test_a_knockout_bye_is_not_swapped() -> None:
    event = reviewed_event(7, format="knockout", rounds=None)
    byes = Round.objects.get(tournament=event, number=1).byes
    if not byes:
        pytest.skip("this knockout field has no bye in round 1")
    before = snapshot(event)
    with pytest.raises(events.EventError, match="in a knockout a bye goes through"):
        events.swap_entrants(event, 1, byes[0], tables_of(event, 1)[0][0])
    assert snapshot(event) == before


def test_the_bye_goes_to_whoever_sat_out_least() -> None:
    event = reviewed_event(7, rounds=3)
    (first_bye,) = Round.objects.get(tournament=event, number=1).byes
    events.release_round(event, 1)
    finish_games(running_games(event, 1))
    (second_bye,) = Round.objects.get(tournament=event, number=2).byes
    assert second_bye != first_bye
    before = snapshot(event)
    with pytest.raises(events.EventError, match="has sat out 1 round"):
        events.swap_entrants(event, 2, second_bye, first_bye)
    assert snapshot(event) == before


def test_re_pairing_a_proposed_round_pairs_the_entrants_active_now() -> None:
    event = reviewed_event(7)
    leaving = tables_of(event, 1)[0][0]
    events.withdraw(Entrant.objects.get(pk=leaving), reason="had to leave")
    with pytest.raises(events.EventError, match=r"at table 1 is withdrawn.*Re-pair the round"):
        events.release_round(event, 1)
    assert not Game.objects.filter(tournament=event).exists()

    again = events.repair_round(event, 1)
    assert again.status == Round.Status.PROPOSED and again.repairs == 1
    seated = {k for seats in tables_of(event, 1) for k in seats} | set(again.byes)
    assert leaving not in seated and len(seated) == 6
    events.release_round(event, 1)
    assert len(running_games(event, 1)) == 2


def test_a_round_under_way_is_neither_swapped_re_paired_nor_released_again() -> None:
    event = reviewed_event(6)
    events.release_round(event, 1)
    (a, *_), (d, *_) = tables_of(event, 1)
    before = snapshot(event)
    for call in (
        lambda: events.swap_entrants(event, 1, a, d),
        lambda: events.repair_round(event, 1),
        lambda: events.release_round(event, 1),
    ):
        with pytest.raises(events.EventError, match="round 1 of Club night is running: only a"):
            call()
    assert snapshot(event) == before
    with pytest.raises(events.EventError, match="has no round 4"):
        events.release_round(event, 4)


def test_only_the_organiser_reviews_and_a_paused_event_must_resume_first() -> None:
    event = reviewed_event(6)
    stranger = UserFactory()
    before = snapshot(event)
    with pytest.raises(events.EventError, match="only the organiser of Club night"):
        events.release_round(event, 1, by=stranger)
    events.pause(event)
    with pytest.raises(events.EventError, match="resume it first"):
        events.release_round(event, 1)
    assert snapshot(event) == before
    events.resume(event)
    events.release_round(event, 1)
    assert len(running_games(event, 1)) == 2


def test_a_swap_that_seats_two_entrants_of_one_owner_together_is_refused() -> None:
    event = make_event(review_rounds=True, table_size=3, min_table_size=3)
    events.open_entries(event)
    owners = [UserFactory(), UserFactory(), UserFactory()]
    for n in range(6):
        bot = pull_bots(1, owner=owners[n % 3])[0]
        events.enter(event, bot.competitor, by=bot.owner)
    events.start(event)
    owner_of = dict(
        Entrant.objects.filter(tournament=event).values_list("pk", "competitor__user_id")
    )
    left, right = tables_of(event, 1)
    refused = next(
        (x, y)
        for x in left
        for y in right
        if any(owner_of[z] == owner_of[x] for z in right if z != y)
    )
    before = snapshot(event)
    with pytest.raises(events.EventError, match="have the same owner, and this event keeps"):
        events.swap_entrants(event, 1, *refused)
    assert snapshot(event) == before

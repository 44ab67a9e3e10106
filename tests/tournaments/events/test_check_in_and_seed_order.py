"""Check-in before the start (#31 point 7), the organiser's seed order (point 3), tie-breaks
chosen per event (point 6): the services, each refusal changing nothing, and the page's words.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tournaments import events
from tournaments.events import check_ins, seed_order
from tournaments.events.history import settings_of
from tournaments.models import Entrant, Tournament

from .conftest import make_event, pull_bots

pytestmark = pytest.mark.django_db


def opened(bots, **fields) -> Tournament:
    event = make_event(format="swiss", rounds=2, **fields)
    events.open_entries(event)
    for bot in bots:
        events.enter(event, bot.competitor, by=bot.owner)
    return event


def rows(event: Tournament) -> list[Entrant]:
    return list(event.entrants.select_related("competitor").order_by("pk"))


def state(event: Tournament) -> list[tuple]:
    return [(e.pk, e.status, e.reason, e.seed_order, e.checked_in_at) for e in rows(event)]


# ------------------------------------------------------------------------------ check-in
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_referee")
def test_who_did_not_check_in_is_dropped_at_the_start_and_the_page_says_so(client) -> None:
    bots = pull_bots(5)
    event = opened(bots, check_in=True)
    entries = rows(event)
    for entry, bot in zip(entries[:3], bots[:3], strict=True):
        events.check_in(entry, by=bot.owner)  # the owner checks its bot in
    events.check_in(entries[3], by=None)  # the organiser, on its behalf
    events.start(event)
    late = Entrant.objects.get(pk=entries[4].pk)
    assert (late.status, late.reason) == (Entrant.Status.WITHDRAWN, check_ins.REASON)
    round_1 = event.rounds_played.get(number=1)
    seated = [key for t in round_1.tables.all() for key in t.seats] + list(round_1.byes)
    assert sorted(seated) == sorted(e.pk for e in entries[:4])  # 3 at a table, 1 bye
    page = client.get(reverse("tournaments:tournament", args=[event.pk])).content.decode()
    assert (
        f"1 entrant did not check in and was dropped at the start: {bots[4].competitor.name}."
        in page.replace("&#x27;", "'")
    )


def test_a_start_refused_after_the_drop_changes_nothing() -> None:
    bots = pull_bots(4)
    event = opened(bots, check_in=True)
    events.check_in(rows(event)[0], by=bots[0].owner)
    before = state(event)
    with pytest.raises(events.EventError, match="cannot start"):
        events.start(event)  # one checked in: too few for a table of 3
    assert state(event) == before
    event.refresh_from_db()
    assert event.status == Tournament.Status.ENTRIES_OPEN


@pytest.mark.parametrize(
    ("setup", "says"),
    [
        ("stranger", "only .*'s owner \\(or the person\\), or the organiser, may check it in"),
        ("no_check_in", "does not ask for check-in"),
        ("draft", "check-in is open only while entries are open"),
    ],
)
def test_a_check_in_that_cannot_be_done_is_refused_with_a_sentence(setup, says) -> None:
    bots = pull_bots(3)
    event = opened(bots, check_in=setup != "no_check_in")
    if setup == "draft":
        Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.DRAFT)
    by = UserFactory(password=None) if setup == "stranger" else bots[0].owner
    before = state(event)
    with pytest.raises(events.EventError, match=says):
        events.check_in(rows(event)[0], by=by)
    assert state(event) == before


def test_without_check_in_nobody_is_dropped() -> None:
    event = opened(pull_bots(3))
    assert check_ins.drop_absentees(event) == []
    assert {e.status for e in rows(event)} == {Entrant.Status.ACTIVE}


# ---------------------------------------------------------------------------- seed order
def test_the_organisers_order_is_kept_at_the_start() -> None:
    bots = pull_bots(4)
    event = opened(bots)
    entries = rows(event)
    wanted = {entries[3].pk: 1, entries[1].pk: 2}  # the other two unseeded
    events.set_seed_order(event, wanted, by=None)
    events.start(event)
    final = {e.pk: e.seed_order for e in rows(event)}
    assert final[entries[3].pk] == 1 and final[entries[1].pk] == 2
    assert sorted(final.values()) == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("orders", "says"),
    [
        ("twice", "two entrants have the same seed order: 1"),
        ("unknown", "are not active or waiting entries"),
        ("negative", "not negative"),
    ],
)
def test_a_bad_seed_order_is_refused_and_nothing_is_saved(orders, says) -> None:
    event = opened(pull_bots(3))
    entries = rows(event)
    given = {
        "twice": {entries[0].pk: 1, entries[1].pk: 1},
        "unknown": {entries[0].pk: 1, 10**9: 2},
        "negative": {entries[0].pk: -1},
    }[orders]
    before = state(event)
    with pytest.raises(events.EventError, match=says):
        events.set_seed_order(event, given, by=None)
    assert state(event) == before


def test_the_seed_order_is_fixed_once_the_event_runs() -> None:
    event = opened(pull_bots(3))
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.RUNNING)
    with pytest.raises(events.EventError, match="fixed at the start"):
        events.set_seed_order(event, {rows(event)[0].pk: 1}, by=None)


def test_only_the_organiser_sets_the_seed_order() -> None:
    bots = pull_bots(3)
    event = opened(bots)
    with pytest.raises(events.EventError, match="only the organiser"):
        events.set_seed_order(event, {rows(event)[0].pk: 1}, by=bots[0].owner)


def test_starting_points_rating_random_and_as_entered() -> None:
    event = opened(pull_bots(6))
    entries = rows(event)
    entered = [e.pk for e in events.seed_order_proposal(event, "entered")]
    assert entered == [e.pk for e in entries]
    drawn = [e.pk for e in events.seed_order_proposal(event, "random")]
    assert drawn == sorted((e.pk for e in entries), key=lambda pk: seed_order.draw(event.seed, pk))
    # Equal ratings (all newcomers): by rating is the draw too, never the entry order.
    assert [e.pk for e in events.seed_order_proposal(event, "rating")] == drawn
    with pytest.raises(events.EventError, match="no seeding 'alphabetical'"):
        events.seed_order_proposal(event, "alphabetical")


def test_random_needs_the_event_seed() -> None:
    event = make_event(format="swiss")
    with pytest.raises(events.EventError, match="open entries first"):
        events.seed_order_proposal(event, "random")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_referee")
def test_as_entered_seeding_orders_the_unseeded_by_entry() -> None:
    event = opened(pull_bots(4), seeding="entered")
    events.start(event)
    assert [e.seed_order for e in rows(event)] == [1, 2, 3, 4]


# ---------------------------------------------------------------------------- tie-breaks
def test_the_events_tie_breaks_reach_the_standings() -> None:
    event = make_event(format="swiss", tie_breaks=["wins", "game_score"])
    assert settings_of(event).tie_breaks == ("wins", "game_score")
    Tournament.objects.filter(pk=event.pk).update(tie_breaks=["buchholz"])
    with pytest.raises(events.EventError, match="unknown tie-break 'buchholz'"):
        events.open_entries(event)

"""Entrants who cannot play are not paired (#31 point 4), owners apart in a real Swiss (point 3),
and the problems panel's worker heartbeat.

The issue's findings, replayed: a bot suspended mid-round was given a bye worth
2.67 points 17 s later and seated again in round 3; round 1 of a Swiss seated
each owner's three bots at one table.
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from botapi.models import Bot
from games.models import Game
from games.selectors.rating_rules import example_bots_username
from games.services import create_game
from tests.factories import BotFactory, UserFactory
from tournaments import events
from tournaments.events import heartbeat
from tournaments.events.rounds import pair_next
from tournaments.models import Entrant, Round, Table, Tournament
from tournaments.tasks import worker_heartbeat

from .conftest import finish_games, make_event, pull_bots, running_games

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def swiss(**fields) -> Tournament:
    values = {"format": "swiss", "rounds": 3, "table_size": 4, "min_table_size": 3}
    values.update(fields)
    return make_event(**values)


def entered(event: Tournament, bots: list[Bot]) -> dict[int, Entrant]:
    """Enter each bot by its owner, in the order given; bot id -> its entrant row."""
    events.open_entries(event)
    for bot in bots:
        events.enter(event, bot.competitor, by=bot.owner)
    return {row.competitor.bot.pk: row for row in event.entrants.select_related("competitor__bot")}


def tables_of(event: Tournament, number: int) -> list[list[int]]:
    return [t.seats for t in Table.objects.filter(round__tournament=event, round__number=number)]


def test_round_one_of_a_swiss_does_not_seat_an_owners_bots_together() -> None:
    owners = [UserFactory(password=None) for _ in range(3)]
    # Entered alice's three, then bob's, then carol's: equal ratings, as in the issue.
    bots = [
        BotFactory(owner=owner, mode="pull", endpoint_url="") for owner in owners for _ in "abc"
    ]
    event = swiss(table_size=3, min_table_size=3)
    rows = entered(event, bots)
    events.start(event)
    owner_of = {rows[bot.pk].pk: bot.owner_id for bot in bots}
    for seats in tables_of(event, 1):
        assert len({owner_of[key] for key in seats}) == len(seats), seats


def test_allowed_by_the_organiser_an_owners_bots_may_share_a_table() -> None:
    owner = UserFactory(password=None)
    bots = [BotFactory(owner=owner, mode="pull", endpoint_url="") for _ in range(3)]
    event = swiss(table_size=3, min_table_size=3, allow_same_owner_tables=True)
    entered(event, bots)
    events.start(event)
    assert len(tables_of(event, 1)) == 1


def test_the_house_bots_are_nobodys_so_they_never_clash() -> None:
    house = UserFactory(username=example_bots_username(), password=None)
    bots = [BotFactory(owner=house, mode="pull", endpoint_url="") for _ in range(3)]
    bots.append(BotFactory(mode="pull", endpoint_url=""))
    event = swiss(table_size=3, min_table_size=3)
    entered(event, bots)
    owners = {e.owner for e in events.active_entrants(event)}
    assert owners == {None, bots[3].owner_id}


def round_one_with_seven(**fields) -> tuple[Tournament, list[Bot], dict[int, Entrant]]:
    bots = pull_bots(7)
    event = swiss(**fields)
    rows = entered(event, bots)
    events.start(event)
    return event, bots, rows


def points_of(event: Tournament, key: int) -> float:
    return next(line.points for line in events.standings_of(event) if line.key == key)


def test_a_bot_suspended_mid_round_waits_then_sits_out_with_no_points(client) -> None:
    event, bots, rows = round_one_with_seven()
    suspended = bots[0]
    key = rows[suspended.pk].pk
    Bot.objects.filter(pk=suspended.pk).update(
        status=Bot.Status.SUSPENDED, status_reason="too many faults"
    )
    finish_games(running_games(event, 1), seed=1)
    event.refresh_from_db()
    # Round 1 over: round 2 is not paired at once (the bye 17 s later), it waits.
    assert not Round.objects.filter(tournament=event, number=2).exists()
    assert event.pairing_held_since is not None
    waiting = [p for p in events.problems(event) if p.startswith("Round 2 waits for")]
    assert len(waiting) == 1 and "suspended (too many faults)" in waiting[0]
    assert "scores 0 for it (an absence, not a bye)" in waiting[0]
    assert pair_next(event.pk, 2) == "waiting", "within the grace nothing is paired"
    after_round_1 = points_of(event, key)

    Tournament.objects.filter(pk=event.pk).update(
        pairing_held_since=timezone.now() - timedelta(seconds=61)
    )
    assert pair_next(event.pk, 2) == "paired"
    round_2 = Round.objects.get(tournament=event, number=2)
    assert [row["entrant"] for row in round_2.absent] == [key]
    assert "suspended" in round_2.absent[0]["reason"]
    assert key not in round_2.byes
    assert all(key not in seats for seats in tables_of(event, 2))
    assert sorted(len(seats) for seats in tables_of(event, 2)) == [3, 3]
    event.refresh_from_db()
    assert event.pairing_held_since is None
    page = client.get(reverse("tournaments:round", args=[event.pk, 2])).content.decode()
    assert "<strong>Absent</strong> (could not play, 0 points)" in page
    assert suspended.competitor.name in page.split("<strong>Absent</strong>")[1]
    finish_games(running_games(event, 2), seed=2)
    assert points_of(event, key) == after_round_1, "an absence is worth nothing"
    # Still suspended: round 3 waits again, then leaves it out again (the issue: seated again).
    event.refresh_from_db()
    assert event.pairing_held_since is not None
    Tournament.objects.filter(pk=event.pk).update(
        pairing_held_since=timezone.now() - timedelta(seconds=61)
    )
    assert pair_next(event.pk, 3) == "paired"
    assert all(key not in seats for seats in tables_of(event, 3))


def test_fixed_within_the_grace_it_is_paired_as_usual() -> None:
    event, bots, _ = round_one_with_seven(absence_grace_s=600)
    Bot.objects.filter(pk=bots[0].pk).update(status=Bot.Status.SUSPENDED)
    finish_games(running_games(event, 1), seed=1)
    assert pair_next(event.pk, 2) == "waiting"
    Bot.objects.filter(pk=bots[0].pk).update(status=Bot.Status.ACTIVE)
    assert pair_next(event.pk, 2) == "paired"
    round_2 = Round.objects.get(tournament=event, number=2)
    assert round_2.absent == []
    assert sum(len(seats) for seats in tables_of(event, 2)) == 7


def test_a_bot_at_its_game_limit_waits_then_sits_out() -> None:
    event, bots, rows = round_one_with_seven()
    busy = bots[1]
    # During round 1 it took another game (casual) and its owner lowered its limit to 1:
    # when round 1 ends it still plays that game, at its limit.
    others = pull_bots(2)
    create_game("manila", [busy.competitor, *(b.competitor for b in others)], seed="x")
    Bot.objects.filter(pk=busy.pk).update(max_concurrent_games=1)
    finish_games(running_games(event, 1), seed=1)
    assert not Round.objects.filter(tournament=event, number=2).exists()
    event.refresh_from_db()
    (sentence,) = [p for p in events.problems(event) if p.startswith("Round 2 waits")]
    assert "already plays 1 game(s) at once, its limit" in sentence
    Tournament.objects.filter(pk=event.pk).update(
        pairing_held_since=timezone.now() - timedelta(seconds=61)
    )
    assert pair_next(event.pk, 2) == "paired"
    round_2 = Round.objects.get(tournament=event, number=2)
    assert [row["entrant"] for row in round_2.absent] == [rows[busy.pk].pk]
    assert "its limit" in round_2.absent[0]["reason"]


def test_a_withdrawn_entrant_is_simply_not_paired_again() -> None:
    event, bots, rows = round_one_with_seven()
    gone = rows[bots[2].pk]
    events.withdraw(gone, reason="owner asked", by=None)
    finish_games(running_games(event, 1), seed=1)
    round_2 = Round.objects.get(tournament=event, number=2)  # no wait for a withdrawal
    assert round_2.absent == [] and gone.pk not in round_2.byes
    seated = Counter(key for seats in tables_of(event, 2) for key in seats)
    assert gone.pk not in seated and len(seated) == 6


# ---------------------------------------------------------------- the worker heartbeat
def test_the_panel_says_when_no_worker_beats(monkeypatch) -> None:
    event, _, _ = round_one_with_seven()
    monkeypatch.setattr(heartbeat, "STALE_AFTER_S", 15.0)
    heartbeat.beat()
    assert not any("No worker" in p for p in events.problems(event))
    cache.delete(heartbeat.KEY)
    (first, *_) = events.problems(event)
    assert first.startswith("No worker seems to be running") and "has not run yet" in first
    cache.set(heartbeat.KEY, heartbeat.beat() - 40, timeout=None)
    assert "last ran 40 s ago" in events.problems(event)[0]


def test_the_heartbeat_task_is_on_beats_schedule_and_writes_the_key(settings) -> None:
    (entry,) = [
        e
        for e in settings.CELERY_BEAT_SCHEDULE.values()
        if e["task"] == "tournaments.worker_heartbeat"
    ]
    assert entry["schedule"] == heartbeat.INTERVAL_S
    cache.delete(heartbeat.KEY)
    assert heartbeat.silence() is None
    worker_heartbeat.delay()
    quiet = heartbeat.silence()
    assert quiet is not None and quiet < heartbeat.INTERVAL_S


def test_games_of_absent_entrants_are_never_created() -> None:
    event, bots, _ = round_one_with_seven()
    Bot.objects.filter(pk=bots[0].pk).update(status=Bot.Status.DISABLED)
    finish_games(running_games(event, 1), seed=1)
    Tournament.objects.filter(pk=event.pk).update(
        pairing_held_since=timezone.now() - timedelta(seconds=61)
    )
    assert pair_next(event.pk, 2) == "paired"
    assert not Game.objects.filter(
        tournament=event, table__round__number=2, seats__competitor=bots[0].competitor
    ).exists()


def test_resuming_a_paused_event_gives_the_absent_a_fresh_grace() -> None:
    event, bots, _ = round_one_with_seven()
    Bot.objects.filter(pk=bots[0].pk).update(status=Bot.Status.SUSPENDED)
    finish_games(running_games(event, 1), seed=1)
    events.pause(event, reason="tea break")
    long_ago = timezone.now() - timedelta(seconds=600)
    Tournament.objects.filter(pk=event.pk).update(pairing_held_since=long_ago)
    events.resume(event)  # queues the pairing, which waits again rather than leaving it out
    event.refresh_from_db()
    assert not Round.objects.filter(tournament=event, number=2).exists()
    assert event.pairing_held_since is not None and event.pairing_held_since > long_ago
    assert not any("has not been paired yet" in p for p in events.problems(event))

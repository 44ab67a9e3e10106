"""The round scheduler: rounds follow each other by themselves, exactly once, and recover."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Game
from games.referee import steps as referee
from games.tasks import recover_stalled
from ratings.services.scopes import global_scope
from tournaments import events
from tournaments.events import rounds, seeds
from tournaments.models import Entrant, Round, Table, Tournament
from tournaments.tasks import pair_next_round, schedule_due_rounds

from .conftest import complete_log, finish_games, make_event, people, play_out, running_games

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def started_event(count: int = 6, **fields) -> Tournament:
    event = make_event(**fields)
    events.open_entries(event)
    for person in people(count):
        events.enter(event, person, by=person.user)
    events.start(event)
    return event


def test_an_event_runs_round_after_round_to_its_end() -> None:
    event = started_event(7, rounds=2)  # 7 in tables of 3: two tables and a bye
    first = Round.objects.get(tournament=event, number=1)
    assert event.status == Tournament.Status.RUNNING and event.current_round == 1
    assert len(first.byes) == 1
    tables = list(Table.objects.filter(round=first))
    assert [len(t.seats) for t in tables] == [3, 3]
    games = running_games(event, 1)
    assert len(games) == 2
    for game, table in zip(games, tables, strict=True):
        keys = dict(Entrant.objects.filter(tournament=event).values_list("pk", "competitor_id"))
        seated = list(game.seats.order_by("position").values_list("competitor_id", flat=True))
        assert seated == [keys[k] for k in table.seats], "seat order is the table's"
        assert game.table_id == table.pk and game.round_number == 1
        assert game.purpose == Game.Purpose.EVENT and game.move_time_ms == 60_000
        assert game.seed == seeds.game_seed(event.seed, 1, table.number)

    play_out(games[:1])  # played move by move through the referee, as people would
    assert not Round.objects.filter(tournament=event, number=2).exists()
    first.refresh_from_db()
    assert first.status == Round.Status.RUNNING, "one table still plays"

    finish_games(games[1:])  # the referee's own finish, without playing every move through it
    first.refresh_from_db()
    assert first.status == Round.Status.FINISHED
    second = Round.objects.get(tournament=event, number=2)
    assert len(running_games(event, 2)) == 2 and second.byes != first.byes

    finish_games(running_games(event, 2), seed=1)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED and event.finished_at is not None
    assert Round.objects.filter(tournament=event).count() == 2
    assert events.event_seed_revealed(event) == event.seed
    assert events.verify_seeds(event) == []
    history = events.history_of(event)
    assert len(history.results) == 4 and len(history.byes) == 2


@pytest.fixture
def lost_pairings(monkeypatch):
    """The pairing task is queued but never runs (a worker killed right after the commit)."""
    lost: list[tuple[int, int]] = []
    monkeypatch.setattr(rounds, "enqueue_pairing", lambda t, n: lost.append((t, n)))
    return lost


def rounds_of(event: Tournament) -> list[int]:
    return list(Round.objects.filter(tournament=event).values_list("number", flat=True))


def run_in_threads(targets) -> list:
    """Run each callable in its own thread, all released together; their results in order."""
    barrier = threading.Barrier(len(targets))
    results: list = [None] * len(targets)

    def run(index, target):
        try:
            barrier.wait(timeout=10)
            results[index] = target()
        except BaseException as exc:  # reported by the assertion on results
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, t)) for i, t in enumerate(targets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.mark.postgres
def test_two_workers_finishing_the_last_two_games_pair_the_next_round_once(monkeypatch) -> None:
    event = started_event(6)
    last_two = running_games(event, 1)
    for game in last_two:
        complete_log(game)
    global_scope("manila")  # as on any live site: else both would wait on creating it
    inside = threading.Barrier(2)
    ended: list[bool] = []
    real_hook = events.on_game_finished

    def hook(game):
        # Both finishes have marked their game finished, uncommitted: now both go for the round.
        inside.wait(timeout=10)
        ended.append(real_hook(game))
        return ended[-1]

    queued: list[tuple[int, int]] = []
    real_enqueue = rounds.enqueue_pairing
    monkeypatch.setattr(events, "on_game_finished", hook)
    monkeypatch.setattr(
        rounds, "enqueue_pairing", lambda t, n: (queued.append((t, n)), real_enqueue(t, n))
    )
    results = run_in_threads([lambda g=g: referee.finish(g.pk) for g in last_two])
    assert results == [True, True]
    assert sorted(ended) == [False, True], "exactly one finish ends the round"
    assert queued == [(event.pk, 2)]
    assert rounds_of(event) == [1, 2]
    assert len(running_games(event, 2)) == 2


def test_the_pairing_task_run_twice_makes_one_round(lost_pairings) -> None:
    event = started_event(6)
    finish_games(running_games(event, 1))
    assert lost_pairings == [(event.pk, 2)] and rounds_of(event) == [1]
    assert pair_next_round(event.pk, 2) == "paired"
    games = Game.objects.filter(tournament=event).count()
    assert pair_next_round(event.pk, 2) == "exists"
    assert pair_next_round(event.pk, 3) == "not due", "round 2 is still being played"
    assert rounds_of(event) == [1, 2] and Game.objects.filter(tournament=event).count() == games


@pytest.mark.postgres
def test_two_pairing_tasks_at_once_make_one_round(lost_pairings) -> None:
    event = started_event(6)
    finish_games(running_games(event, 1))
    results = run_in_threads([lambda: pair_next_round(event.pk, 2)] * 2)
    assert sorted(results) == ["exists", "paired"]
    assert rounds_of(event) == [1, 2] and len(running_games(event, 2)) == 2


def test_a_pairing_lost_with_its_worker_is_made_by_beat(lost_pairings) -> None:
    event = started_event(6)
    finish_games(running_games(event, 1))
    assert rounds_of(event) == [1], "the task never ran"
    assert schedule_due_rounds() == 1
    assert rounds_of(event) == [1, 2]
    assert schedule_due_rounds() == 0, "nothing more is due while round 2 plays"


def test_a_round_left_marked_running_is_healed_by_beat(lost_pairings) -> None:
    event = started_event(6)
    finish_games(running_games(event, 1))
    Round.objects.filter(tournament=event, number=1).update(status=Round.Status.RUNNING)
    assert schedule_due_rounds() == 1
    assert Round.objects.get(tournament=event, number=1).status == Round.Status.FINISHED
    assert rounds_of(event) == [1, 2]


def test_a_worker_killed_before_the_finish_committed_is_recovered() -> None:
    """The last game's log is over but its finish never ran: stalled-game recovery finishes it."""
    event = started_event(6)
    first, last = running_games(event, 1)
    finish_games([first])
    complete_log(last)
    Game.objects.filter(pk=last.pk).update(last_progress_at=timezone.now() - timedelta(hours=1))
    assert recover_stalled(stall_ms=0) == 1
    last.refresh_from_db()
    assert last.status == Game.Status.FINISHED
    assert rounds_of(event) == [1, 2]


def test_a_pairing_failure_keeps_the_result_and_is_retried(fake_format_registered) -> None:
    event = started_event(6)
    fake_format_registered.FAIL_ROUNDS.add(2)
    games = running_games(event, 1)
    finish_games(games)
    for game in games:
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED and game.outcome is not None
        assert game.rating_changes.exists(), "the result and its ratings stay"
    event.refresh_from_db()
    assert event.status == Tournament.Status.RUNNING
    assert "Round 2 could not be paired: round 2 refused by the test" in event.status_reason
    assert event.status_reason in events.problems(event)
    assert rounds_of(event) == [1]

    assert schedule_due_rounds() == 1  # still refused: recorded again, nothing made
    assert rounds_of(event) == [1]
    fake_format_registered.FAIL_ROUNDS.clear()
    assert schedule_due_rounds() == 1
    event.refresh_from_db()
    assert rounds_of(event) == [1, 2] and event.status_reason == ""
    assert events.problems(event) == []


def test_no_round_is_paired_while_paused_and_resuming_pairs_it() -> None:
    event = started_event(6)
    events.pause(event, reason="lunch")
    assert event.status == Tournament.Status.PAUSED and event.status_reason == "lunch"
    finish_games(running_games(event, 1))  # running games play on
    assert Round.objects.get(tournament=event, number=1).status == Round.Status.FINISHED
    assert rounds_of(event) == [1]
    assert schedule_due_rounds() == 0
    events.resume(event)
    assert event.status == Tournament.Status.RUNNING and event.status_reason == ""
    assert rounds_of(event) == [1, 2]


def test_cancelling_aborts_running_games_and_reveals_the_seed() -> None:
    event = started_event(6)
    first, second = running_games(event, 1)
    complete_log(first)
    assert events.event_seed_revealed(event) is None
    events.cancel(event, reason="the hall is flooded")
    assert event.status == Tournament.Status.CANCELLED
    assert event.status_reason == "the hall is flooded"
    assert set(Game.objects.filter(tournament=event).values_list("status", flat=True)) == {
        Game.Status.ABORTED
    }
    assert referee.finish(first.pk) is False, "the referee leaves an aborted game alone"
    assert referee.advance(second.pk) == "idle"
    assert not Game.objects.filter(tournament=event, rating_changes__isnull=False).exists()
    assert events.event_seed_revealed(event) == event.seed
    assert events.verify_seeds(event) == []
    assert pair_next_round(event.pk, 2) == "not running"
    assert events.problems(event) == []

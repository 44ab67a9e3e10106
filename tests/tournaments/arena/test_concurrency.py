"""Two arena passes at the same moment never seat a bot beyond its limit (PostgreSQL).

Each test runs two passes in two threads and holds the first one inside its
matchmaking (its locks taken) until PostgreSQL shows the second waiting on a
lock, so the passes really overlap; without the locks both would count the
same free slots.
"""

from __future__ import annotations

import threading
import time
from collections import Counter

import psycopg
import pytest
from django.db import connections

from games import services as creation
from games.models import Game, Seat
from games.referee import turns as players
from tests.factories import LeagueFactory
from tests.tournaments import workers
from tournaments.events import arena

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def games_stay_put(monkeypatch) -> None:
    """The games are made, not played: no referee, no start message to the fake endpoints."""
    monkeypatch.setattr(creation, "schedule_advance", lambda game_id: None)
    monkeypatch.setattr(players, "game_started", lambda game: None)


def someone_waits_on_a_lock(timeout: float = 10.0) -> bool:
    url = workers.test_database_url().replace("postgres://", "postgresql://")
    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as watcher:
        while time.monotonic() < deadline:
            waiting = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND wait_event_type = 'Lock'"
            ).fetchone()[0]
            if waiting:
                return True
            time.sleep(0.02)
    return False


def overlapping_passes(monkeypatch, *leagues) -> tuple[list[list[Game]], bool]:
    """One pass per league, in threads; the first holds its locks until the second waits."""
    real_match = arena.match
    first = threading.Lock()
    saw_wait = []

    def held_match(*args, **kwargs):
        if first.acquire(blocking=False):  # only the first pass to get here waits
            saw_wait.append(someone_waits_on_a_lock())
        return real_match(*args, **kwargs)

    monkeypatch.setattr(arena, "match", held_match)
    results: list[list[Game]] = [[] for _ in leagues]
    errors: list[BaseException] = []
    start = threading.Barrier(len(leagues))

    def run(index: int) -> None:
        try:
            start.wait()
            results[index] = arena.arena_pass(leagues[index], seed=f"pass-{index}")
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(leagues))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors, errors
    return results, bool(saw_wait and saw_wait[0])


def games_per_bot() -> Counter:
    return Counter(
        Seat.objects.filter(game__status=Game.Status.RUNNING).values_list(
            "competitor_id", flat=True
        )
    )


def test_two_passes_of_one_league_seat_each_bot_once(league, join_bots, monkeypatch) -> None:
    bots = join_bots(8, max_concurrent_games=4)
    (one, two), overlapped = overlapping_passes(monkeypatch, league, league)
    assert games_per_bot() == Counter({bot.competitor_id: 1 for bot in bots})
    assert sorted([len(one), len(two)]) == [0, 2]
    assert overlapped, "the second pass waited for the first one's locks"


def test_two_leagues_sharing_bots_never_exceed_a_bots_limit(join_bots, monkeypatch) -> None:
    north, south = (
        LeagueFactory(arena_enabled=True, arena_table_size=4, arena_min_table_size=4)
        for _ in range(2)
    )
    bots = join_bots(8, into=north, max_concurrent_games=1)
    for bot in bots:
        arena.join(south, bot.competitor, by=bot.owner)
    results, overlapped = overlapping_passes(monkeypatch, north, south)
    assert games_per_bot() == Counter({bot.competitor_id: 1 for bot in bots})
    assert sorted(len(games) for games in results) == [0, 2]
    assert overlapped, "the second pass waited for the first one's locks"

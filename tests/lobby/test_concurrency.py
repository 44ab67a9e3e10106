"""Two people reaching for a table's last seat at the same moment: one gets it (PostgreSQL).

The first join to lock the table is held inside its transaction until
PostgreSQL shows the second waiting for that lock, so the two really
overlap; without ``select_for_update`` both would see one open seat.
"""

from __future__ import annotations

import threading
import time

import psycopg
import pytest
from django.db import connections

from games.models import Game
from lobby import services
from lobby.models import LobbyTable
from tests.tournaments import workers

from .conftest import person, seat_names

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


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


def test_two_people_joining_the_last_seat_at_once_one_gets_it(monkeypatch) -> None:
    host = person("hana")
    table = services.create_table(host, "cargo_noir", 2, "quick", False, [None])
    joiners = [person("gus"), person("tess")]

    real_seats = services._seats
    first = threading.Lock()
    saw_wait: list[bool] = []

    def held_seats(locked_table):
        if first.acquire(blocking=False):  # the first join past its lock waits for the other
            saw_wait.append(someone_waits_on_a_lock())
        return real_seats(locked_table)

    monkeypatch.setattr(services, "_seats", held_seats)
    outcomes: list[object] = [None, None]
    start = threading.Barrier(2)

    def run(index: int) -> None:
        try:
            start.wait()
            services.join(table.pk, joiners[index])
            outcomes[index] = "seated"
        except services.LobbyError as exc:
            outcomes[index] = exc.code
        except BaseException as exc:  # reported in the test's thread
            outcomes[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert sorted(map(str, outcomes)) == ["seated", "started"], outcomes
    assert saw_wait == [True], "the second join waited for the first one's lock"
    table.refresh_from_db()
    assert table.status == LobbyTable.Status.STARTED
    winner = joiners[outcomes.index("seated")]
    assert seat_names(table) == ["hana", winner.username]
    assert Game.objects.count() == 1
    assert list(
        table.game.seats.order_by("position").values_list("competitor__name", flat=True)
    ) == ["hana", winner.username]

"""Writers on the embedded SQLite file wait for each other, and readers hold up none.

The embedded mode writes from several threads of one process (requests, the
Celery worker's threads) and from ``demo_setup`` beside the server. In SQLite's
default (deferred) transactions, one that read first and then writes while
another holds the write lock gets "database is locked" at once, whatever the
busy timeout (SQLite's deadlock avoidance); ``BEGIN IMMEDIATE`` takes the
write lock first, so the second writer waits its turn. In the write-ahead log
(WAL) a reader does not hold up a writer's commit either.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from django.db.utils import ConnectionHandler

from harbormaster import env


@pytest.fixture
def own_database(django_db_blocker):
    """This test's own SQLite file, outside the test database (pytest-django allows it here)."""
    with django_db_blocker.unblock():
        yield


@pytest.mark.usefixtures("own_database")
def test_a_transaction_that_reads_then_writes_waits_for_another_writer(tmp_path: Path) -> None:
    config = env.database({"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}, tmp_path)
    handler = ConnectionHandler({"default": config})
    setup = handler["default"]
    setup.cursor().execute("CREATE TABLE moves (ply integer)")
    setup.close()
    other_started = threading.Event()
    errors: list[Exception] = []

    def in_transaction(work) -> None:
        connection = handler["default"]  # this thread's own connection
        try:
            connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
            work(connection.cursor())
            connection.commit()
        except Exception as exc:
            errors.append(exc)
            connection.rollback()
        finally:
            connection.close()

    def read_then_write(cursor) -> None:  # like a referee step: look, then claim
        cursor.execute("SELECT count(*) FROM moves").fetchone()
        other_started.wait(5)
        time.sleep(0.1)  # the other writer has begun meanwhile
        cursor.execute("INSERT INTO moves VALUES (1)")

    def write(cursor) -> None:
        cursor.execute("INSERT INTO moves VALUES (2)")
        time.sleep(0.3)

    first = threading.Thread(target=in_transaction, args=(read_then_write,))
    first.start()
    time.sleep(0.05)

    def second_writer() -> None:
        other_started.set()
        in_transaction(write)

    second = threading.Thread(target=second_writer)
    second.start()
    first.join(30)
    second.join(30)
    assert errors == []
    check = handler["default"]
    assert sorted(r[0] for r in check.cursor().execute("SELECT ply FROM moves").fetchall()) == [
        1,
        2,
    ]
    check.close()


@pytest.mark.usefixtures("own_database")
def test_a_move_commits_while_another_connection_is_reading(tmp_path: Path) -> None:
    """A page's read still in progress does not make a move wait, nor fail it.

    In SQLite's default rollback journal a commit waits until no statement
    reads, and fails with "database is locked" once the busy timeout is up
    (shortened here to a second); with the settings' WAL it commits at once.
    """
    config = env.database({"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}, tmp_path)
    config["OPTIONS"]["timeout"] = 1
    handler = ConnectionHandler({"default": config})
    setup = handler["default"]
    setup.cursor().execute("CREATE TABLE moves (ply integer)")
    setup.cursor().executemany("INSERT INTO moves VALUES (%s)", [(n,) for n in range(500)])
    setup.close()
    reading = threading.Event()
    done_reading = threading.Event()

    def read_slowly() -> None:
        connection = handler["default"]
        cursor = connection.cursor()
        cursor.execute("SELECT ply FROM moves")
        cursor.fetchone()  # the statement is open, as while a page streams rows
        reading.set()
        done_reading.wait(10)
        cursor.close()
        connection.close()

    reader = threading.Thread(target=read_slowly)
    reader.start()
    try:
        assert reading.wait(5)
        writer = handler["default"]
        writer.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
        writer.cursor().execute("INSERT INTO moves VALUES (500)")
        writer.commit()
        writer.set_autocommit(True)
    finally:
        done_reading.set()
        reader.join(10)
    assert writer.cursor().execute("SELECT count(*) FROM moves").fetchone() == (501,)
    writer.close()

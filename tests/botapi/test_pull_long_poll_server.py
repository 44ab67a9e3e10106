"""Long polls against a real uvicorn on PostgreSQL and Redis: what a waiting bot holds.

A waiting ``GET /api/v1/bots/me/turns?wait=…`` must hold no database
connection (each one used to hold a PostgreSQL connection for up to 30 s: 20
polls took a server from 5 to 22 connections, about 90 would have exhausted
``max_connections``), a bot may keep only a few polls open at once (the
next one is a 429 ``too_many_polls``), and a waiting poll still answers as
soon as the referee tells the bot it is its turn (over Redis, from another
process: here the test process plays the referee, eagerly).

The server is a real ``uvicorn harbormaster.asgi:application`` subprocess on
this test's own PostgreSQL database and Redis; the connections are counted
in ``pg_stat_activity`` while the polls wait.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Iterator

import httpx
import psycopg
import pytest
from django.conf import settings
from django.db import connection

from botapi.services import bots as services
from botapi.services import pull
from games.referee import statecache
from games.services import create_game
from tests.factories import BotFactory
from tests.foundation.servers import start_server
from tests.tournaments.workers import test_database_url as database_url

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_referee"),
]

BOTS = 100
POLLS_PER_BOT = 2  # 200 long polls at once
WAIT_S = 4
HANDFUL = 5
"""Database connections the waiting polls may add to the server's idle count, at most."""


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[str]:
    """uvicorn serving harbormaster.asgi on this test's database and Redis; its base URL."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "harbormaster.settings",
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.REDIS_URL or "",
    }
    log = tmp_path_factory.mktemp("long-poll") / "uvicorn.log"
    running = start_server(env, log, ["--log-level", "warning", "--timeout-graceful-shutdown", "2"])
    yield running.url
    running.stop()
    assert "Traceback" not in running.log(), running.log()


class ConnectionCounter(threading.Thread):
    """Samples the connections to this test's database (its own excluded) until stopped."""

    def __init__(self) -> None:
        super().__init__(name="pg-counter", daemon=True)
        self.conninfo = database_url()
        self.samples: list[int] = []
        self.stop = threading.Event()

    def idle_count(self) -> int:
        """The fewest connections seen over half a second (closed ones take a moment to go)."""
        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            seen = []
            for _ in range(10):
                seen.append(self._count(conn))
                time.sleep(0.05)
            return min(seen)

    def _count(self, conn: psycopg.Connection) -> int:
        return conn.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()[0]

    def run(self) -> None:
        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            while not self.stop.is_set():
                self.samples.append(self._count(conn))
                time.sleep(0.05)


def pull_bots(count: int) -> list[str]:
    """``count`` pull bots; their tokens."""
    bots = [BotFactory(mode="pull", endpoint_url="") for _ in range(count)]
    return [services.rotate_pull_token(bot) for bot in bots]


def headers(token: str) -> dict[str, str]:
    return {"Authorization": f"Bot {token}"}


async def poll(client: httpx.AsyncClient, token: str, wait: float) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = await client.get("/api/v1/bots/me/turns", params={"wait": wait},
                                headers=headers(token))  # fmt: skip
    return response, time.monotonic() - started


def client_for(server: str) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=1000, max_keepalive_connections=0)
    return httpx.AsyncClient(base_url=server, timeout=60, limits=limits)


def test_200_waiting_long_polls_hold_a_handful_of_database_connections(server) -> None:
    tokens = pull_bots(BOTS)
    connection.close()  # this test's own connection is not the server's doing
    httpx.get(f"{server}/api/v1/bots/me/turns", headers=headers(tokens[0]))  # warm
    counter = ConnectionCounter()
    baseline = counter.idle_count()

    async def everyone_polls() -> list[tuple[httpx.Response, float]]:
        async with client_for(server) as client:
            polls = [poll(client, t, WAIT_S) for t in tokens for _ in range(POLLS_PER_BOT)]
            return await asyncio.gather(*polls)

    counter.start()
    try:
        answers = asyncio.run(everyone_polls())
    finally:
        counter.stop.set()
        counter.join()
    statuses = [response.status_code for response, _ in answers]
    assert statuses == [200] * BOTS * POLLS_PER_BOT, sorted(set(statuses))
    assert all(response.json() == [] for response, _ in answers)
    assert min(seconds for _, seconds in answers) >= WAIT_S - 0.5, "the polls waited"
    most = max(counter.samples)
    assert most <= baseline + HANDFUL, (
        f"{BOTS * POLLS_PER_BOT} waiting polls held up to {most} connections "
        f"(idle server: {baseline})"
    )


def test_a_bots_third_poll_at_once_is_refused_429_and_its_slots_come_back(server) -> None:
    token, other = pull_bots(2)

    async def scenario() -> dict[str, object]:
        async with client_for(server) as client:
            first = asyncio.create_task(poll(client, token, 3))
            second = asyncio.create_task(poll(client, token, 3))
            await asyncio.sleep(1.0)  # both are waiting now
            third, _ = await poll(client, token, 3)
            neighbour = asyncio.create_task(poll(client, other, 1))  # another bot is not limited
            answered = [await first, await second, await neighbour]
            after, _ = await poll(client, token, 0.5)  # the slots are free again
            return {"third": third, "answered": answered, "after": after}

    result = asyncio.run(scenario())
    third = result["third"]
    assert third.status_code == 429, third.text
    assert third.json() == {"detail": third.json()["detail"], "code": "too_many_polls"}
    assert "2" in third.json()["detail"]
    assert 1 <= int(third.headers["Retry-After"]) <= 3
    assert [r.status_code for r, _ in result["answered"]] == [200, 200, 200]
    assert result["after"].status_code == 200


def test_a_poll_given_up_by_its_client_frees_its_slot(server) -> None:
    (token,) = pull_bots(1)

    async def scenario() -> int:
        async with client_for(server) as client:
            keeper = asyncio.create_task(poll(client, token, 4))
            quitter = asyncio.create_task(poll(client, token, 25))
            await asyncio.sleep(1.0)
            quitter.cancel()  # the client hangs up; the server notices and lets go
            await asyncio.sleep(0.5)
            retry, _ = await poll(client, token, 0.5)
            await keeper
            return retry.status_code

    assert asyncio.run(scenario()) == 200


def test_a_waiting_poll_answers_as_soon_as_the_referee_says_it_is_the_bots_turn(server) -> None:
    tokens = pull_bots(3)
    bots = [services.bot_for_pull_token(t) for t in tokens]
    connection.close()

    async def scenario() -> list[tuple[httpx.Response, float]]:
        async with client_for(server) as client:
            polls = [asyncio.create_task(poll(client, t, 20)) for t in tokens]
            await asyncio.sleep(1.0)  # all three wait
            # The referee (eager, in this process) starts the game: chance deals,
            # then the seat to move is told over Redis.
            started = time.monotonic()
            game = await asyncio.to_thread(create_and_close, bots)
            done, pending = await asyncio.wait(polls, timeout=5, return_when="FIRST_COMPLETED")
            answered = [(task.result()[0], time.monotonic() - started) for task in done]
            for task in pending:
                task.cancel()
            return answered, game

    answered, game = asyncio.run(scenario())
    assert len(answered) == 1, "only the bot to move is answered"
    response, seconds = answered[0]
    assert response.status_code == 200
    turns = response.json()
    game.refresh_from_db()
    seat = statecache.load_state(game).to_move[0]
    assert [t["ply"] for t in turns] == [game.next_ply]
    assert turns[0]["game"] == {**turns[0]["game"], "id": game.pk, "seat": seat}
    assert turns[0]["request_id"] == pull.request_id_for(game.pk, game.next_ply)
    assert seconds < 2, f"answered {seconds:.2f} s after the turn came up"


def create_and_close(bots):
    try:
        return create_game("manila", [b.competitor for b in bots], seed="wake", move_time_ms=60_000)
    finally:
        connection.close()

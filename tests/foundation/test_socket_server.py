"""A real uvicorn, started as everywhere the site is served, against sockets and bodies that hoard.

The server runs on this test's PostgreSQL database and, with REDIS_URL, on
Redis (the channel layer and the open-socket counts), with the limits raised
out of the way (``socket_server_settings``). Its memory is read from
``/proc/<pid>/status`` (VmRSS).
"""

from __future__ import annotations

import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings

from games.services import create_game
from tests.foundation import raw_ws
from tests.foundation.processes import clean_env
from tests.foundation.servers import Server, start_server
from tests.tournaments import workers
from tests.tournaments.play.conftest import people
from web.sockets.limits import WS_MAX_SIZE

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_referee"),
    pytest.mark.postgres,
]

MB = 1024 * 1024


@dataclass
class Site:
    server: Server
    port: int
    game_id: int

    def rss(self) -> int:
        """The server process's resident memory, in bytes."""
        for line in Path(f"/proc/{self.server.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise AssertionError("no VmRSS")

    def spectator(self) -> socket.socket:
        """An anonymous socket on the game, its first state frame read."""
        conn = raw_ws.handshake(self.port, f"/ws/games/{self.game_id}/")
        opcode, _ = raw_ws.read_frame(conn)
        assert opcode == raw_ws.TEXT
        return conn

    def healthz(self) -> int:
        try:
            with urllib.request.urlopen(f"{self.server.url}/healthz", timeout=20) as answer:
                return answer.status
        except urllib.error.HTTPError as refused:
            return refused.code


@pytest.fixture(scope="module")
def module_server(django_db_setup, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One uvicorn for the module's tests (each test's rows are its own: see ``site``)."""
    if not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        pytest.skip("the server runs in another process: it needs PostgreSQL")
    environ = clean_env(
        DJANGO_SETTINGS_MODULE="tests.foundation.socket_server_settings",
        DATABASE_URL=workers.test_database_url(),
        REDIS_URL=settings.REDIS_URL or "",
        LOG_LEVEL="WARNING",
    )
    server = start_server(environ, tmp_path_factory.mktemp("socket-server") / "uvicorn.log")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def site(transactional_db, module_server: Server) -> Site:
    """The module's server and a game of this test's own (new ids: sequences are not reset)."""
    game = create_game("manila", people(3), seed="socket-server")
    return Site(module_server, int(module_server.url.rsplit(":", 1)[1]), game.pk)


def settle(site: Site) -> int:
    """The server's memory once it has served a little (first imports and caches done)."""
    for _ in range(3):
        site.spectator().close()
        site.healthz()
    time.sleep(0.5)
    return site.rss()


def test_an_oversize_frame_closes_the_socket_with_1009(site: Site) -> None:
    conn = site.spectator()
    conn.sendall(raw_ws.frame_header(WS_MAX_SIZE + 1) + b"x" * (WS_MAX_SIZE + 1))
    opcode, payload = raw_ws.read_frame(conn)
    conn.close()
    assert opcode == raw_ws.CLOSE and raw_ws.close_code(payload) == 1009


def test_memory_stays_flat_while_twenty_15_mb_frames_are_sent(site: Site) -> None:
    """uvicorn's default (16 MiB) buffered each frame whole: 134 -> 509 MB for twenty."""
    before = settle(site)
    peak = before
    sending = threading.Event()
    sending.set()

    def watch() -> None:
        nonlocal peak
        while sending.is_set():
            peak = max(peak, site.rss())
            time.sleep(0.02)

    def send_15_mb() -> None:
        conn = site.spectator()
        size = 15_000_000
        conn.sendall(raw_ws.frame_header(size))
        piece = b"x" * 65536
        sent = 0
        try:
            while sent < size:
                sent += conn.send(piece[: size - sent])
        except OSError:
            pass  # the server closed the socket after the frame's header
        finally:
            conn.close()

    watcher = threading.Thread(target=watch)
    watcher.start()
    senders = [threading.Thread(target=send_15_mb) for _ in range(20)]
    for thread in senders:
        thread.start()
    for thread in senders:
        thread.join(timeout=120)
    time.sleep(0.5)
    sending.clear()
    watcher.join()
    grown = (peak - before) / MB
    print(f"RSS {before / MB:.0f} MB before, {peak / MB:.0f} MB at most while sending")
    assert grown < 40, f"the server grew by {grown:.0f} MB"


def test_healthz_stays_ok_with_300_spectators_and_a_socket_costs_little(site: Site) -> None:
    """The channel layer check timed out (503) with 150 spectators: 300 now, five times in five."""
    before = settle(site)
    sockets = [site.spectator() for _ in range(300)]
    try:
        time.sleep(0.5)
        after = site.rss()
        statuses = [site.healthz() for _ in range(5)]
    finally:
        for conn in sockets:
            conn.close()
    per_socket_kb = (after - before) / 300 / 1024
    print(f"RSS {before / MB:.0f} MB -> {after / MB:.0f} MB with 300 sockets: "
          f"{per_socket_kb:.0f} KB a socket")  # fmt: skip
    assert statuses == [200] * 5
    assert per_socket_kb < 1024


def test_a_stalled_body_is_dropped_after_the_timeout(site: Site) -> None:
    """Headers with a Content-Length, then ten bytes, then nothing: answered 408 and closed."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", site.port), timeout=15) as conn:
        conn.sendall(
            b"POST /api/v1/bots/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n" + b"{" * 10
        )
        answer = b""
        try:
            while more := conn.recv(65536):
                answer += more
        except TimeoutError:
            pass
    seconds = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b'"code": "request_timeout"' in answer
    assert 0.9 < seconds < 10, seconds


def test_a_body_that_arrives_in_time_is_served(site: Site) -> None:
    with socket.create_connection(("127.0.0.1", site.port), timeout=15) as conn:
        conn.sendall(
            b"POST /api/v1/bots/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{"
        )
        time.sleep(0.5)
        conn.sendall(b"}")
        answer = b""
        while more := conn.recv(65536):
            answer += more
    status = answer.split(b" ", 2)[1]
    assert status != b"408" and status.startswith(b"4"), answer[:200]


@pytest.mark.redis
def test_a_games_limit_holds_across_two_server_processes(transactional_db, tmp_path) -> None:
    """Two uvicorn processes on one Redis: a game of at most 3 sockets gets 3, not 3 each."""
    game = create_game("manila", people(3), seed="socket-limit-servers")
    environ = clean_env(
        DJANGO_SETTINGS_MODULE="tests.foundation.socket_limit_server_settings",
        DATABASE_URL=workers.test_database_url(),
        REDIS_URL=settings.REDIS_URL,
        LOG_LEVEL="WARNING",
    )
    servers = [start_server(environ, tmp_path / f"uvicorn{i}.log") for i in range(2)]
    opened: list[socket.socket] = []
    try:
        ports = [int(server.url.rsplit(":", 1)[1]) for server in servers]
        frames = []
        for port in (ports[0], ports[1], ports[0], ports[1]):
            conn = raw_ws.handshake(port, f"/ws/games/{game.pk}/")
            opened.append(conn)
            frames.append(raw_ws.read_frame(conn))
    finally:
        for conn in opened:
            conn.close()
        for server in servers:
            server.stop()
    assert [opcode for opcode, _ in frames] == [raw_ws.TEXT] * 3 + [raw_ws.CLOSE]
    code, reason = raw_ws.close_code(frames[3][1]), frames[3][1][2:].decode()
    assert (code, reason) == (4429, "too many open sockets for this game (at most 3)")

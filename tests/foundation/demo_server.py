"""``manage.py demo_serve`` in a child process, as ``make demo`` runs it, for tests.

The embedded defaults (a temporary SQLite file, no Redis: Celery's worker and
beat run in the served process) on a free loopback port. The test reads the
server's database with ``sqlite3`` directly (the server's file, not the test
database) and prepares rows with ``manage.py shell`` in another child process.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.foundation.processes import PROJECT_DIR, clean_env, run_python
from tests.foundation.servers import free_port

START_SECONDS = 60


@dataclass
class DemoServer:
    url: str
    process: subprocess.Popen
    log_path: Path
    db_path: Path
    environ: dict[str, str]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def rows(self, sql: str, *params: Any) -> list[tuple]:
        """Rows from the served database (a fresh connection: never a stale snapshot)."""
        with sqlite3.connect(self.db_path, timeout=20) as db:
            return db.execute(sql, params).fetchall()

    def shell(self, code: str) -> Any:
        """Run ``code`` with ``manage.py shell`` on the served database; its last line, as JSON."""
        done = run_python(["manage.py", "shell", "-c", code], self.environ)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    def stop(self) -> int:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        return self.process.returncode


def wait_for(condition: Callable[[], Any], what: str, server: DemoServer, timeout: float) -> Any:
    """``condition()`` once truthy; fails after ``timeout`` seconds with the server's log."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; server log:\n{server.log()}")
        time.sleep(0.1)
    return value


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@contextmanager
def demo_server(folder: Path) -> Iterator[DemoServer]:
    """A migrated SQLite file in ``folder`` and ``demo_serve`` on it, answering /healthz."""
    db_path = folder / "db.sqlite3"
    environ = clean_env(DATABASE_URL=f"sqlite:///{db_path}")
    migrated = run_python(["manage.py", "migrate", "--noinput"], environ)
    assert migrated.returncode == 0, migrated.stderr
    port = free_port()
    log_path = folder / "demo_serve.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "demo_serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=PROJECT_DIR, env=environ, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    server = DemoServer(f"http://127.0.0.1:{port}", process, log_path, db_path, environ)
    try:
        up = lambda: process.poll() is not None or healthy(server.url)  # noqa: E731
        wait_for(up, "/healthz", server, START_SECONDS)
        assert process.poll() is None, f"demo_serve exited:\n{server.log()}"
        yield server
    finally:
        server.stop()


def moves(server: DemoServer, game: int) -> list[tuple]:
    """``(ply, seat, source, fault_kind)`` of the game's moves, in order."""
    return server.rows(
        "SELECT ply, seat, source, fault_kind FROM tournaments_move WHERE game_id = ? ORDER BY ply",
        game,
    )


def status(server: DemoServer, game: int) -> str:
    return server.rows("SELECT status FROM tournaments_game WHERE id = ?", game)[0][0]

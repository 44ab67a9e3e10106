"""A Redis server of a test's own, which the test may stop and start again.

The run's shared Redis must never be restarted (other tests use it), so a test
of what a Redis restart does starts ``redis-server`` on a free loopback port,
without persistence (``--save '' --appendonly no``, as docker-compose runs it):
a restart loses every key, queued tasks included, as it would there.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.foundation.servers import free_port

START_SECONDS = 10


@dataclass
class RedisServer:
    """One ``redis-server`` on ``port``; :meth:`restart` keeps the port, loses the data."""

    directory: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None
    starts: int = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.starts += 1
        with (self.directory / f"redis-{self.port}-{self.starts}.log").open("w") as log:
            self.process = subprocess.Popen(
                [
                    "redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--dir", str(self.directory),
                ],
                stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise AssertionError(f"redis-server on port {self.port} did not answer")

    def stop(self) -> None:
        """SIGTERM and wait: the clients' connections are closed by the server going away."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def restart(self, down_seconds: float) -> None:
        self.stop()
        time.sleep(down_seconds)
        self.start()


def own_redis(directory: Path) -> RedisServer:
    """A started server of this test's own (skips the test where redis-server is missing)."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer(directory)
    server.start()
    return server

"""Real ASGI servers for tests: ``uvicorn harbormaster.asgi:application`` subprocesses.

Started the way the Dockerfile and docker-compose start the service
(``--forwarded-allow-ips`` with the environment's ``TRUSTED_PROXIES``, none
if unset; ``--ws-max-size``), on free ports of this machine, with the
environment a test gives them.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.foundation.processes import PROJECT_DIR
from web.sockets.limits import WS_MAX_SIZE

START_SECONDS = 60
STOP_SECONDS = 5
"""How long a stop waits for uvicorn's graceful shutdown before SIGKILL. No test here is about
the shutdown, which takes well under a second, but after play sockets it sometimes waited for
their disconnect handlers until killed (three stops of 15 s in a run of the slow modules; after
300 sockets the handlers' channel-layer calls had failed with "Too many connections")."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Server:
    """One uvicorn process (its own session, so stopping it takes its children too)."""

    url: str
    process: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def start_server(
    environ: Mapping[str, str], log_path: Path, extra_args: Sequence[str] = ()
) -> Server:
    """Start uvicorn (with ``extra_args``) and wait until it answers (or fail with its log)."""
    port = free_port()
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [
                sys.executable, "-m", "uvicorn", "harbormaster.asgi:application",
                "--host", "127.0.0.1", "--port", str(port),
                "--forwarded-allow-ips", environ.get("TRUSTED_PROXIES", ""),
                "--lifespan", "off", "--ws-max-size", str(WS_MAX_SIZE),
                *extra_args,
            ],
            cwd=PROJECT_DIR, env=dict(environ), stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    server = Server(f"http://127.0.0.1:{port}", process, log_path)
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"uvicorn exited with {process.returncode}:\n{server.log()}")
        try:  # uvicorn listens once the application is loaded; no request is needed
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            time.sleep(0.2)
    server.stop()
    raise AssertionError(f"uvicorn did not answer within {START_SECONDS} s:\n{server.log()}")

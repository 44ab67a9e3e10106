"""Every way the site is served bounds websocket messages to WS_MAX_SIZE (uvicorn's --ws-max-size).

The real server's behaviour (an oversize frame closed with 1009, memory flat
under 15 MB frames) is in ``test_socket_server.py``; here, that each command
line and config passes the bound: uvicorn's default is 16 MiB.
"""

from __future__ import annotations

import json

from harbormaster.demo_serving import uvicorn_config
from tests.foundation.processes import PROJECT_DIR
from tests.foundation.test_compose import command_text
from web.sockets.consumers import MAX_FRAME_CHARS
from web.sockets.limits import WS_MAX_SIZE


def test_the_bound_is_small_and_fits_every_frame_the_consumer_reads() -> None:
    assert MAX_FRAME_CHARS * 4 <= WS_MAX_SIZE <= 64 * 1024, "4 UTF-8 bytes a character at most"


def test_make_demo_passes_it() -> None:
    assert uvicorn_config("127.0.0.1", 8000).ws_max_size == WS_MAX_SIZE


def test_docker_compose_passes_it() -> None:
    assert f"--ws-max-size {WS_MAX_SIZE}" in command_text("web")


def test_the_dockerfile_passes_it() -> None:
    cmd = next(
        line for line in (PROJECT_DIR / "Dockerfile").read_text().splitlines()
        if line.startswith("CMD ")
    )  # fmt: skip
    args = json.loads(cmd.removeprefix("CMD "))
    assert args[args.index("--ws-max-size") + 1] == str(WS_MAX_SIZE)

"""Every way uvicorn is started takes X-Forwarded-For from TRUSTED_PROXIES, and from no one else.

uvicorn's proxy-headers middleware is on by default and, without
``--forwarded-allow-ips``, trusts loopback peers (or ``FORWARDED_ALLOW_IPS``);
with ``--no-proxy-headers`` the application would see the proxy for every
client. So each command line passes the option with the variable Django checks
at start-up. What the option does through a real server:
``test_proxy_headers_servers.py``.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

import bench.web
from harbormaster.demo_serving import uvicorn_config
from tests.foundation.processes import PROJECT_DIR
from tests.foundation.test_compose import SERVICES, command_text, dockerfile_command

OPTION = "--forwarded-allow-ips"
UVICORN_OPTIONS = ("--ws-max-size", "--lifespan", "--no-proxy-headers")
"""Options only a uvicorn command line has: a file naming the application and one of them
starts the server."""
SKIPPED_FOLDERS = {".git", ".venv", "node_modules", "staticfiles", "__pycache__"}


def client_seen(trusted: Any, peer: str, forwarded: str) -> str:
    """The client uvicorn's middleware, trusting ``trusted``, hands the application."""
    seen: list[str] = []

    async def app(scope: dict, receive: Any, send: Any) -> None:
        seen.append(scope["client"][0])

    scope = {
        "type": "http",
        "client": (peer, 4711),
        "headers": [(b"x-forwarded-for", forwarded.encode())],
    }
    asyncio.run(ProxyHeadersMiddleware(app, trusted_hosts=trusted)(scope, None, None))
    return seen[0]


def test_make_demo_passes_the_setting(settings) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.5", "172.16.0.0/12"]
    config = uvicorn_config("127.0.0.1", 8000)
    assert config.proxy_headers
    assert config.forwarded_allow_ips == ["10.0.0.5", "172.16.0.0/12"]
    assert client_seen(config.forwarded_allow_ips, "172.16.9.9", "203.0.113.1") == "203.0.113.1"


def test_make_demo_trusts_no_one_by_default(settings) -> None:
    """uvicorn's own default would trust the loopback peers the demo is served to."""
    settings.TRUSTED_PROXIES = []
    config = uvicorn_config("127.0.0.1", 8000)
    assert config.forwarded_allow_ips == []
    assert client_seen(config.forwarded_allow_ips, "127.0.0.1", "203.0.113.1") == "127.0.0.1"
    assert client_seen("127.0.0.1", "127.0.0.1", "203.0.113.1") == "203.0.113.1"


def test_docker_compose_passes_the_containers_variable() -> None:
    command = command_text("web")
    assert f'{OPTION} "$$TRUSTED_PROXIES"' in command  # $$: the container's shell reads it
    assert "--no-proxy-headers" not in command
    assert "TRUSTED_PROXIES" in SERVICES["web"]["environment"]


def test_the_dockerfile_passes_the_variable() -> None:
    args = dockerfile_command()
    assert args[args.index(OPTION) + 1] == "$TRUSTED_PROXIES"
    assert "--no-proxy-headers" not in args


def test_the_web_bench_passes_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[list[str]] = []

    def popen(command: list[str], **kwargs: Any) -> None:
        started.append(command)
        raise RuntimeError("not started")

    monkeypatch.setattr(subprocess, "Popen", popen)
    for value in ("10.0.0.5", ""):
        with pytest.raises(RuntimeError):
            bench.web._serve(1, 8000, {"TRUSTED_PROXIES": value} if value else {})
        assert started[-1][started[-1].index(OPTION) + 1] == value


def test_the_operating_guide_shows_the_option() -> None:
    guide = (PROJECT_DIR / "docs" / "operating.md").read_text()
    assert "--no-proxy-headers" not in guide
    assert f'{OPTION} "$TRUSTED_PROXIES"' in guide


def project_texts() -> Iterator[tuple[Path, str]]:
    for folder, subfolders, names in os.walk(PROJECT_DIR):
        subfolders[:] = [name for name in subfolders if name not in SKIPPED_FOLDERS]
        for name in names:
            path = Path(folder) / name
            try:
                yield path, path.read_text()
            except (UnicodeDecodeError, OSError):
                continue


def test_every_uvicorn_command_line_in_the_project_passes_it() -> None:
    """A new way of starting the server (a test's, a bench's) cannot forget the option."""
    starting = {
        str(path.relative_to(PROJECT_DIR)): text
        for path, text in project_texts()
        if path != Path(__file__).resolve()
        and "harbormaster.asgi:application" in text
        and any(o in text for o in UVICORN_OPTIONS)
    }
    assert {"Dockerfile", "docker-compose.yml", "tests/foundation/servers.py"} <= set(starting)
    missing = [
        name
        for name, text in starting.items()
        if OPTION not in text or "--no-proxy-headers" in text
    ]
    assert missing == []

"""docker-compose.yml describes the multi-machine shape (no Docker engine runs here to try it)."""

from __future__ import annotations

import json
import shlex

import yaml

from harbormaster.env import ENV_VARS
from tests.foundation.processes import PROJECT_DIR

COMPOSE = yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
APP_SERVICES = ("web", "worker", "beat")


def command_text(service: str) -> str:
    command = SERVICES[service]["command"]
    return command if isinstance(command, str) else " ".join(command)


def dockerfile_command() -> list[str]:
    """The Dockerfile's CMD as the words its ``sh -c`` runs (shell quoting undone)."""
    cmd = next(
        line for line in (PROJECT_DIR / "Dockerfile").read_text().splitlines()
        if line.startswith("CMD ")
    )  # fmt: skip
    args = json.loads(cmd.removeprefix("CMD "))
    return shlex.split(args[2]) if args[:2] == ["sh", "-c"] else args


def test_all_services_exist() -> None:
    assert {"postgres", "redis", *APP_SERVICES} <= set(SERVICES)


def test_postgres_keeps_data_in_a_volume_and_has_healthcheck() -> None:
    postgres = SERVICES["postgres"]
    volume_names = [volume.split(":")[0] for volume in postgres["volumes"]]
    assert any(name in COMPOSE["volumes"] for name in volume_names)
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])


def test_web_migrates_then_serves_asgi() -> None:
    command = command_text("web")
    assert command.index("manage.py migrate") < command.index("uvicorn")
    assert "harbormaster.asgi:application" in command


def test_web_runs_a_process_per_core_by_default() -> None:
    """Several uvicorn processes (``WEB_WORKERS``, 2 by default), each with its own pool."""
    assert "--workers ${WEB_WORKERS:-2}" in command_text("web")


def test_worker_and_beat_run_celery() -> None:
    assert "celery -A harbormaster worker" in command_text("worker")
    assert "celery -A harbormaster beat" in command_text("beat")


def test_app_services_use_our_image_and_wait_for_healthy_servers() -> None:
    for name in APP_SERVICES:
        service = SERVICES[name]
        assert service["build"] == "."
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"


def test_every_variable_set_for_the_app_is_read_by_settings() -> None:
    for name in APP_SERVICES:
        environment = SERVICES[name]["environment"]
        assert environment, f"{name} sets no environment"
        unknown = set(environment) - set(ENV_VARS)
        assert not unknown, f"{name} sets variables settings never read: {sorted(unknown)}"
        assert {"DATABASE_URL", "REDIS_URL", "SECRET_KEY"} <= set(environment)
        assert environment["DEBUG"] == "0"


def test_dockerfile_serves_the_asgi_application() -> None:
    dockerfile = (PROJECT_DIR / "Dockerfile").read_text()
    assert "harbormaster.asgi:application" in dockerfile
    assert "collectstatic" in dockerfile

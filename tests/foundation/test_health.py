"""GET /healthz: the real database, channel layer and broker, and a real failure."""

from __future__ import annotations

import socket

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from harbormaster import embedded_celery


def closed_port() -> int:
    """A local TCP port nobody listens on (bound then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get_health(client: Client):
    response = client.get(reverse("healthz"))
    return response, response.json()


@pytest.mark.django_db
def test_all_dependencies_answer(client: Client) -> None:
    response, body = get_health(client)
    assert response.status_code == 200, body
    assert body["status"] == "ok" and body["failed"] == []
    for name in ("database", "channel_layer", "broker"):
        assert body[name]["ok"] is True
    assert body["database"]["detail"] == connection.vendor
    assert response["Cache-Control"].startswith("max-age=0")


@pytest.mark.django_db
def test_unreachable_broker_gives_503_naming_it(client: Client, settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{closed_port()}/0"
    response, body = get_health(client)
    assert response.status_code == 503
    assert body["status"] == "fail"
    assert body["failed"] == ["broker"]
    assert body["broker"]["ok"] is False
    assert "refused" in body["broker"]["detail"].lower()
    assert body["database"]["ok"] is True


@pytest.mark.django_db
def test_unreachable_channel_layer_gives_503_naming_it(client: Client, settings) -> None:
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{closed_port()}/0"]},
        }
    }
    response, body = get_health(client)
    assert response.status_code == 503
    assert body["failed"] == ["channel_layer"]
    assert body["channel_layer"]["ok"] is False


@pytest.mark.django_db
def test_eager_mode_reports_that_no_broker_is_used(client: Client, settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    _, body = get_health(client)
    assert body["broker"] == {"ok": True, "detail": "no broker: tasks run eagerly in-process"}


@pytest.mark.django_db
def test_embedded_mode_is_healthy_only_while_this_process_runs_its_worker(
    client: Client, settings, monkeypatch
) -> None:
    """The in-memory broker always answers; what counts is that this process consumes it."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.EMBEDDED_CELERY = True
    settings.CELERY_BROKER_URL = "memory://localhost/"
    monkeypatch.setattr(embedded_celery, "running", lambda: False)
    response, body = get_health(client)
    assert response.status_code == 503
    assert body["failed"] == ["broker"]
    assert body["broker"]["detail"] == "in memory, and this process runs no Celery worker"
    monkeypatch.setattr(embedded_celery, "running", lambda: True)
    response, body = get_health(client)
    assert response.status_code == 200, body
    assert body["broker"] == {
        "ok": True,
        "detail": "in memory: Celery's worker and beat run in this process",
    }


@pytest.mark.redis
@pytest.mark.django_db
def test_redis_backs_channel_layer_and_broker(client: Client) -> None:
    response, body = get_health(client)
    assert response.status_code == 200, body
    assert body["channel_layer"]["detail"] == "RedisChannelLayer"
    assert body["broker"]["detail"].startswith("redis://")


@pytest.mark.postgres
@pytest.mark.django_db
def test_database_is_postgresql(client: Client) -> None:
    _, body = get_health(client)
    assert body["database"] == {"ok": True, "detail": "postgresql"}

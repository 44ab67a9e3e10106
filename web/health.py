"""Health checks of the services Harbormaster depends on.

Each check really talks to its service (a query, a message through the
channel layer, a broker connection) with a short time limit, and reports what
it found rather than raising, so ``/healthz`` can name the one that failed.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from asgiref.sync import async_to_sync
from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import channel_layers, get_channel_layer
from django.conf import settings
from django.db import connection
from kombu import Connection

TIMEOUT_SECONDS = 3.0


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check: whether the service answered, and what it said."""

    ok: bool
    detail: str

    def as_dict(self) -> dict[str, object]:
        return {"ok": self.ok, "detail": self.detail}


def _guarded(check: Callable[[], str]) -> CheckResult:
    """Run ``check``; its text on success, the error's on failure."""
    try:
        return CheckResult(True, check())
    except Exception as exc:  # any failure of a dependency is a health result
        return CheckResult(False, f"{type(exc).__name__}: {exc}")


def check_database() -> CheckResult:
    """One round trip to the default database."""

    def query() -> str:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return connection.vendor

    return _guarded(query)


def check_channel_layer() -> CheckResult:
    """Send a message to a fresh channel and read it back, through a layer of the check's own.

    The process's shared layer is not used: with Redis it lets one receiver
    at a time read, and while a play socket's consumer holds that turn it
    blocks on the consumers' list for up to channels_redis's ``brpop_timeout``
    (5 s), longer than this check waits: the check would fail whenever a
    socket is open. A layer built from the same settings talks to the
    same Redis through the same code, with a receiver of its own.
    """

    async def round_trip() -> None:
        layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
        try:
            channel = await layer.new_channel(prefix="healthz.")
            token = uuid.uuid4().hex
            await layer.send(channel, {"type": "healthz", "token": token})
            message = await layer.receive(channel)
            if message.get("token") != token:
                raise RuntimeError("channel layer returned a different message")
        finally:
            close = getattr(layer, "close_pools", None)  # Redis: its connections
            if close is not None:
                await close()

    def run() -> str:
        if DEFAULT_CHANNEL_LAYER not in channel_layers.configs:
            raise RuntimeError("CHANNEL_LAYERS has no default layer")
        async_to_sync(asyncio.wait_for)(round_trip(), TIMEOUT_SECONDS)
        return type(get_channel_layer()).__name__

    return _guarded(run)


def check_broker() -> CheckResult:
    """Connect to the Celery broker; in eager mode (tests) there is none to ask.

    In the embedded mode the project checks in its place whether this process
    runs the worker of its in-memory broker (``harbormaster.embedded_celery``).
    """
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return CheckResult(True, "no broker: tasks run eagerly in-process")

    def connect() -> str:
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=TIMEOUT_SECONDS) as conn:
            conn.ensure_connection(max_retries=1, timeout=TIMEOUT_SECONDS)
            return conn.as_uri()  # the password is masked

    return _guarded(connect)


CHECKS: dict[str, Callable[[], CheckResult]] = {
    "database": check_database,
    "channel_layer": check_channel_layer,
    "broker": check_broker,
}


def run_checks() -> dict[str, CheckResult]:
    """Every check by name, in a fixed order."""
    return {name: check() for name, check in CHECKS.items()}

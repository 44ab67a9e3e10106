"""Project-wide Celery tasks."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="harbormaster.ping")
def ping() -> str:
    """Answer "pong": proves a worker takes tasks from the broker and returns results."""
    return "pong"

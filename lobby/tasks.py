"""Celery tasks of the lobby: the upkeep that keeps it moving without anyone pressing a button.

Both are idempotent (acks-late may run one twice): a table started or closed
is no longer open, and the services look again under each table's lock.
"""

from __future__ import annotations

import logging

from celery import shared_task

from lobby import services

log = logging.getLogger(__name__)


@shared_task(name="lobby.start_waiting_tables", acks_late=True, ignore_result=True)
def start_waiting_tables(competitor_ids: list[int] | None = None) -> list[int]:
    """Start the full tables that waited for these competitors (a game of theirs ended)."""
    started = services.start_waiting_tables(competitor_ids)
    if started:
        log.info("lobby tables started once their bots were free: %s", started)
    return started


@shared_task(name="lobby.upkeep", acks_late=True, ignore_result=True)
def upkeep() -> dict[str, list[int]]:
    """Beat, every minute: close idle tables, and start any table still waiting for a bot."""
    closed = services.close_idle_tables()
    started = services.start_waiting_tables()
    if closed or started:
        log.info("lobby upkeep: closed %s, started %s", closed, started)
    return {"closed": closed, "started": started}

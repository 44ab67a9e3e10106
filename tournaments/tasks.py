"""Celery tasks of events: pairing rounds, the arena's passes (the referee's: ``games.tasks``).

Every task is idempotent (acks-late may run one twice).
"""

from __future__ import annotations

import logging

from celery import shared_task

from tournaments.events import arena, heartbeat
from tournaments.events.rounds import due_rounds, pair_next

log = logging.getLogger(__name__)


@shared_task(name="tournaments.pair_next_round", acks_late=True, ignore_result=True)
def pair_next_round(tournament_id: int, number: int) -> str:
    """Pair round ``number`` of a running event if it is due (``events.rounds.pair_next``).

    Idempotent: a second run finds the round made and does nothing; a
    failure is recorded on the event and retried by ``schedule_due_rounds``.
    """
    result = pair_next(tournament_id, number)
    level = logging.WARNING if result == "failed" else logging.DEBUG
    log.log(level, "pairing round %s of tournament %s: %s", number, tournament_id, result)
    return result


@shared_task(name="tournaments.schedule_due_rounds", acks_late=True, ignore_result=True)
def schedule_due_rounds() -> int:
    """Queue the pairing of every round due (beat): nothing is lost if a worker died.

    A round whose last game finished but whose pairing task was lost (a
    worker killed after the commit, a broker down) is found here.
    """
    due = due_rounds()
    for tournament_id, number in due:
        pair_next_round.delay(tournament_id, number)
    return len(due)


@shared_task(name="tournaments.arena_pass", acks_late=True, ignore_result=True)
def arena_pass() -> int:
    """Seat the free entrants of every league whose arena is on (``tournaments.events.arena``).

    Beat runs it every few seconds; a pass that runs twice or late is
    harmless: each pass locks its league and seats only who is still free.
    """
    return arena.run_passes()


@shared_task(name="tournaments.worker_heartbeat", ignore_result=True)
def worker_heartbeat() -> float:
    """Record that a worker runs tasks (beat, every few seconds; ``events.heartbeat``)."""
    return heartbeat.beat()

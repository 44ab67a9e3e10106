"""Celery tasks of the referee: thin wrappers, the logic is in ``games.referee.steps``.

Every task is idempotent (acks-late may run one twice): ``advance`` on a game
that moved on, or is over, does nothing harmful because ``submit`` accepts only
the current ply.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from games.models import Game
from games.referee import steps
from games.referee.turns import GRACE_MS

log = logging.getLogger(__name__)

LOST = frozenset({"raced", "idle"})
"""``advance`` results of a duplicate or late task (harmless; logged, since Celery's own
per-task lines are kept quiet)."""


@shared_task(name="tournaments.advance_game", acks_late=True, ignore_result=True)
def advance_game(game_id: int) -> str:
    result = steps.advance(game_id)
    if result in LOST:
        log.info("advance of game %s: %r, nothing written", game_id, result)
    return result


@shared_task(name="tournaments.check_clock", acks_late=True, ignore_result=True)
def check_clock(game_id: int, ply: int) -> str:
    """A person's or pull bot's time for ``ply`` is up: advance if still owed."""
    if Game.objects.filter(pk=game_id, status=Game.Status.RUNNING, next_ply=ply).exists():
        return steps.advance(game_id)
    return "moved"


@shared_task(name="tournaments.recover_stalled", acks_late=True, ignore_result=True)
def recover_stalled(stall_ms: int = 10_000) -> int:
    """Re-enqueue running games with no progress for longer than their clocks allow.

    A worker killed mid-move loses its task at worst; this finds the game again,
    and ``advance`` asks a push bot again with a fresh deadline (the lost time
    is the referee's, not the bot's). A game counts as stalled only once no
    decision could still be on its way: past the move limit, the whole time
    bank a seat may have (at most the game's ``time_bank_ms``), the grace and
    ``stall_ms``; earlier, a bot still thinking would be asked a second time.
    A game whose step raises is found here too; ``advance`` counts such
    failures per ply and gives the ply up at the third (``step_failures``).
    The task names keep their ``tournaments.`` prefix: queued messages, beat's
    schedule and the task routes name them so.
    """
    now = timezone.now()
    candidates = Game.objects.filter(
        status=Game.Status.RUNNING,
        last_progress_at__lt=now - timedelta(milliseconds=stall_ms + GRACE_MS),
    ).values_list("pk", "move_time_ms", "time_bank_ms", "last_progress_at")
    count = 0
    for game_id, move_time_ms, time_bank_ms, last in candidates:
        if now - last > timedelta(milliseconds=stall_ms + GRACE_MS + move_time_ms + time_bank_ms):
            advance_game.delay(game_id)
            count += 1
    return count

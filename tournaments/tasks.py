"""Celery tasks of the referee: thin wrappers, the logic is in ``referee``.

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
from tournaments import referee
from tournaments.players import GRACE_MS

log = logging.getLogger(__name__)

LOST = frozenset({"raced", "idle"})
"""``advance`` results of a duplicate or late task (harmless; logged, since Celery's own
per-task lines are kept quiet)."""


@shared_task(name="tournaments.advance_game", acks_late=True, ignore_result=True)
def advance_game(game_id: int) -> str:
    result = referee.advance(game_id)
    if result in LOST:
        log.info("advance of game %s: %r, nothing written", game_id, result)
    return result


@shared_task(name="tournaments.check_clock", acks_late=True, ignore_result=True)
def check_clock(game_id: int, ply: int) -> str:
    """A person's or pull bot's time for ``ply`` is up: advance if still owed."""
    if Game.objects.filter(pk=game_id, status=Game.Status.RUNNING, next_ply=ply).exists():
        return referee.advance(game_id)
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


# ------------------------------------------------------------------ events
@shared_task(name="tournaments.pair_next_round", acks_late=True, ignore_result=True)
def pair_next_round(tournament_id: int, number: int) -> str:
    """Pair round ``number`` of a running event if it is due (``events.rounds.pair_next``).

    Idempotent: a second run finds the round made and does nothing; a
    failure is recorded on the event and retried by ``schedule_due_rounds``.
    """
    from tournaments.events.rounds import pair_next

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
    from tournaments.events.rounds import due_rounds

    due = due_rounds()
    for tournament_id, number in due:
        pair_next_round.delay(tournament_id, number)
    return len(due)


@shared_task(name="tournaments.arena_pass", acks_late=True, ignore_result=True)
def arena_pass() -> int:
    """Seat the free entrants of every league whose arena is on (``tournaments.arena``).

    Beat runs it every few seconds; a pass that runs twice or late is
    harmless: each pass locks its league and seats only who is still free.
    """
    from tournaments import arena

    return arena.run_passes()

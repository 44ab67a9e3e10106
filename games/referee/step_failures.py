"""When ``referee.advance`` raises: count it, and give the ply up before a game can freeze.

A step that raises leaves the game where it was; the stalled-game recovery
(``tasks.recover_stalled``) asks again a little later, and a passing fault (a
database restart, a lost connection) heals so. A failure that comes back on
every try would hold the game (and an event's round) for ever, so failures
are counted on the game row, per ply (``Game.failing_ply``, ``Game.failures``:
a new ply starts again at one). At :data:`TRIES` failures on the same ply
the ply is given up:

* if the failure came while a push bot's answer was being fetched and
  checked (``seat`` given), the answer is the cause as far as the referee can
  tell: the seat gets what any faulty answer earns, the default action with
  an ``unreadable_reply`` fault (counted towards forfeiting), and the game
  goes on;
* otherwise the failure is ours (the engine, a write, the state): the game
  is aborted, never rated, with ``Game.status_reason`` saying why for its
  page, the admin and the event's organiser, and an event's round treats
  it as over (its ``games.signals.game_aborted`` receiver), so the round moves on.

A lost database or Redis connection is not counted: it fails every game
alike until it is back, and giving plies up then would abort healthy games;
the recovery simply asks again. Every failure is logged with its traceback.
"""

from __future__ import annotations

import logging

import redis.exceptions
from django.db import InterfaceError, OperationalError, transaction

from games.models import Game
from games.records import live as live_record
from games.referee import statecache
from games.referee.decisions import default_decision
from games.signals import game_aborted, games_settled

log = logging.getLogger(__name__)

TRIES = 3
"""Failures of ``advance`` on the same ply after which the ply is given up."""

PASSING = (
    OperationalError,
    InterfaceError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
)
"""Failures of the service's connections (down for every game alike): never counted."""

FAULT_KIND = "unreadable_reply"
"""The fault a seat gets when the referee failed on its answer (``botapi.client.Fault``)."""


def step_failed(game_id: int, ply: int, seat: int | None, exc: BaseException) -> str:
    """Record a failure of ``advance`` at ``ply``; ``seat`` is the seat whose answer was being
    handled, if any. Returns ``"failed"`` (tried again later), ``"default"`` (the seat's
    fault was recorded) or ``"aborted"``. Never raises: it runs where a task would crash.
    """
    log.error("advancing game %s failed at ply %s", game_id, ply, exc_info=exc)
    if isinstance(exc, PASSING):
        return "failed"
    try:
        tries = _count(game_id, ply)
    except Exception:
        log.exception("game %s: could not count the failure at ply %s", game_id, ply)
        return "failed"
    if tries < TRIES:
        return "failed"
    what = f"{type(exc).__name__}: {str(exc)[:300]}".rstrip(": ")
    if seat is not None:
        try:
            if _charge_seat(game_id, ply, seat, what):
                return "default"
        except Exception:
            log.exception("game %s: could not record the fault of seat %s", game_id, seat)
    reason = (
        f"The referee failed {tries} times in a row on move {ply} ({what}); "
        "the game was aborted and is not rated."
    )
    try:
        return "aborted" if abort(game_id, reason) else "failed"
    except Exception:
        log.exception("game %s: could not abort it", game_id)
        return "failed"


def _count(game_id: int, ply: int) -> int:
    """This failure counted on the game row: the failures in a row at ``ply`` (0: not running)."""
    with transaction.atomic():
        row = (
            Game.objects.select_for_update()
            .filter(pk=game_id, status=Game.Status.RUNNING)
            .values_list("failing_ply", "failures")
            .first()
        )
        if row is None:
            return 0
        tries = row[1] + 1 if row[0] == ply else 1
        Game.objects.filter(pk=game_id).update(failing_ply=ply, failures=tries)
    return tries


def _charge_seat(game_id: int, ply: int, seat: int, what: str) -> bool:
    """Play the seat's default at ``ply`` with its fault; False if the game moved on meanwhile."""
    # games.referee.steps imports this module: at the top the import would be circular.
    from games.referee.steps import RefereeError, submit

    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING or game.next_ply != ply:
        return False
    state = statecache.load_state(game)
    detail = (
        f"the referee failed {TRIES} times in a row handling this seat's answer ({what}); "
        "default action"
    )
    decision = default_decision(state, seat, FAULT_KIND, detail)
    try:
        submit(game_id, ply, seat, decision, game=game, state=state)
    except RefereeError as refused:
        if refused.code in ("stale_ply", "not_running"):
            return False
        raise
    return True


def abort(game_id: int, reason: str) -> bool:
    """Abort a running game for ``reason`` (never rated); False if it was not running.

    Like an event's cancellation (``events.lifecycle.abort_unfinished_games``)
    it settles the game for statistics and cached pages; unlike it, the event
    goes on, so the game's round is told that one of its games is over
    (``game_aborted``, received by the events app).
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.RUNNING:
            return False
        game.status = Game.Status.ABORTED
        game.status_reason = reason
        game.save(update_fields=["status", "status_reason"])
        games_settled.send(sender=Game, game_ids=[game.pk])
        game_aborted.send(sender=Game, game=game)  # an event's round it is in goes on
        transaction.on_commit(lambda: statecache.forget(game))
        transaction.on_commit(lambda: live_record.forget(game))
    log.error("game %s aborted: %s", game_id, reason)
    return True

"""The referee: the one door every action goes through, and the loop that drives games.

``submit`` checks and records one action (bot, person, chance or a default
after a fault) and asks for the next ``advance``; ``advance`` looks at whose
turn it is and gets that decision. Exactly-once comes from the database:
``submit`` locks the game row and accepts only the current ply, and ``Move``
is unique on (game, ply), so a duplicate or a raced worker is refused cleanly
and writes nothing. Nothing blocks a worker while a person thinks: ``advance``
returns and the person's move (or their clock) calls ``submit`` later.
"""

from __future__ import annotations

import logging
import time
from contextlib import nullcontext
from datetime import timedelta

from django.conf import settings
from django.db import connections, transaction
from django.db.models import F
from django.utils import timezone

from engines import CHANCE, Dealer, IllegalAction

from . import broadcast, players, statecache
from .decisions import Decision, default_decision
from .dispatch import schedule_advance
from .models import Game, Move, Outcome, Seat

log = logging.getLogger(__name__)


class RefereeError(Exception):
    """A refused submission; nothing was written. ``code`` is stable for APIs."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


STEP_BUDGET_S = 0.05
"""How long one ``advance`` goes on taking further steps before queueing the next one."""

MOVED = frozenset({"chance", "default", "played"})
"""Step results after which a move was logged and the game is owed another step."""

FORFEITED = "forfeited"
"""Fault kind of the defaults played for a seat that already forfeited (not counted again)."""


def faults_to_forfeit() -> int:
    """Faults (timeouts, bad replies, illegal actions) after which a seat forfeits the game."""
    return settings.BOT_MAX_FAULTS_PER_GAME


def submit(
    game_id: int,
    ply: int,
    seat: int,
    decision: Decision,
    *,
    game: Game | None = None,
    then_advance: bool = True,
) -> Move:
    """Record ``decision`` as move ``ply`` of the game, or raise RefereeError.

    Checks, in order: the game exists and is running, ``ply`` is the current
    ply, ``seat`` is to move and the action is legal. A fault counts against
    the seat; enough faults forfeit it. ``game`` saves a read when the caller
    (``advance``) has just loaded the row; its ``next_ply`` must be the ply it
    read then. ``then_advance=False`` is for ``advance`` itself, which goes on
    in the same task instead of queueing the next step.

    The checks run on the state at ``ply``, which the committed log fixes for
    good; the write then claims the ply atomically (``_claim_ply``), so a
    competitor who got there first makes it write nothing.
    """
    if (seat == CHANCE) != (decision.source == Move.Source.CHANCE):
        raise RefereeError("bad_source", "only chance moves for the chance seat")
    if game is None or game.pk != game_id:
        game = Game.objects.filter(pk=game_id).first()
    _refuse_unless_current(game, game_id, ply)
    assert game is not None
    state = statecache.load_state(game)
    try:
        state.check_action(seat, decision.action)
    except IllegalAction as exc:
        raise RefereeError("illegal_action", str(exc)) from None
    counts_fault = decision.is_fault and decision.fault_kind != FORFEITED and seat != CHANCE
    with transaction.atomic() if counts_fault else nullcontext():
        move = _claim_ply(game, ply, seat, decision)
        if move is None:
            _refuse_unless_current(Game.objects.filter(pk=game_id).first(), game_id, ply)
            raise RefereeError("stale_ply", f"ply {ply} of game {game_id} was taken")
        if counts_fault:
            _count_fault(game, seat)
    seen = len(state.events)
    state.apply(seat, decision.action)
    view, events = state.view(None), state.events[seen:]
    transaction.on_commit(lambda: statecache.remember(game, ply + 1, state))
    transaction.on_commit(lambda: broadcast.publish_move(game.pk, ply, seat, view, events))
    if then_advance:
        schedule_advance(game.pk)
    return move


def _refuse_unless_current(game: Game | None, game_id: int, ply: int) -> None:
    if game is None:
        raise RefereeError("no_game", f"there is no game {game_id}")
    if game.status != Game.Status.RUNNING:
        raise RefereeError("not_running", f"game {game_id} is {game.status}")
    if ply != game.next_ply:
        raise RefereeError(
            "stale_ply", f"ply {ply} is not current: game {game_id} is at ply {game.next_ply}"
        )


def _claim_ply(game: Game, ply: int, seat: int, decision: Decision) -> Move | None:
    """Advance the game's ``next_ply`` past ``ply`` and log the move, atomically; None if taken.

    The conditional UPDATE (still running, still at ``ply``) is the lock: a
    second writer waits for the first to commit, then matches no row. On
    PostgreSQL both writes are one statement (a data-modifying CTE), one round
    trip; elsewhere a short transaction does the same in two.
    """
    move = Move(
        game_id=game.pk,
        ply=ply,
        seat=seat,
        action=decision.action,
        source=decision.source,
        latency_ms=decision.latency_ms,
        fault_kind=decision.fault_kind,
        fault_detail=decision.fault_detail,
        request_excerpt=decision.request_excerpt,
        reply_excerpt=decision.reply_excerpt,
    )
    now = timezone.now()
    still_current = Game.objects.filter(pk=game.pk, status=Game.Status.RUNNING, next_ply=ply)
    conn = connections[Game.objects.db]
    if conn.vendor != "postgresql":
        with transaction.atomic():
            if not still_current.update(next_ply=ply + 1, last_progress_at=now):
                return None
            move.save(force_insert=True)
        return move
    fields = [f for f in Move._meta.concrete_fields if not f.primary_key]
    values = [f.get_db_prep_save(f.pre_save(move, add=True), conn) for f in fields]
    game_table = conn.ops.quote_name(Game._meta.db_table)
    sql = (
        f"WITH claimed AS (UPDATE {game_table} SET next_ply = %s, last_progress_at = %s "
        "WHERE id = %s AND next_ply = %s AND status = %s RETURNING id) "
        f"INSERT INTO {conn.ops.quote_name(Move._meta.db_table)} "
        f"({', '.join(conn.ops.quote_name(f.column) for f in fields)}) "
        f"SELECT {', '.join(['%s'] * len(fields))} FROM claimed RETURNING id"
    )
    params = [ply + 1, now, game.pk, ply, Game.Status.RUNNING, *values]
    with conn.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    move.pk = row[0]
    move._state.adding = False
    return move


def _count_fault(game: Game, position: int) -> None:
    Seat.objects.filter(game=game, position=position).update(fault_count=F("fault_count") + 1)
    Seat.objects.filter(
        game=game, position=position, fault_count__gte=faults_to_forfeit(), forfeited=False
    ).update(forfeited=True)


def advance(game_id: int) -> str:
    """Take the game as far as it goes for now; return what its first step did (logs, tests).

    Steps follow each other in this task while they are quick (chance, a
    forfeited seat's default, a bot that answers at once), for at most
    ``STEP_BUDGET_S`` after the first; then the next ``advance`` is queued, so
    games on a busy worker take turns and a slow bot holds only its own game.
    Every step is its own committed move. A step is "finished",
    "chance", "default" (forfeited seat or expired clock), "played" (a bot
    answered), "waiting" (a person or pull bot is to move), "raced" (another
    worker got there first) or "idle" (not running).
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        return "idle"
    started = time.monotonic()
    first = label = _step(game)
    while label in MOVED:
        game.next_ply += 1
        game.last_progress_at = timezone.now()
        if time.monotonic() - started > STEP_BUDGET_S:
            schedule_advance(game.pk)
            break
        label = _step(game)
    return first


def _step(game: Game) -> str:
    """Get and submit the decision owed at ``game.next_ply`` (or finish the game)."""
    state = statecache.load_state(game)
    ply = game.next_ply
    if state.is_over:
        return "finished" if finish(game.pk) else "raced"
    seat = state.to_move[0]
    if seat == CHANCE:
        decision = Decision(Dealer(game.seed).choose(state), source=Move.Source.CHANCE)
        return _try_submit(game, seat, decision, "chance")
    seat_row = Seat.objects.select_related("competitor").get(game=game, position=seat)
    legal = state.legal_actions(seat)
    if seat_row.forfeited:
        decision = default_decision(legal, FORFEITED, "the seat forfeited; default action")
        return _try_submit(game, seat, decision, "default")
    waited = timezone.now() - (game.last_progress_at or timezone.now())
    allowed_ms = game.move_time_ms + seat_row.bank_left_ms  # per-move limit plus the time bank
    if waited > timedelta(milliseconds=allowed_ms + players.GRACE_MS):
        Seat.objects.filter(pk=seat_row.pk).update(bank_left_ms=0)  # the bank is spent
        decision = default_decision(
            legal, "timeout", f"no move within {allowed_ms} ms; default action"
        )
        return _try_submit(game, seat, decision, "default")
    decision = players.ask(game, seat_row, state, ply)
    if decision is None:
        return "waiting"
    return _try_submit(game, seat, decision, "played")


def _try_submit(game: Game, seat: int, decision: Decision, label: str) -> str:
    try:
        submit(game.pk, game.next_ply, seat, decision, game=game, then_advance=False)
    except RefereeError as exc:
        if exc.code in ("stale_ply", "not_running"):
            return "raced"
        raise
    return label


def finish(game_id: int) -> bool:
    """Record the outcome and apply ratings in one transaction; False if already done."""
    from ratings.results import final_ranks
    from ratings.services import apply_game_result

    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.RUNNING:
            return False
        state = statecache.load_state(game)
        if not state.is_over:
            return False
        result = state.outcome()
        forfeited = list(game.seats.order_by("position").values_list("forfeited", flat=True))
        ranks = final_ranks(result["ranks"], forfeited)
        Outcome.objects.create(game=game, scores=result["scores"], ranks=ranks)
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at"])
        apply_game_result(game)
        players.game_finished(game)
        outcome = {"scores": result["scores"], "ranks": ranks}
        transaction.on_commit(lambda: broadcast.publish_finish(game.pk, outcome, game.seed))
        transaction.on_commit(lambda: statecache.forget(game))
    return True

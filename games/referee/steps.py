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
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from engines import CHANCE, Dealer, IllegalAction, State
from games.models import Game, Move, Outcome, Seat
from games.records import live as live_record
from games.records import stored as records
from games.referee import claims, house_bot, live_pages, statecache, turns
from games.referee.decisions import FORFEITED, Decision, default_decision
from games.referee.dispatch import others_waiting, schedule_advance
from games.referee.step_failures import step_failed
from games.selectors import spectator
from games.selectors.ranks import final_ranks
from games.signals import game_finished, games_settled

log = logging.getLogger(__name__)


class RefereeError(Exception):
    """A refused submission; nothing was written. ``code`` is stable for APIs."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


STEP_BUDGET_S = 0.25
"""How long one ``advance`` goes on taking further steps before it lets other games have a turn."""

TASK_LIMIT_S = 1.0
"""How long one ``advance`` may go on when no other game is waiting for a worker thread.

Past it the next step is queued anyway, so a task never runs for long (a slow
bot still gets one move per task) and the broker's redelivery of a lost task
stays rare."""

MOVED = frozenset({"chance", "default", "house", "played"})
"""Step results after which a move was logged and the game is owed another step."""


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
    state: State | None = None,
    then_advance: bool = True,
) -> Move:
    """Record ``decision`` as move ``ply`` of the game, or raise RefereeError.

    Checks, in order: the game exists and is running, ``ply`` is the current
    ply, ``seat`` is to move and the action is legal. A fault counts against
    the seat; enough faults forfeit it. ``game`` saves a read when the caller
    (``advance``) has just loaded the row; its ``next_ply`` must be the ply it
    read then. ``state`` saves rebuilding the position when the caller has just
    loaded the state at ``ply`` (``statecache.load_state``) and listed its legal
    actions: the check then finds them cached instead of computing them again
    (issue #17); it is never changed. ``then_advance=False`` is for ``advance``
    itself, which goes on in the same task instead of queueing the next step.

    The checks run on the state at ``ply``, which the committed log fixes for
    good; the write then claims the ply atomically (``claims.claim_plies``), so a
    competitor who got there first makes it write nothing.
    """
    if (seat == CHANCE) != (decision.source == Move.Source.CHANCE):
        raise RefereeError("bad_source", "only chance moves for the chance seat")
    if game is None or game.pk != game_id:
        game = Game.objects.filter(pk=game_id).first()
    _refuse_unless_current(game, game_id, ply)
    assert game is not None
    if state is None:
        state = statecache.load_state(game)
    moves, _ = _record(game, ply, seat, decision, state)
    if then_advance:
        schedule_advance(game.pk)
    return moves[0]


def _record(
    game: Game,
    ply: int,
    seat: int,
    decision: Decision,
    state: State,
    seat_row: Seat | None = None,
    *,
    chance_follows: bool = False,
) -> tuple[list[Move], State]:
    """Check ``decision`` against ``state`` (the state at ``ply``), claim the ply, apply it.

    Returns the moves logged and the state after them; ``state`` itself is
    never changed. ``seat_row``, if given, is the seat as it should be stored
    with the move (its event cursor and time bank, changed in memory by the
    bot call): it is written by the claim itself, so a lost claim writes
    nothing. A fault is counted in the same transaction as the claim.
    """
    played = _play(game, ply, seat, decision, state, chance_follows=chance_follows)
    counts_fault = decision.is_fault and decision.fault_kind != FORFEITED and seat != CHANCE
    fault = (seat, decision.fault_kind) if counts_fault else None
    moves = _claim(game, ply, played, seat_row, fault)
    if moves is None:
        _refuse_unless_current(Game.objects.filter(pk=game.pk).first(), game.pk, ply)
        raise RefereeError("stale_ply", f"ply {ply} of game {game.pk} was taken")
    return moves, played.after


def _claim(
    game: Game,
    ply: int,
    played: _Played,
    seat_row: Seat | None,
    fault: tuple[int, str] | None = None,
) -> list[Move] | None:
    """Claim ``played``'s moves now; None (nothing written) if the ply was taken.

    A ``fault`` (seat, kind) is counted in the claim's transaction. Moves that
    end the game are claimed in one transaction with :func:`finish`: the end
    is never stored, nor shown, while the game still says it runs, and a
    finish that fails leaves the last move unclaimed, to be played again.
    """
    ends = played.after.is_over
    with transaction.atomic() if fault is not None or ends else nullcontext():
        moves = claims.claim_plies(game, ply, played.decisions, seat_row)
        if moves is None:
            return None
        if fault is not None:
            _count_fault(game, fault[0])
            turns.fault_counted(game, fault[0], fault[1])
        transaction.on_commit(lambda: played.committed(game))  # before the finish's messages
        if ends and finish(game.pk, state=played.after):
            game.status = Game.Status.FINISHED
            played.end_shown = spectator.is_public(game)
    return moves


class _Played:
    """A checked decision applied to a copy of the state, with the chance moves right after it.

    With ``chance_follows`` the chance moves that come right after the
    decision (dice, draws: the seed fixes them) are applied too, and claimed
    in the same statement, each its own move and its own message; no one
    decides between them, so a separate commit for each would only cost a
    round trip.
    """

    def __init__(self, ply: int, after: State) -> None:
        self.ply = ply
        self.after = after
        self.decisions: list[tuple[int, Decision]] = []
        self.messages: list[dict] = []
        self.end_shown = True
        """False once these moves ended a game whose record is not public (``spectator.shown``)."""

    def committed(self, game: Game) -> None:
        """Once the claim is committed: keep the state for the next rebuild, tell live pages.

        The state is kept as it is: no step changes a state in place (``_play``
        applies to a copy), and the cache hands out copies. The message of a
        last move that may not be shown yet (its view and events hold the end)
        is not sent: the finish's message tells the pages.
        """
        statecache.remember(game, self.ply + len(self.decisions), self.after, copy=False)
        messages = self.messages if self.end_shown else self.messages[:-1]
        live_pages.pages().publish_many(game.pk, messages)


def _play(
    game: Game, ply: int, seat: int, decision: Decision, state: State, *, chance_follows: bool
) -> _Played:
    try:
        state.check_action(seat, decision.action)
    except IllegalAction as exc:
        raise RefereeError("illegal_action", str(exc)) from None
    played = _Played(ply, state.clone())
    after = played.after
    watched = live_pages.pages().maybe_watched(game.pk)  # else no message is built (nor its view)
    mover = seat
    checked = True  # the decision was checked on ``state``, which ``after`` is a copy of
    while True:
        seen = len(after.events)
        if checked:
            after.apply_checked(mover, decision.action)  # the copy's cache is empty: no recompute
            checked = False
        else:
            after.apply(mover, decision.action)  # chance: listed (and cached) on ``after``
        played.decisions.append((mover, decision))
        if watched:
            played.messages.append(
                live_pages.pages().move_message(
                    game.pk, ply + len(played.decisions) - 1, mover, after.view(None),
                    after.events[seen:],
                    spectator.default_mark(decision.source, decision.fault_kind),
                )
            )  # fmt: skip
        if not (chance_follows and after.to_move and after.to_move[0] == CHANCE):
            return played
        if len(played.decisions) >= MAX_CHANCE_RUN:
            return played
        mover = CHANCE
        decision = Decision(Dealer(game.seed).choose(after), source=Move.Source.CHANCE)


MAX_CHANCE_RUN = 64
"""At most this many chance moves are claimed together with the move before them."""


def _refuse_unless_current(game: Game | None, game_id: int, ply: int) -> None:
    if game is None:
        raise RefereeError("no_game", f"there is no game {game_id}")
    if game.status != Game.Status.RUNNING:
        raise RefereeError("not_running", f"game {game_id} is {game.status}")
    if ply != game.next_ply:
        raise RefereeError(
            "stale_ply", f"ply {ply} is not current: game {game_id} is at ply {game.next_ply}"
        )


def _count_fault(game: Game, position: int) -> None:
    """Count a fault; at the limit the seat forfeits, and a person's is also substituted.

    A person's seat is then played by the house bot (``house_bot``) rather than
    by the engine's defaults, so the other players are not left with a table
    that plays badly for the rest of the game; a bot keeps the old rule
    (forfeited, defaults): its owner is the one who has to fix it.
    """
    Seat.objects.filter(game=game, position=position).update(fault_count=F("fault_count") + 1)
    house_bot.forfeit_seats(
        Seat.objects.filter(
            game=game, position=position, fault_count__gte=faults_to_forfeit(), forfeited=False
        )
    )


def advance(game_id: int) -> str:
    """Take the game as far as it goes for now; return what its first step did (logs, tests).

    Steps follow each other in this task while they are quick (chance, a
    forfeited seat's default, a substituted seat's house bot, a bot that
    answers at once), for at most ``STEP_BUDGET_S`` after the first; then the
    next ``advance`` is queued if other games are waiting for a thread, so
    games on a busy worker take turns and a slow bot holds only its own game. When nobody waits, the
    task goes on (a queue round trip costs more than a move), up to
    ``TASK_LIMIT_S`` in all.
    Every step is its own committed move. A step is "finished",
    "chance", "default" (forfeited seat or expired clock), "house" (the house
    bot played a substituted seat), "played" (a bot
    answered), "waiting" (a person or pull bot is to move), "raced" (another
    worker got there first) or "idle" (not running).

    The game row, its seats (with their bots) and the state are read once per
    task and kept up to date in memory by the steps, which write them only
    through their claims: a step whose claim fails ("raced") ends the task, and
    the next task reads everything afresh. A bot's move is claimed while the
    next bot is asked (see ``_Table.claim_later``).

    A step that raises ends the task without raising: the failure is counted
    on the game per ply (``step_failures``) and the result is "failed" (the
    stalled-game recovery tries again), or, at the limit, "default" (the
    seat whose answer was being handled got its fault) or "aborted".
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        return "idle"
    table: _Table | None = None
    try:
        table = _Table(game, statecache.load_state(game))
        return _advance(table)
    except Exception as exc:
        seat = table.answering if table is not None else None
        return step_failed(game_id, game.next_ply, seat, exc)


def _advance(table: _Table) -> str:
    """The steps of one ``advance`` task (see there); the first step's label."""
    game = table.game
    started = time.monotonic()
    looked = started  # the queue is looked at once per STEP_BUDGET_S at most
    try:
        first = label = _step(table)
        while label in MOVED:
            game.last_progress_at = timezone.now()
            now = time.monotonic()
            if now - started > STEP_BUDGET_S and now - looked > STEP_BUDGET_S:
                looked = now
                if now - started > TASK_LIMIT_S or others_waiting():
                    if table.settled():
                        schedule_advance(game.pk)
                    break
            label = _step(table)
    finally:
        table.settled()  # never leave a claim unread on the connection
    return first


class _ClaimLost(Exception):
    """The claim sent for the previous move found its ply taken (another worker moved)."""


class _Table:
    """What one ``advance`` task knows of its game: the row, the state, the seats.

    The row and the state are those after the last move this task claimed,
    which may still be on its way to the database (``pending``): a push bot
    is asked for the next move meanwhile, since its question depends only on
    that state. Anything else that depends on the claim (another claim, a
    notice to a person, a clock, the result, another read) first waits for
    it (``settle``). If it was lost, the bot's answer is dropped, nothing
    else is written, and the task ends ("raced").
    """

    def __init__(self, game: Game, state: State) -> None:
        self.game = game
        self.state = state
        self._seats: dict[int, Seat] | None = None
        self._pending: tuple[claims.PendingClaim, _Played] | None = None
        self.answering: int | None = None
        """The seat whose push bot's answer is being fetched and checked (a failure is its)."""

    def seat(self, position: int) -> Seat:
        """The seat with its competitor and bot (all seats in one query, once per task)."""
        if self._seats is None:
            self.settle()
            rows = Seat.objects.filter(game=self.game).select_related("competitor__bot")
            self._seats = {row.position: row for row in rows}
        return self._seats[position]

    def forget_seats(self) -> None:
        """Read the seats again at the next step (after a fault changed them in the database)."""
        self._seats = None

    def claim_later(self, seat: int, decision: Decision, seat_row: Seat) -> int:
        """Send the claim of a bot's good move (and the chance after it); the plies it takes."""
        self.settle()
        game = self.game
        played = _play(game, game.next_ply, seat, decision, self.state, chance_follows=True)
        if played.after.is_over:  # the last move: claimed now, with the finish (``_claim``)
            if _claim(game, game.next_ply, played, seat_row) is None:
                raise _ClaimLost
        else:
            pending = claims.send_claim(game, game.next_ply, played.decisions, seat_row)
            self._pending = (pending, played)
        self.state = played.after
        game.next_ply += len(played.decisions)
        return len(played.decisions)

    def settle(self) -> None:
        """Wait for the claim on its way, if any; raise _ClaimLost if its ply was taken."""
        if self._pending is None:
            return
        (pending, played), self._pending = self._pending, None
        if pending.result() is None:
            raise _ClaimLost
        played.committed(self.game)

    def settled(self) -> bool:
        """``settle``, saying whether everything this task claimed is in the log."""
        try:
            self.settle()
        except _ClaimLost:
            log.info("game %s: a claim of this task was lost to another worker", self.game.pk)
            return False
        return True


def _step(table: _Table) -> str:
    """Get and submit the decision owed at ``game.next_ply`` (or finish the game)."""
    try:
        return _next_step(table)
    except _ClaimLost:
        return "raced"


def _next_step(table: _Table) -> str:
    """One step of ``advance``.

    Only a person's or pull bot's clock can run out here. A push bot is always
    asked, with a fresh deadline, however long the game has waited: if this is
    a recovered or redelivered step, the wait was the referee's (a worker
    lost, a task or claim that failed), and only the bot's own call can fault
    it (late, bad or illegal answer, measured by the bot client).
    """
    game, state = table.game, table.state
    if state.is_over:
        table.settle()
        if game.status == Game.Status.FINISHED:  # by the claim of its last move
            return "finished"
        return "finished" if finish(game.pk) else "raced"
    seat = state.to_move[0]
    if seat == CHANCE:
        decision = Decision(Dealer(game.seed).choose(state), source=Move.Source.CHANCE)
        return _try_submit(table, seat, decision, "chance")
    seat_row = table.seat(seat)
    if seat_row.substituted:  # a person's seat the house bot plays (never their clock)
        decision = house_bot.decide(game.engine, game.pk, seat, state, game.next_ply)
        return _try_submit(table, seat, decision, "house")
    if seat_row.forfeited:
        decision = default_decision(state, seat, FORFEITED, "the seat forfeited; default action")
        return _try_submit(table, seat, decision, "default")
    if not turns.answers_at_once(seat_row):
        allowed_ms = _clock_ran_out(game, seat_row)
        if allowed_ms is not None:
            seat_row.bank_left_ms = 0  # the bank is spent (stored with the move)
            decision = default_decision(
                state, seat, "timeout", f"no move within {allowed_ms} ms; default action"
            )
            return _try_submit(table, seat, decision, "default", seat_row)
        table.settle()  # a person or pull bot is told it is their turn: only once it is
    else:
        table.answering = seat
    decision = turns.ask(game, seat_row, state, game.next_ply)
    table.answering = None
    if decision is None:
        return "waiting"
    if not decision.is_fault:
        table.claim_later(seat, decision, seat_row)
        return "played"
    return _try_submit(table, seat, decision, "played", seat_row)


def _clock_ran_out(game: Game, seat_row: Seat) -> int | None:
    """The time a person or pull bot had (ms) if their clock for this ply ran out, else None.

    Their turn begins when the move before it is committed
    (``Game.last_progress_at``): from then on the game API and the pull API,
    served by the web processes and not by the referee's workers, show the
    turn and take the move, so a worker that crashed meanwhile cost them
    nothing, and the clock is theirs. A push bot has no such clock: it is
    judged only on the call the referee makes (the bot client's deadline),
    so time the referee lost before asking it (a dead worker, a redelivered
    task, a database error) is never counted against it; see ``_next_step``.
    """
    waited = timezone.now() - (game.last_progress_at or timezone.now())
    allowed_ms = game.move_time_ms + seat_row.bank_left_ms  # per-move limit plus the time bank
    return allowed_ms if waited > timedelta(milliseconds=allowed_ms + turns.GRACE_MS) else None


def _try_submit(
    table: _Table, seat: int, decision: Decision, label: str, seat_row: Seat | None = None
) -> str:
    """Record a decision now (chance, defaults, faults), after any claim still on its way."""
    table.settle()
    game = table.game
    try:
        moves, table.state = _record(
            game, game.next_ply, seat, decision, table.state, seat_row, chance_follows=True
        )
    except RefereeError as exc:
        if exc.code in ("stale_ply", "not_running"):
            return "raced"
        raise
    game.next_ply += len(moves)
    if decision.is_fault:
        table.forget_seats()
    return label


def finish(game_id: int, state: State | None = None) -> bool:
    """Record the outcome and apply ratings in one transaction; False if already done.

    ``state``, if given, is the state after every logged move (the claim of
    the last move, in this transaction, passes it: ``_claim``).

    Live pages are told once it is committed; the outcome and seed only if
    the record is public (``spectator.shown``), and if this game closed its
    duplicate set, the set's other games' pages are told they may now show
    their end.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.RUNNING:
            return False
        if state is None:
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
        # Ratings, the event's round, the arena (their receivers), in this transaction.
        game_finished.send(sender=Game, game=game)
        # Competitor statistics (stats) and the fragment versions of the game, its set,
        # its engine and its competitors (web.cache.invalidation), after the commit.
        games_settled.send(sender=Game, game_ids=[game.pk])
        turns.game_finished(game)
        _tell_finished(game, {"scores": result["scores"], "ranks": ranks})
        transaction.on_commit(lambda: statecache.forget(game))
        transaction.on_commit(lambda: live_record.forget(game))
        # After the commit, so a failure to store can never undo the finish (it never raises).
        transaction.on_commit(lambda: records.store_after_finish(game.pk))
    return True


def _tell_finished(game: Game, outcome: dict) -> None:
    """Once committed, the finish message: its outcome and seed only if the record is public.

    The game that closes a duplicate set makes the set's other finished games
    public too: their pages are told, so they show their end now.
    """
    if not spectator.is_public(game):
        transaction.on_commit(lambda: live_pages.pages().publish_finish(game.pk, None, None))
        return
    shown = [(game.pk, outcome, game.seed)]
    if game.table_id is not None:
        others = Game.objects.filter(table_id=game.table_id, status=Game.Status.FINISHED)
        for pk, seed, scores, ranks in others.exclude(pk=game.pk).values_list(
            "pk", "seed", "outcome__scores", "outcome__ranks"
        ):
            shown.append((pk, {"scores": scores, "ranks": ranks}, seed))

    def tell() -> None:
        for pk, result, seed in shown:
            live_pages.pages().publish_finish(pk, result, seed)

    transaction.on_commit(tell)

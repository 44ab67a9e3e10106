"""Pairing rounds and creating their games, exactly once.

How the next round comes, and why exactly once:

1. The referee's ``finish`` records a game's outcome and ratings in one
   transaction and, still inside it, calls :func:`on_game_finished`. That
   locks the game's Round row, so the finishes of one round's games pass
   this point one at a time; the one that finds no unfinished game left
   marks the round finished (a conditional ``UPDATE … WHERE status =
   'running'``) and, once its transaction commits, queues the task
   ``tournaments.pair_next_round(tournament, number + 1)``. Two workers
   finishing the last two games at the same moment: the first to lock the
   round still sees the other game running (not yet committed), the second
   sees both finished; exactly one queues the task.
2. The task (:func:`pair_next`) locks the Tournament row and does nothing
   unless the event is running, round ``number - 1`` is finished and round
   ``number`` does not exist; otherwise it asks the format for the tables
   and creates the Round, its Tables and all their games (``create_game``)
   in one transaction. A second run of the task, queued twice or redelivered
   after a crash, finds the round and does nothing; the unique constraint
   on (tournament, number) is the last guard. When the format says the
   event is over, the event is finished instead (its seed revealed).
3. Nothing is lost if a worker dies anywhere: before the finish commits,
   the game is still running and the stalled-game recovery finishes it
   again; after it, the round is finished and the beat task
   ``tournaments.schedule_due_rounds`` (every 15 s, :func:`due_rounds`) queues the
   pairing of every running event whose last round is finished and whose
   next round is missing. It also finishes a round whose games have all
   finished but which is still marked running, should one ever be left so.

Before a round after the first, an active entrant who cannot play (a bot
suspended or at its game limit) holds the pairing for the event's grace
period, then is left out of the round with no points (``absences``; the
task answers "waiting" meanwhile).

A pairing that fails (the format refuses, a bot is at its game limit) is
rolled back on its own: the finished game's result was committed before,
and stays. The event keeps running with ``status_reason`` saying why
(shown by ``problems``), and beat tries again every 15 s.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

import engines
from games.models import Game
from games.services import GameSetupError, create_game
from tournaments import formats
from tournaments.events import absences
from tournaments.events.history import active_entrants, history_of, settings_of
from tournaments.events.seeds import game_seed
from tournaments.formats import duplicate
from tournaments.models import Entrant, Round, Table, Tournament
from tournaments.signals import send_event_changed

log = logging.getLogger(__name__)

BEAT_INTERVAL_S = 15.0
"""How often beat looks for rounds due (``CELERY_BEAT_SCHEDULE``); also said to organisers."""

UNFINISHED = (Game.Status.SCHEDULED, Game.Status.RUNNING)


class PairingError(Exception):
    """A round that could not be paired or created now; the message is for the organiser."""


def format_of(tournament: Tournament) -> formats.Format:
    return formats.get(tournament.format)


def deals_of(tournament: Tournament, seats: Sequence[int]) -> list[tuple[int, ...]]:
    """The seat orders a table plays: one game, or every rotation of a duplicate set."""
    if not tournament.duplicate:
        return [tuple(seats)]
    return [tuple(order) for order in duplicate.rotations(tuple(seats))]


# --------------------------------------------------------------- pairing
def pair_round(
    event: Tournament, number: int, absent: Sequence[dict] = (), *, repairs: int = 0
) -> Round | None:
    """Pair round ``number`` of the locked, running ``event`` and create its games.

    Runs inside the caller's transaction (``start`` for round 1, the task
    after). ``absent`` (``absences.absent_rows``) names active entrants left
    out of this round: no table, no bye, no points. Returns the round, or
    None when the format says the event is over (the event is then
    finished). Raises PairingError, having written nothing the caller's
    rollback does not undo. An event that reviews each round stops here
    with the round *proposed*: tables, no games; the organiser's
    ``events.review.release`` creates them (``repairs`` counts the
    organiser's re-pairings, each drawn from its own seed).
    """
    left_out = absences.absent_keys(list(absent))
    entrants = [entrant for entrant in active_entrants(event) if entrant.key not in left_out]
    try:
        planned = format_of(event).next_round(
            entrants, history_of(event), settings_of(event), number, pairing_seed(event, repairs)
        )
    except formats.FormatError as exc:
        raise PairingError(str(exc)) from None
    if planned is None:
        finish_event(event)
        return None
    _check_plan(planned, {e.key for e in entrants}, number)
    proposed = event.review_rounds
    round_row = Round.objects.create(
        tournament=event,
        number=number,
        byes=list(planned.byes),
        status=Round.Status.PROPOSED if proposed else Round.Status.RUNNING,
        repairs=repairs,
        absent=list(absent),
    )
    event.current_round = number
    event.save(update_fields=["current_round"])
    competitors = {
        row.pk: row.competitor
        for row in Entrant.objects.filter(tournament=event).select_related("competitor")
    }
    for table_number, planned_table in enumerate(planned.tables, start=1):
        table = Table.objects.create(
            round=round_row, number=table_number, seats=list(planned_table.seats)
        )
        if not proposed:
            create_table_games(event, table, competitors)
    if not planned.tables and not proposed:
        end_empty_round(event, round_row)
    return round_row


def pairing_seed(event: Tournament, repairs: int) -> str:
    """The seed the format draws from: the event seed, or one per re-pairing of the round."""
    return event.seed if not repairs else f"{event.seed}:repair:{repairs}"


def end_empty_round(event: Tournament, round_row: Round) -> None:
    """Everyone sat out: nothing to wait for, the next round is due."""
    Round.objects.filter(pk=round_row.pk).update(
        status=Round.Status.FINISHED, finished_at=timezone.now()
    )
    send_event_changed(event.pk)
    enqueue_pairing_after_commit(event.pk, round_row.number + 1)


def _check_plan(planned: formats.Round, keys: set[int], number: int) -> None:
    """Refuse tables a format should never make (unknown or repeated entrants)."""
    seated = [key for table in planned.tables for key in table.seats] + list(planned.byes)
    if planned.number != number or set(seated) - keys or len(seated) != len(set(seated)):
        raise PairingError(
            f"the format made an impossible round {number} (unknown or repeated entrants); "
            "this is a bug: report it"
        )


def create_table_games(event: Tournament, table: Table, competitors: dict[int, object]) -> None:
    """The game(s) of one table, all dealt from the same derived seed."""
    seed = game_seed(event.seed, table.round.number, table.number)
    created = []
    for order in deals_of(event, table.seats):
        try:
            game = create_game(
                event.engine,
                [competitors[key] for key in order],
                options=event.options,
                seed=seed,
                rated=event.rated,
                league=event.league,
                tournament=event,
                round_number=table.round.number,
                move_time_ms=event.move_time_ms,
                time_bank_ms=event.time_bank_ms,
                purpose=Game.Purpose.EVENT,
                allow_same_owner_rated=True,
            )
        except (GameSetupError, ValueError) as exc:  # BotAtCapacity is a ValueError
            raise PairingError(f"table {table.number}: {exc}") from None
        created.append(game.pk)
    fields: dict[str, object] = {"table": table}
    if not event.rated:  # the seed was given by the event, not chosen to make it unrated
        fields["unrated_reason"] = Game.UnratedReason.CREATOR
    Game.objects.filter(pk__in=created).update(**fields)


def finish_event(event: Tournament) -> None:
    """The format has no more rounds: the event is finished and its seed may be shown."""
    event.status = Tournament.Status.FINISHED
    event.finished_at = timezone.now()
    event.status_reason = ""
    event.save(update_fields=["status", "finished_at", "status_reason"])


def pair_next(tournament_id: int, number: int) -> str:
    """The task's body: pair round ``number`` if it is due; what happened, in one word.

    "paired", "finished" (the event), "exists", "not due", "not running",
    "gone", "waiting" (for an entrant who cannot play, within the grace), or
    "failed" (recorded on the event for the organiser; beat retries).
    """
    try:
        with transaction.atomic():
            event = Tournament.objects.select_for_update(no_key=True).filter(pk=tournament_id)
            event = event.first()
            if event is None:
                return "gone"
            if event.status != Tournament.Status.RUNNING:
                return "not running"
            if Round.objects.filter(tournament=event, number=number).exists():
                return "exists"
            if (
                number > 1
                and not Round.objects.filter(
                    tournament=event, number=number - 1, status=Round.Status.FINISHED
                ).exists()
            ):
                return "not due"
            absent = _absent_or_wait(event, number)
            if absent is None:
                return "waiting"
            made = pair_round(event, number, absent)
            if event.status == Tournament.Status.RUNNING and event.status_reason:
                event.status_reason = ""
                event.save(update_fields=["status_reason"])
            if event.pairing_held_since is not None:
                event.pairing_held_since = None
                event.save(update_fields=["pairing_held_since"])
            return "paired" if made is not None else "finished"
    except IntegrityError:  # another worker made the round between our check and insert
        return "exists"
    except PairingError as exc:
        _record_failure(tournament_id, number, str(exc))
        return "failed"
    except Exception as exc:  # a bug must not stop the event silently, nor the referee
        log.exception("pairing round %s of tournament %s failed", number, tournament_id)
        _record_failure(tournament_id, number, f"an internal error ({type(exc).__name__}: {exc})")
        return "failed"


def _absent_or_wait(event: Tournament, number: int) -> list[dict] | None:
    """Who is left out of round ``number`` ([]: nobody), or None: wait for them (``absences``).

    The first time someone cannot play, the wait starts (saved on the locked
    event) and a pairing is queued for when it ends; beat also looks every
    15 s, so a fix within the grace is seen.
    """
    found = absences.unable(event)
    if not found:
        return []
    now = timezone.now()
    if event.pairing_held_since is None:
        event.pairing_held_since = now
        event.save(update_fields=["pairing_held_since"])
        wait = float(event.absence_grace_s)
        event_id = event.pk
        transaction.on_commit(
            lambda: enqueue_pairing(event_id, number, countdown=wait), robust=True
        )
    ends = absences.grace_ends(event)
    if ends is not None and now < ends:
        return None
    return absences.absent_rows(found)


def failure_reason(number: int, why: str) -> str:
    return (
        f"Round {number} could not be paired: {why}. The event stays running and the "
        f"scheduler tries again every {BEAT_INTERVAL_S:.0f} s; fix the cause (or withdraw "
        "the entrant concerned), or cancel the event."
    )


def _record_failure(tournament_id: int, number: int, why: str) -> None:
    Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.RUNNING).update(
        status_reason=failure_reason(number, why.rstrip("."))
    )
    send_event_changed(tournament_id)


def enqueue_pairing(tournament_id: int, number: int, countdown: float | None = None) -> None:
    """Queue the pairing task (after ``countdown`` seconds, when given)."""
    # tournaments.tasks imports this module: at the top the import would be circular.
    from tournaments.tasks import pair_next_round

    pair_next_round.apply_async((tournament_id, number), countdown=countdown)


def enqueue_pairing_after_commit(tournament_id: int, number: int) -> None:
    """Queue the pairing once the surrounding transaction commits.

    ``robust``: a broker that is down must not turn a committed game result
    into an error; beat queues the pairing again.
    """
    transaction.on_commit(lambda: enqueue_pairing(tournament_id, number), robust=True)


# ------------------------------------------------------------ the hook
def on_game_finished(game: Game) -> bool:
    """Called by the referee's ``finish`` inside its transaction; True if the round ended.

    Cheap for games outside events (no query). See the module docstring for
    why the round ends, and the next round is queued, exactly once. Also
    called when the referee aborts a game (``step_failures.abort``): an
    aborted game is over for its round, and its table has no result.
    """
    if game.table_id is None:
        return False
    round_id = Table.objects.filter(pk=game.table_id).values_list("round_id", flat=True).first()
    if round_id is None:
        return False
    round_row = Round.objects.select_for_update(no_key=True).filter(pk=round_id).first()
    if round_row is None or round_row.status != Round.Status.RUNNING:
        return False
    if Game.objects.filter(table__round_id=round_id, status__in=UNFINISHED).exists():
        return False
    ended = Round.objects.filter(pk=round_id, status=Round.Status.RUNNING).update(
        status=Round.Status.FINISHED, finished_at=timezone.now()
    )
    if ended:
        send_event_changed(round_row.tournament_id)
        enqueue_pairing_after_commit(round_row.tournament_id, round_row.number + 1)
    return bool(ended)


# ------------------------------------------------------------------ beat
def due_rounds() -> list[tuple[int, int]]:
    """(tournament id, round number) of every pairing due now; heals unmarked rounds first.

    A round of a running or paused event whose games have all finished but
    which is still marked running (not expected: the referee's hook marks it
    in the last finish's transaction) is marked finished here.
    """
    live = (Tournament.Status.RUNNING, Tournament.Status.PAUSED)
    stale = (
        Round.objects.filter(status=Round.Status.RUNNING, tournament__status__in=live)
        .filter(tables__games__isnull=False)
        .exclude(tables__games__status__in=UNFINISHED)
        .values_list("pk", flat=True)
        .distinct()
    )
    for round_id in list(stale):
        Round.objects.filter(pk=round_id, status=Round.Status.RUNNING).update(
            status=Round.Status.FINISHED, finished_at=timezone.now()
        )
        send_event_changed(Round.objects.get(pk=round_id).tournament_id)
    due = Round.objects.filter(
        tournament__status=Tournament.Status.RUNNING,
        status=Round.Status.FINISHED,
        number=F("tournament__current_round"),
    ).values_list("tournament_id", "number")
    return [(tournament_id, number + 1) for tournament_id, number in due]


def engine_range(slug: str) -> tuple[int, int]:
    rules = engines.get(slug)
    return rules.min_players, rules.max_players

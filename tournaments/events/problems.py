"""What holds an event up, in sentences an organiser understands.

:func:`problems` looks at a running or paused event and lists:

* a pairing that failed (the reason the scheduler recorded; it retries);
* a round that finished without its next round being paired for a while
  (is beat running?);
* a game with no move for much longer than its clock allows (move time +
  time bank + grace + ``STUCK_AFTER``; the stalled-game recovery would have
  moved it long before), naming the seat to move and what is known about why;
* an aborted game (its table has no result; the referee's reason, if any);
* an entrant that can no longer play (a bot suspended, disabled, or no
  longer playing the engine): its games get default moves, and the next
  round waits for it, then leaves it out (``absences``);
* the next round waiting for such entrants: who, why, and when the wait ends;
* no worker running (``heartbeat``: the key beat's task writes is stale),
  first, since nothing else moves without one.

A finished, cancelled or not yet started event has none. Reading only: it
changes nothing, and may be called from any page or admin view.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from engines import CHANCE
from games.models import Game, Seat
from games.referee import statecache
from games.referee.turns import GRACE_MS
from tournaments.events import absences, heartbeat
from tournaments.events.eligibility import bot_of, why_cannot_play
from tournaments.events.rounds import BEAT_INTERVAL_S
from tournaments.models import Entrant, Round, Tournament

STUCK_AFTER = timedelta(minutes=2)
"""Beyond its clock, how long a game may make no move before it counts as stuck."""

LATE_PAIRING = timedelta(minutes=1)
"""How long a finished round may wait for its successor before that is a problem."""


def problems(tournament: Tournament) -> list[str]:
    """Everything that holds the event up, each as one sentence (empty: nothing does)."""
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        return []
    found: list[str] = []
    now = timezone.now()
    if tournament.status == Tournament.Status.RUNNING and tournament.status_reason:
        found.append(tournament.status_reason)
    elif tournament.status == Tournament.Status.RUNNING and tournament.pairing_held_since is None:
        found += _late_pairing(tournament, now)  # a held round is said by _held, not late
    games = list(
        Game.objects.filter(
            tournament=tournament, status__in=(Game.Status.RUNNING, Game.Status.ABORTED)
        )
        .select_related("table__round")
        .order_by("pk")
    )
    for game in games:
        if game.status == Game.Status.ABORTED:
            why = f" ({game.status_reason})" if game.status_reason else ""
            found.append(
                f"{_where(game)} was aborted{why}, so its table in round {_round_of(game)} "
                "has no result; the round goes on without it. Ask an operator to look at it."
            )
        elif _stuck(game, now):
            found.append(_stuck_sentence(game, now))
    found += _held(tournament)
    found += _unable_entrants(tournament)
    worker = heartbeat.problem()
    if worker:
        found.insert(0, worker)
    return found


def _held(tournament: Tournament) -> list[str]:
    """The next round waits for entrants who cannot play (``absences``): who, why, until when."""
    ends = absences.grace_ends(tournament)
    if ends is None or tournament.status != Tournament.Status.RUNNING:
        return []
    number = tournament.current_round + 1
    return [
        f"Round {number} waits for {one.name}: {one.reason}. Unless that is fixed by "
        f"{ends:%H:%M:%S} UTC ({tournament.absence_grace_s} s after the wait began), round "
        f"{number} is paired without {one.name}, who scores 0 for it (an absence, not a bye)."
        for one in absences.unable(tournament)
    ]


def _late_pairing(tournament: Tournament, now) -> list[str]:
    current = Round.objects.filter(tournament=tournament, number=tournament.current_round).first()
    if current is None or current.status != Round.Status.FINISHED or current.finished_at is None:
        return []
    if now - current.finished_at < LATE_PAIRING:
        return []
    return [
        f"Round {current.number} finished at {current.finished_at:%H:%M:%S} UTC but round "
        f"{current.number + 1} has not been paired yet. The scheduler (Celery beat) tries every "
        f"{BEAT_INTERVAL_S:.0f} s: check that beat and a worker are running."
    ]


def _where(game: Game) -> str:
    if game.table is None:
        return f"Game {game.pk}"
    return f"Game {game.pk} (round {game.table.round.number}, table {game.table.number})"


def _round_of(game: Game) -> int | str:
    return game.table.round.number if game.table is not None else game.round_number or "?"


def _limit(game: Game) -> timedelta:
    return timedelta(milliseconds=game.move_time_ms + game.time_bank_ms + GRACE_MS)


def _stuck(game: Game, now) -> bool:
    last = game.last_progress_at or game.started_at or game.created_at
    return now - last > _limit(game) + STUCK_AFTER


def _stuck_sentence(game: Game, now) -> str:
    last = game.last_progress_at or game.started_at or game.created_at
    minutes = int((now - last).total_seconds() // 60)
    clock = f"{game.move_time_ms / 1000:g} s per move"
    if game.time_bank_ms:
        clock += f" and a {game.time_bank_ms / 1000:g} s time bank"
    head = (
        f"{_where(game)} has made no move for {minutes} min, far longer than its clock "
        f"allows ({clock})"
    )
    try:
        state = statecache.load_state(game)
    except Exception as exc:  # a log that no longer replays is a problem of its own
        return f"{head}; its move log does not replay ({exc}): ask an operator."
    if state.is_over:
        return f"{head}: the game is over but its result is not recorded yet; the referee retries."
    if not state.to_move:
        return f"{head}."
    position = state.to_move[0]
    if position == CHANCE:
        return f"{head}; chance is to move, dealt by the referee itself: its workers may be down."
    seat = (
        Seat.objects.filter(game=game, position=position).select_related("competitor__user").first()
    )
    if seat is None:
        return f"{head}; seat {position} is to move."
    return f"{head}; seat {position} ({seat.competitor.name}) is to move: {_why(seat)}."


def _why(seat: Seat) -> str:
    bot = bot_of(seat.competitor)
    if seat.competitor.kind != "bot":
        return "a person, whose clock should have run out: the referee's workers may be down"
    if bot is None:
        return "its bot is gone"
    if not bot.is_active:
        return f"the bot is {bot.status}" + (f" ({bot.status_reason})" if bot.status_reason else "")
    if bot.mode == bot.Mode.PULL:
        return "a pull bot, whose clock should have run out: the referee's workers may be down"
    if bot.last_ping_ok is False:
        return f"its last ping failed ({bot.last_ping_detail or 'no detail'})"
    return "the bot looks healthy: the referee's workers may be down or overloaded"


def _unable_entrants(tournament: Tournament) -> list[str]:
    rows = tournament.entrants.filter(status=Entrant.Status.ACTIVE).select_related("competitor")
    sentences = []
    for row in rows:
        why = why_cannot_play(tournament, row.competitor)
        if why:
            sentences.append(
                f"{row.competitor.name} can no longer play: {why}. Its games under way get "
                "default moves; unless that is fixed, the next round waits "
                f"{tournament.absence_grace_s} s for it, then is paired without it (0 points "
                "for the round). Fix it, or withdraw it."
            )
    return sentences

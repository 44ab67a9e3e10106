"""Asking the seat to move for its decision: a bot over HTTP, or a person.

A push bot is called at once (outside any transaction) and its answer, or the
default its fault earns, comes back as a Decision. A person, or a bot that
pulls its turns, is only told; their move arrives later through ``submit``,
and a clock task plays the default if it does not arrive in time.
"""

from __future__ import annotations

from engines import State
from games.models import Competitor, Game, Seat

from . import broadcast
from .decisions import Decision
from .dispatch import schedule_clock_check

GRACE_MS = 2000
"""Added to a move's time limit before a clock gives up on a person or pull bot."""


def ask(game: Game, seat: Seat, state: State, ply: int) -> Decision | None:
    """The seat's decision now, or None when it will arrive later."""
    if seat.competitor.kind == Competitor.Kind.BOT:
        from botapi.referee import ask_bot

        decision = ask_bot(game, seat, state, ply)
        if decision is not None:
            return decision
    broadcast.publish(
        game.pk, {"type": "game.turn", "game": game.pk, "ply": ply, "seat": seat.position}
    )
    schedule_clock(game, ply)
    return None


def answers_at_once(seat: Seat) -> bool:
    """Whether ``ask`` decides now (a push bot, or a bot that cannot play and gets its default).

    A person or a pull bot is only told it is their turn (and a clock started),
    which the referee does only once the move before is committed.
    """
    if seat.competitor.kind != Competitor.Kind.BOT:
        return False
    from botapi.referee import waits_for_pull

    return not waits_for_pull(seat)


def game_started(game: Game) -> None:
    """Tell the bots' side that a game began (push bots get a ``start`` message)."""
    from botapi.referee import game_started as bots_game_started

    bots_game_started(game)


def game_finished(game: Game) -> None:
    """Tell the bots' side that a game ended (bot health counts faulty games)."""
    from botapi.referee import game_finished as bots_game_finished

    bots_game_finished(game)


def fault_counted(game: Game, position: int, fault_kind: str) -> None:
    """Inside a counted fault's transaction: the bots' side tells the owner, once committed.

    Costs the referee one callback registered on the commit; a person's seat is
    recognised (and dropped) later, by the alert's task.
    """
    from botapi.alerts import fault_recorded

    fault_recorded(game.pk, position, fault_kind)


def schedule_clock(game: Game, ply: int) -> None:
    """Re-advance the game once the move's time is up (a default then, if still owed)."""
    schedule_clock_check(game.pk, ply, (game.move_time_ms + GRACE_MS) / 1000)

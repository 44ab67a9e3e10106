"""Asking the seat to move for its decision, through the seat players of ``games.players``.

A push bot is called at once (outside any transaction) and its answer, or the
default its fault earns, comes back as a Decision. A person, or a bot that
pulls its turns, is only told; their move arrives later through ``submit``,
and a clock task plays the default if it does not arrive in time. Which side
answers for a seat is registered by competitor kind (``botapi`` and
``people`` in their ``ready()``), so this module imports neither.

The clock rules every seat shares are here too: a decision's deadline (the
move limit plus the seat's bank), what overtime costs the bank, and the grace
a clock gives before it plays the default.
"""

from __future__ import annotations

from engines import State
from games import players as seat_players
from games.models import Game, Seat
from games.referee import live_pages
from games.referee.decisions import Decision
from games.referee.dispatch import schedule_clock_check

GRACE_MS = 2000
"""Added to a move's time limit before a clock gives up on a person or pull bot."""


def decision_deadline_ms(game: Game, seat: Seat) -> int:
    """The hard limit of one decision: the per-move limit plus what is left of the seat's bank."""
    return game.move_time_ms + seat.bank_left_ms


def charge_time_bank(bank_left_ms: int, used_ms: int, move_time_ms: int) -> int:
    """The bank after a decision that took ``used_ms``: only time beyond the move limit counts.

    Time within ``move_time_ms`` is free, so a seat that always answers in time
    keeps its whole bank for the positions where it wants to think longer.
    """
    return max(0, bank_left_ms - max(0, used_ms - move_time_ms))


def ask(game: Game, seat: Seat, state: State, ply: int) -> Decision | None:
    """The seat's decision now, or None when it will arrive later (the seat is then told)."""
    player = seat_players.player_for(seat.competitor.kind)
    if player is not None:
        decision = player.ask(game, seat, state, ply)
        if decision is not None:
            return decision
    live_pages.pages().publish(
        game.pk, {"type": "game.turn", "game": game.pk, "ply": ply, "seat": seat.position}
    )
    schedule_clock(game, ply)
    return None


def answers_at_once(seat: Seat) -> bool:
    """Whether ``ask`` decides now (a push bot, or a bot that cannot play and gets its default).

    A person or a pull bot is only told it is their turn (and a clock started),
    which the referee does only once the move before is committed.
    """
    player = seat_players.player_for(seat.competitor.kind)
    return player is not None and player.answers_at_once(seat)


def game_started(game: Game) -> None:
    """Tell every side that plays seats that a game began (push bots get a ``start``)."""
    for player in seat_players.all_players():
        player.game_started(game)


def game_finished(game: Game) -> None:
    """Tell every side that plays seats that a game ended (bot health counts faulty games)."""
    for player in seat_players.all_players():
        player.game_finished(game)


def fault_counted(game: Game, position: int, fault_kind: str) -> None:
    """Inside a counted fault's transaction: each side may act once it is committed.

    The bots' side registers one callback on the commit; a person's seat is
    recognised (and dropped) later, by the alert's task.
    """
    for player in seat_players.all_players():
        player.fault_counted(game, position, fault_kind)


def schedule_clock(game: Game, ply: int) -> None:
    """Re-advance the game once the move's time is up (a default then, if still owed)."""
    schedule_clock_check(game.pk, ply, (game.move_time_ms + GRACE_MS) / 1000)

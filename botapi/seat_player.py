"""The bots' side of the referee's seat protocol (``games.players``), registered in ``ready()``.

A push bot is called over HTTP at once; a pull bot is only told and its move
arrives later. Each method delegates to ``botapi.referee`` and ``botapi.services.alerts``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from botapi import referee
from botapi.selectors import capacity
from botapi.services import alerts
from engines import State
from games.models import Competitor, Game, Seat
from games.referee.decisions import Decision


class BotSeats:
    """Answers for the seats of bot competitors."""

    def ask(self, game: Game, seat: Seat, state: State, ply: int) -> Decision | None:
        return referee.ask_bot(game, seat, state, ply)

    def answers_at_once(self, seat: Seat) -> bool:
        return not referee.waits_for_pull(seat)

    def game_started(self, game: Game) -> None:
        referee.game_started(game)

    def game_finished(self, game: Game) -> None:
        referee.game_finished(game)

    def fault_counted(self, game: Game, position: int, fault_kind: str) -> None:
        alerts.fault_recorded(game.pk, position, fault_kind)

    def check_seats(
        self, competitors: Sequence[Competitor], *, created_by: Any, purpose: str
    ) -> None:
        """``capacity.check_capacity``: BotAtCapacity or BotShareUsed when a bot may not."""
        capacity.check_capacity(competitors, created_by=created_by, purpose=purpose)

    def table_refusal(self, competitors: Sequence[Competitor], *, rated: bool) -> str | None:
        """A bot sits at any table its owner's rules allow (``rating_rules`` judges those)."""
        return None


BOT_SEATS = BotSeats()

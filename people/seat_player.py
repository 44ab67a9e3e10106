"""The people's side of the referee's seat protocol (``games.players``), registered in ``ready()``.

A person's move never comes at once: the referee tells the game's pages it
is their turn and starts the clock; the move arrives through the play socket.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines import State
from games.models import Competitor, Game, Seat
from games.referee.decisions import Decision

from . import seating


class PersonSeats:
    """Answers for the seats of person competitors: always later."""

    def ask(self, game: Game, seat: Seat, state: State, ply: int) -> Decision | None:
        return None

    def answers_at_once(self, seat: Seat) -> bool:
        return False

    def game_started(self, game: Game) -> None:
        """Nothing to send: the person's page shows the game."""

    def game_finished(self, game: Game) -> None:
        """Nothing to send: the person's page shows the result."""

    def fault_counted(self, game: Game, position: int, fault_kind: str) -> None:
        """Nothing to alert: a person sees their faults on the game's page."""

    def check_seats(
        self, competitors: Sequence[Competitor], *, created_by: Any, purpose: str
    ) -> None:
        """A person may sit at any number of games: nothing to refuse."""

    def table_refusal(self, competitors: Sequence[Competitor], *, rated: bool) -> str | None:
        """A rated table with a bot needs each person's consent (``people.seating``)."""
        return seating.table_refusal(competitors, rated=rated)


PERSON_SEATS = PersonSeats()

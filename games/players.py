"""Who answers for a seat: the players registered by competitor kind.

The referee asks a seat for its decision without knowing what sits there. The
bots' side (``botapi``) and the people's side (``people``) each implement
:class:`SeatPlayer` and register it for their competitor kind in their
``AppConfig.ready()``; this module imports neither, so games stays below them.
A kind with no player registered is only told it is its turn (its move comes
later, through the referee's ``submit``), as a person is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Sequence

    from engines import State
    from games.models import Competitor, Game, Seat
    from games.referee.decisions import Decision


class SeatPlayer(Protocol):
    """What the referee asks of the side that plays a kind of competitor."""

    def ask(self, game: Game, seat: Seat, state: State, ply: int) -> Decision | None:
        """The seat's decision now, or None when it will arrive later (then it is told)."""

    def answers_at_once(self, seat: Seat) -> bool:
        """Whether ``ask`` decides now rather than waiting for a later submission."""

    def game_started(self, game: Game) -> None:
        """A game with a seat of this kind began."""

    def game_finished(self, game: Game) -> None:
        """A game with a seat of this kind ended."""

    def fault_counted(self, game: Game, position: int, fault_kind: str) -> None:
        """Inside a counted fault's transaction (any seat's: the player drops others')."""

    def check_seats(
        self, competitors: Sequence[Competitor], *, created_by: Any, purpose: str
    ) -> None:
        """Raise unless these competitors (any kind: the player picks its own) may take seats
        in a new game now; inside the creating transaction (a player may lock rows)."""

    def table_refusal(self, competitors: Sequence[Competitor], *, rated: bool) -> str | None:
        """Why these competitors (any kind: the player judges its own) may not share one game,
        rated or not, whatever the game's creator; None when they may. Asked for every game,
        even one created past the capacity checks (``enforce_capacity=False``)."""


_players: dict[str, SeatPlayer] = {}


def register(kind: str, player: SeatPlayer) -> None:
    """Let ``player`` answer for the seats of competitors of ``kind`` (once per kind)."""
    current = _players.get(kind)
    if current is not None and current is not player:
        raise ValueError(f"a seat player is already registered for {kind!r}: {current!r}")
    _players[kind] = player


def player_for(kind: str) -> SeatPlayer | None:
    """The player registered for ``kind``, if any."""
    return _players.get(kind)


def all_players() -> list[SeatPlayer]:
    """Every registered player, in registration order (each is told of every game)."""
    return list(_players.values())

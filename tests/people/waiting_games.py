"""Running games where a chosen seat is to move, for the "game waiting" tests."""

from __future__ import annotations

from collections.abc import Sequence

from engines import CHANCE
from games.models import Competitor, Game, Seat
from games.referee.statecache import load_state
from tests.tournaments.played import played_game


def running_game(
    competitors: Sequence[Competitor], *, mover: int, seed: str, plies: int = 12
) -> Game:
    """A running game of Manila where ``competitors[mover]`` holds the seat to move.

    The game is played ``plies`` moves (more until a player, not chance, is to
    move), then the seat to move and seat ``mover`` swap competitors, so the
    seat to move is not necessarily seat ``mover``: see :func:`seat_to_move`.
    """
    for extra in range(60):
        game = played_game("manila", competitors, seed=seed, plies=plies + extra)
        moving = load_state(game).to_move
        if moving and moving[0] != CHANCE:
            break
        game.delete()
    else:  # pragma: no cover - Manila always gives a player a turn within a few plies
        raise AssertionError("no player to move")
    seat = moving[0]
    if seat != mover:
        a = Seat.objects.get(game=game, position=seat)
        b = Seat.objects.get(game=game, position=mover)
        a.competitor, b.competitor = b.competitor, a.competitor
        a.save()
        b.save()
    return game


def seat_to_move(game: Game) -> int:
    return load_state(game).to_move[0]

"""Bots with a move log made by hand, for the owner page's tests (no referee needed)."""

from __future__ import annotations

from datetime import datetime

from django.test import Client

from games.models import Game, Move, Seat
from tests.factories import BotFactory, CompetitorFactory, GameFactory, UserFactory, seat_bot


def duelist():
    """The owner pages' bot: Ada's "duelist"."""
    return BotFactory(owner=UserFactory(username="ada", password=None), name="duelist")


def signed_in(user) -> Client:
    """A client with ``user`` signed in."""
    client = Client()
    client.force_login(user)
    return client


def game_with_moves(
    bot,
    moves: list[dict],
    *,
    seat: int = 0,
    status: str = Game.Status.FINISHED,
    other_moves: int = 2,
) -> Game:
    """A game where ``bot`` holds ``seat`` and made ``moves`` (dicts of Move fields),
    with a stranger's seat beside it that moved ``other_moves`` times (never shown)."""
    game = GameFactory(num_players=2, status=status)
    seat_bot(game, bot, seat)
    stranger = CompetitorFactory()
    Seat.objects.create(game=game, position=1 - seat, competitor=stranger)
    ply = 0
    for fields in moves:
        Move.objects.create(
            game=game,
            ply=ply,
            seat=seat,
            action={"type": "pass"},
            source=fields.pop("source", Move.Source.BOT),
            request_excerpt=fields.pop("request_excerpt", f'{{"ply": {ply}}}'),
            **fields,
        )
        ply += 1
    for _ in range(other_moves):
        Move.objects.create(
            game=game,
            ply=ply,
            seat=1 - seat,
            action={"type": "pass"},
            source=Move.Source.BOT,
            latency_ms=1,
            request_excerpt="SECRET-OF-THE-OTHER-SEAT",
            fault_kind="timeout",
            fault_detail="the other seat's fault",
        )
        ply += 1
    Move.objects.create(game=game, ply=ply, seat=-1, action={"die": 3}, source=Move.Source.CHANCE)
    game.next_ply = ply + 1
    game.save(update_fields=["next_ply"])
    return game


def set_created(game: Game, when: datetime) -> None:
    """Pretend every move of ``game`` was made at ``when``."""
    Move.objects.filter(game=game).update(created_at=when)

"""Creating a game: checked engine, options and seats, a secret seed and its commitment."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

import engines

from . import players
from .dispatch import schedule_advance
from .models import Competitor, Game, League, Seat, Tournament

MAX_SEED_LENGTH = Game._meta.get_field("seed").max_length


class GameSetupError(ValueError):
    """A game that cannot be created; the message says what to change."""


@transaction.atomic
def create_game(
    engine: str,
    competitors: Sequence[Competitor],
    *,
    options: dict[str, Any] | None = None,
    seed: str | None = None,
    rated: bool = True,
    listed: bool = True,
    league: League | None = None,
    tournament: Tournament | None = None,
    round_number: int | None = None,
    move_time_ms: int = 5000,
    time_bank_ms: int = 0,
    enforce_capacity: bool = True,
) -> Game:
    """Create a running game with its seats and let the referee start it after commit.

    The seed is random unless given; only ``sha256(seed)`` is public until the
    game is finished, so nobody can precompute the dice. A bot already playing
    its ``max_concurrent_games`` makes this raise ``botapi.capacity.BotAtCapacity``
    (the check locks the bots' rows until the game is committed);
    ``enforce_capacity=False`` is for benchmarks and tests that mean to exceed it.
    ``listed=False`` keeps the game off public lists (local test games).
    """
    try:
        rules = engines.get(engine)
        merged = rules.check_setup(len(competitors), options)
    except engines.InvalidGame as exc:
        raise GameSetupError(str(exc)) from None
    if league is not None and league.engine != engine:
        raise GameSetupError(f"league {league} plays {league.engine}, not {engine}")
    if move_time_ms <= 0:
        raise GameSetupError("move_time_ms must be positive")
    if time_bank_ms < 0:
        raise GameSetupError("time_bank_ms must be 0 or more")
    if seed is not None and not 0 < len(seed) <= MAX_SEED_LENGTH:
        raise GameSetupError(f"a seed has 1 to {MAX_SEED_LENGTH} characters")
    seed = seed if seed is not None else secrets.token_hex(16)
    if enforce_capacity:
        from botapi.capacity import check_capacity

        check_capacity(competitors)
    now = timezone.now()
    game = Game.objects.create(
        engine=engine,
        engine_version=rules.version,
        num_players=len(competitors),
        options=merged,
        seed=seed,
        seed_commitment=engines.seed_commitment(seed),
        status=Game.Status.RUNNING,
        rated=rated,
        listed=listed,
        league=league,
        tournament=tournament,
        round_number=round_number,
        move_time_ms=move_time_ms,
        time_bank_ms=time_bank_ms,
        started_at=now,
        last_progress_at=now,
    )
    Seat.objects.bulk_create(
        [
            Seat(game=game, position=i, competitor=c, bank_left_ms=time_bank_ms)
            for i, c in enumerate(competitors)
        ]
    )
    players.game_started(game)  # before the first advance: eager mode runs these in order
    schedule_advance(game.pk)
    return game

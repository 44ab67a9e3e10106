"""Creating a game: checked engine, options and seats, a secret seed and its commitment.

Every creator goes through :func:`create_game` (the game API, the demo,
``manage.py play``, tournament pairing), so the rules that must hold
for every game hold here: whether it may be rated (``games.selectors.rating_rules``) and
whether its competitors may take seats now (each kind's seat player, ``games.players``:
for bots, how many games they play at once, ``botapi.selectors.capacity``; for people,
whether a rated table with a bot has their consent, ``people.seating``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

import engines
from games import players as seat_players
from games.models import Competitor, Game, Seat
from games.referee import turns
from games.referee.dispatch import schedule_advance
from games.selectors import rating_rules
from games.signals import game_created

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
    rated: bool | None = None,
    listed: bool = True,
    league: Any = None,
    tournament: Any = None,
    round_number: int | None = None,
    move_time_ms: int = 5000,
    time_bank_ms: int = 0,
    enforce_capacity: bool = True,
    created_by: Any = None,
    purpose: str = Game.Purpose.CASUAL,
    allow_same_owner_rated: bool = False,
) -> Game:
    """Create a running game with its seats and let the referee start it after commit.

    The seed is random unless given; only ``sha256(seed)`` is public until the
    game is finished, so nobody can precompute the dice. A bot already playing
    its ``max_concurrent_games`` makes this raise ``botapi.selectors.capacity.BotAtCapacity``
    (the check locks the bots' rows until the game is committed);
    ``enforce_capacity=False`` is for benchmarks and tests that mean to exceed it.
    ``listed=False`` keeps the game off public lists (local test games).

    ``league`` and ``tournament`` are the event's rows (``tournaments.models``) the game
    belongs to, if any. ``rated`` None means rated unless ``games.selectors.rating_rules``
    forbids it (one owner holding several seats, or a challenge by ``created_by``); True
    where a rule forbids it is a GameSetupError. ``created_by`` is the user asking
    for the game (None: the service), counted for the challengers' fair
    share of an open bot. ``purpose="event"`` is for an organiser's event
    (tournament, arena): its games are never challenges, count apart on the
    house bots, and only they may pass ``allow_same_owner_rated`` (the
    event's rules, not the owner, chose the table).
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
    try:
        decision = rating_rules.decide(
            rating_rules.holders_of_competitors(competitors),
            rated,
            creator_id=created_by.pk if created_by is not None else None,
            purpose=purpose,
            same_owner_allowed=allow_same_owner_rated,
            seed_chosen=seed is not None,
        )
    except ValueError as exc:  # rating_rules.RatedRefused, or a misused flag
        raise GameSetupError(str(exc)) from None
    for player in seat_players.all_players():
        refusal = player.table_refusal(competitors, rated=decision.rated)
        if refusal:
            raise GameSetupError(refusal)
    seed = seed if seed is not None else secrets.token_hex(16)
    if enforce_capacity:
        for player in seat_players.all_players():
            player.check_seats(competitors, created_by=created_by, purpose=purpose)
    now = timezone.now()
    game = Game.objects.create(
        engine=engine,
        engine_version=rules.version,
        num_players=len(competitors),
        options=merged,
        seed=seed,
        seed_commitment=engines.seed_commitment(seed),
        status=Game.Status.RUNNING,
        rated=decision.rated,
        unrated_reason=decision.reason,
        purpose=purpose,
        created_by=created_by,
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
    game_created.send(sender=Game, game=game, competitor_ids=[c.pk for c in competitors])
    turns.game_started(game)  # before the first advance: eager mode runs these in order
    schedule_advance(game.pk)
    return game

"""Finishing a game tells the layers above through ``games.signals.game_finished``.

Sent inside the transaction that saves the outcome: ratings are applied
exactly once per finished game, and a receiver's failure rolls the finish
back with them.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection

from games.models import Game, Outcome
from games.referee import steps as referee
from games.referee.decisions import Decision
from games.referee.statecache import load_state
from games.services import create_game
from games.signals import game_finished
from ratings.models import RatingChange
from tests.factories import CompetitorFactory
from tests.tournaments.played import fast_forward

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


@contextlib.contextmanager
def receiving(receiver: Any) -> Iterator[None]:
    game_finished.connect(receiver, dispatch_uid="test-finish-signal")
    try:
        yield
    finally:
        game_finished.disconnect(dispatch_uid="test-finish-signal")


def one_move_from_the_end() -> tuple[Game, int, Decision]:
    game = create_game("manila", CompetitorFactory.create_batch(3, kind="person"), seed="s")
    rng = random.Random(3)
    fast_forward(game, rng, leave=1)
    game.refresh_from_db()
    state = load_state(game)
    seat = state.to_move[0]
    return game, seat, Decision(rng.choice(state.legal_actions(seat)))


def test_finishing_sends_game_finished_once_inside_the_transaction_with_ratings() -> None:
    game, seat, decision = one_move_from_the_end()
    seen: list[tuple[int, bool, bool]] = []

    def receiver(sender: Any, game: Game, **kwargs: Any) -> None:
        seen.append(
            (game.pk, connection.in_atomic_block, Outcome.objects.filter(game=game).exists())
        )

    with receiving(receiver):
        referee.submit(game.pk, game.next_ply, seat, decision)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        assert referee.finish(game.pk) is False
    assert seen == [(game.pk, True, True)]
    assert RatingChange.objects.filter(game=game).count() == 3 * 3


def test_a_failing_receiver_rolls_the_finish_and_its_ratings_back() -> None:
    game, seat, decision = one_move_from_the_end()

    def receiver(sender: Any, game: Game, **kwargs: Any) -> None:
        raise RuntimeError("a receiver failed")

    with receiving(receiver), contextlib.suppress(RuntimeError):
        referee.submit(game.pk, game.next_ply, seat, decision)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert not Outcome.objects.filter(game=game).exists()
    assert not RatingChange.objects.filter(game=game).exists()

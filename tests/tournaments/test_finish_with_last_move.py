"""The last move and the finish commit together: the end is never logged while the game runs.

Were the last move committed first and the game finished after, live pages
would show the revealed end position of a game that still says it runs, and
a finish that failed would leave it so. Here finishing fails (ratings cannot
be applied): the move that ends the game must not be logged either, and once
finishing works again the game is played to its end and finished.

Each game starts one person move before its end (``fast_forward``); that move
goes through ``referee.submit``, and the chance moves after it, if any,
through the referee's own steps (eager ``advance``), whichever ends the game.
"""

from __future__ import annotations

import random

import pytest

import engines
import ratings.services.apply
from engines import CHANCE
from games.models import Game, Move, Outcome
from games.referee import steps as referee
from games.referee.decisions import Decision
from games.referee.statecache import load_state
from games.services import create_game
from tests.factories import CompetitorFactory
from tests.tournaments.played import fast_forward

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]
ENGINES = ["manila", "batavia", "cargo_noir", "grog_island"]


def one_move_from_the_end(slug: str) -> tuple[Game, random.Random]:
    players = CompetitorFactory.create_batch(max(3, engines.get(slug).min_players), kind="person")
    game = create_game(slug, players, seed=f"last-move-{slug}")
    rng = random.Random(slug)
    fast_forward(game, rng, leave=1)
    game.refresh_from_db()
    return game, rng


def last_move(game: Game, rng: random.Random) -> None:
    """The person to move plays a random legal action (the referee then plays chance)."""
    game.refresh_from_db()
    state = load_state(game)
    seat = state.to_move[0]
    assert seat != CHANCE
    action = rng.choice(state.legal_actions(seat))
    referee.submit(game.pk, game.next_ply, seat, Decision(action))


@pytest.mark.parametrize("slug", ENGINES)
def test_a_finish_that_fails_leaves_the_last_move_unlogged(slug, monkeypatch) -> None:
    game, rng = one_move_from_the_end(slug)

    tried: list[int] = []

    def broken(game: Game) -> None:
        tried.append(game.pk)
        raise RuntimeError("injected: the ratings could not be applied")

    monkeypatch.setattr(ratings.services.apply, "apply_game_result", broken)
    # A person's move that ends the game raises to its sender; a chance move that ends it
    # fails inside the referee's step, which counts the failure (``step_failures``) instead.
    try:
        last_move(game, rng)
    except RuntimeError as refused:
        assert "injected" in str(refused)
    assert tried == [game.pk], "finishing was never attempted"
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and not Outcome.objects.filter(game=game).exists()
    assert Move.objects.filter(game=game).count() == game.next_ply
    assert not load_state(game).is_over, "the move that ends the game was logged unfinished"

    monkeypatch.undo()  # finishing works again: the referee goes on from where it was
    for _ in range(100):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        if load_state(game).to_move[0] == CHANCE:
            referee.advance(game.pk)
        else:
            last_move(game, rng)
    assert game.status == Game.Status.FINISHED and Outcome.objects.filter(game=game).exists()
    assert load_state(game).is_over

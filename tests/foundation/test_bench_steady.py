"""``bench.steady``'s own parts: its write is a real game's, and its draws are what it says."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bench.steady import Zipf, play_one_game
from games.models import Game, Move, Outcome
from ratings.models import RatingChange
from tests.factories import BotFactory


@pytest.mark.django_db
@pytest.mark.parametrize("engine", ["manila", "grog_island"])
def test_the_write_plays_a_rated_game_to_its_end_through_the_referee(
    engine, django_capture_on_commit_callbacks
):
    bots = [BotFactory(engines=[engine]) for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        pk = play_one_game([bot.competitor_id for bot in bots], engine, random.Random(1))
    game = Game.objects.get(pk=pk)
    assert game.status == Game.Status.FINISHED and game.rated
    assert Move.objects.filter(game=game).count() == game.next_ply > 0
    assert Outcome.objects.filter(game=game).exists()
    rated = set(RatingChange.objects.filter(game=game).values_list("competitor_id", flat=True))
    assert rated == {bot.competitor_id for bot in bots}


def test_zipf_draws_every_rank_and_favours_the_first():
    zipf = Zipf(10, random.Random(3))
    draws = Counter(zipf.draw() for _ in range(20_000))
    assert set(draws) == set(range(10))
    assert draws[0] > draws[1] > draws[4] > draws[9]
    # weight 1/(rank+1): the first is drawn about twice as often as the second
    assert 1.8 < draws[0] / draws[1] < 2.2

"""The referee's finish stores the game's record once, and never fails because of it.

Whole games through the referee (people's random moves through ``submit``,
chance by the seed): the record is there as soon as ``finish`` has committed,
equal to a fresh replay; a builder that raises leaves the game finished with
its outcome and ratings, and the first view builds the record instead.
"""

from __future__ import annotations

import json
import random

import pytest

from games.models import Game, GameRecord, Outcome
from games.records import stored as records
from games.referee import steps as referee
from games.services import create_game
from ratings.models import RatingChange
from tests.factories import CompetitorFactory
from tests.tournaments.played import play_as_people
from tests.tournaments.replay.test_game_records import fresh_replay

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def finished_through_the_referee(seed: str) -> Game:
    game = create_game("manila", CompetitorFactory.create_batch(3, kind="person"), seed=seed)
    play_as_people(game, random.Random(seed))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_finish_stores_the_record_once(monkeypatch) -> None:
    built = []
    real_build = records.build
    monkeypatch.setattr(records, "build", lambda game: built.append(game.pk) or real_build(game))
    game = finished_through_the_referee("finish-stores")
    assert built == [game.pk]
    record = GameRecord.objects.get(game=game)
    assert json.loads(record.plies) == json.loads(json.dumps(fresh_replay(game)[0]))
    assert referee.finish(game.pk) is False, "a second finish does nothing"
    assert built == [game.pk] and Outcome.objects.filter(game=game).count() == 1


def test_a_failing_builder_does_not_break_the_finish(client, monkeypatch, caplog) -> None:
    def broken(game):
        raise RuntimeError("the builder broke")

    monkeypatch.setattr(records, "build", broken)
    game = finished_through_the_referee("finish-survives")
    assert Outcome.objects.filter(game=game).count() == 1
    assert RatingChange.objects.filter(game=game).exists() == game.rated
    assert not GameRecord.objects.filter(game=game).exists()
    assert "could not store its public record" in caplog.text
    monkeypatch.undo()
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert GameRecord.objects.filter(game=game).exists(), "the first view built it"

"""The event seed, its commitment and the derived game seeds, checkable by anyone at the end."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from games.models import Game
from tournaments import events
from tournaments.events import seeds
from tournaments.models import Tournament

from .conftest import make_event, pull_bots


def test_game_seeds_follow_the_documented_derivation() -> None:
    event_seed = "ab" * 32
    expected = hmac.new(event_seed.encode(), b"harbormaster/game/2/3/0", hashlib.sha256).hexdigest()
    assert seeds.game_seed(event_seed, 2, 3) == expected
    assert seeds.commitment(event_seed) == hashlib.sha256(event_seed.encode()).hexdigest()
    derived = {seeds.game_seed(event_seed, r, t, d) for r in (1, 2) for t in (1, 2) for d in (0, 1)}
    assert len(derived) == 8, "every round, table and deal has its own seed"
    assert seeds.game_seed("cd" * 32, 2, 3) != expected


def test_new_event_seeds_are_fresh() -> None:
    assert len({seeds.new_event_seed() for _ in range(20)}) == 20


@pytest.mark.django_db
def test_the_seed_stays_secret_while_the_event_runs_and_verifies_at_the_end() -> None:
    event = make_event()
    events.open_entries(event)
    commitment = event.seed_commitment
    for bot in pull_bots(3):
        events.enter(event, bot.competitor, by=bot.owner)
    events.start(event)
    assert events.event_seed_revealed(event) is None
    assert seeds.verify(event) == [
        "the event seed is secret until the event is finished or cancelled"
    ]
    events.cancel(event, reason="test over")
    assert event.seed_commitment == commitment, "never changed after entries opened"
    assert events.event_seed_revealed(event) == event.seed
    assert seeds.verify(event) == []

    game = Game.objects.get(tournament=event)
    Game.objects.filter(pk=game.pk).update(seed="0" * 64)
    Tournament.objects.filter(pk=event.pk).update(seed_commitment="f" * 64)
    event.refresh_from_db()
    problems = seeds.verify(event)
    assert len(problems) == 3 and "was published" in problems[0]
    assert f"game {game.pk}: its seed is not the one derived" in problems[1]
    assert f"game {game.pk}: its seed does not match its own commitment" in problems[2]

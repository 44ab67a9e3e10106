"""An event game the referee gives up on (aborted) does not hold its round.

Before, an aborted game kept its round running for ever (only cancelling the
event ended it). Now the referee's abort counts as the game being over for
the round: the round ends once its other games have, and the next is paired;
the aborted table has no result, and the organiser reads why.
"""

from __future__ import annotations

import pytest

from games import tasks as game_tasks
from games.models import Game
from games.referee import statecache
from tournaments import events
from tournaments.models import Round

from .conftest import finish_games, running_games
from .test_rounds import started_event

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


@pytest.mark.parametrize("aborted_last", [False, True])
def test_a_game_aborted_by_the_referee_lets_its_round_finish_and_the_next_be_paired(
    monkeypatch, aborted_last: bool
) -> None:
    event = started_event(6, rounds=2)
    broken, other = running_games(event, 1)
    if aborted_last:
        finish_games([other])
    real_load = statecache.load_state

    def load_state(game, *args, **kwargs):
        if game.pk == broken.pk:
            raise RuntimeError("injected: the stored log cannot be replayed")
        return real_load(game, *args, **kwargs)

    monkeypatch.setattr(statecache, "load_state", load_state)
    assert [game_tasks.advance_game(broken.pk) for _ in range(3)] == ["failed", "failed", "aborted"]
    broken.refresh_from_db()
    assert broken.status == Game.Status.ABORTED
    problem = events.problems(event)[0]
    assert "was aborted (The referee failed 3 times" in problem
    assert "cannot be replayed" in problem
    if not aborted_last:
        assert Round.objects.get(tournament=event, number=1).status == Round.Status.RUNNING
        finish_games([other])
    assert Round.objects.get(tournament=event, number=1).status == Round.Status.FINISHED
    assert Round.objects.filter(tournament=event, number=2).exists(), "the next round is paired"
    assert len(events.history_of(event).results) == 1, "the aborted table has no result"

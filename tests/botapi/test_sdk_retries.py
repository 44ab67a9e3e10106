"""The SDK's replay refusal never refuses the referee asking a question again.

When the referee asks a bot again for the same ply (e.g. after a worker died
before it could record the answer) it calls ``botapi.referee.ask_bot`` anew,
which builds a new request: a new ``request_id``, so a new signature, even
within the same second. This test runs that real path against a real SDK bot.
"""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from harbormaster_bot import Turn, serve_in_background

from botapi.models import Bot
from botapi.referee import ask_bot
from games.models import Move, Seat
from games.referee import statecache
from games.services import create_game
from tests.factories import BotFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]
SECRET = "hms_retry-test-secret"


def test_the_referee_asking_for_the_same_ply_twice_is_answered_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bots = [BotFactory(mode="pull", endpoint_url="") for _ in range(3)]
    game = create_game("manila", [b.competitor for b in bots], move_time_ms=2000)
    game.refresh_from_db()
    state = statecache.load_state(game)
    position = state.to_move[0]
    plies: list[int] = []

    def act(turn: Turn) -> int:
        plies.append(turn.ply)
        return 0

    with serve_in_background(act, secret=SECRET, name="asked-twice") as running:
        bot = Seat.objects.get(game=game, position=position).competitor.bot
        Bot.objects.filter(pk=bot.pk).update(
            mode=Bot.Mode.PUSH, endpoint_url=running.url, signing_secret=SECRET
        )
        frozen = float(int(time.time()))  # both requests carry the same timestamp
        monkeypatch.setattr("harbormaster_bot.signing.time", SimpleNamespace(time=lambda: frozen))
        decisions = []
        for _ in range(2):
            seat = Seat.objects.select_related("competitor__bot").get(game=game, position=position)
            decisions.append(ask_bot(game, seat, state, game.next_ply))
    assert plies == [game.next_ply, game.next_ply]
    for decision in decisions:
        assert decision is not None
        assert (decision.source, decision.fault_kind) == (Move.Source.BOT, ""), decision

"""Games against bots whose replies are deep, huge or malformed, refereed in-process.

Each such reply must become a named fault on the move (with the default
action played) and the game must go on to its end: the referee never crashes
on a bot's reply, and what it stores about the reply fits the database.
"""

from __future__ import annotations

import pytest
from harbormaster_bot.examples.random_bot import RandomBot

from games.models import Game, Seat
from games.services import create_game
from tests.botapi.servers import MisbehavingServer
from tests.factories import BotFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]
SECRET = "hms_example-secret"


@pytest.mark.parametrize(
    ("path", "fault", "words"),
    [
        ("/deep", "invalid_json", "nested 10001 levels deep"),
        ("/surrogate", "invalid_json", "surrogate"),
        ("/nan", "invalid_json", "NaN"),
        ("/huge", "oversized", "65536"),
        ("/garbage", "invalid_json", "not valid JSON"),
        ("/bigint", "invalid_json", "5000 digits"),
        ("/bigindex", "invalid_json", "5000 digits"),
        ("/overflow", "invalid_json", "beyond a double's range"),
    ],
)
def test_a_hostile_reply_is_a_named_fault_and_the_game_ends(
    serve_bots, path: str, fault: str, words: str
) -> None:
    good = serve_bots("manila", [RandomBot(seed=1), RandomBot(seed=2)])
    hostile = MisbehavingServer().start()
    try:
        bad = BotFactory(endpoint_url=hostile.url(path), signing_secret=SECRET)
        game = create_game(
            "manila", [bad.competitor, *(b.competitor for b in good)], move_time_ms=2000
        )
    finally:
        hostile.stop()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, f"stopped at ply {game.next_ply}"
    faults = list(game.moves.filter(seat=0).exclude(fault_kind="").order_by("ply"))
    assert [m.fault_kind for m in faults[:3]] == [fault] * 3
    assert all(words in m.fault_detail for m in faults[:3])
    assert all(m.latency_ms is not None and m.latency_ms < 2000 for m in faults[:3])
    assert Seat.objects.get(game=game, position=0).forfeited
    for seat in Seat.objects.filter(game=game).exclude(position=0):
        assert seat.fault_count == 0

"""The per-game time bank: deadline = move_time_ms + bank_left_ms, overtime comes out of the bank.

Push bots are charged by ``botapi.referee.ask_bot``, pull bots by
``botapi.services.pull.submit_move``, and a seat whose clock ran out (person or pull
bot) by the timeout branch of ``games.referee.steps.advance``. A push bot's bank
never pays for time the referee itself lost (a step recovered after a crash).
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from harbormaster_bot import serve_in_background
from harbormaster_bot.examples.random_bot import RandomBot

from botapi.models import Bot
from games.models import Game, Move, Seat
from games.referee import statecache
from games.referee import steps as referee
from games.referee import turns as players
from games.referee.turns import charge_time_bank
from games.services import create_game
from games.tasks import recover_stalled
from tests.factories import BotFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]
SECRET = "hms_time-bank-secret"


def pull_game(move_time_ms: int, time_bank_ms: int) -> tuple[Game, Seat]:
    """A Manila game between pull bots, stopped at the first seat that must decide."""
    bots = [BotFactory(mode="pull", endpoint_url="") for _ in range(3)]
    game = create_game(
        "manila", [b.competitor for b in bots], move_time_ms=move_time_ms, time_bank_ms=time_bank_ms
    )
    game.refresh_from_db()
    seat = statecache.load_state(game).to_move[0]
    return game, Seat.objects.get(game=game, position=seat)


def stall(game: Game, ms: int) -> None:
    """Pretend the seat to move has been thinking for ``ms`` milliseconds."""
    Game.objects.filter(pk=game.pk).update(
        last_progress_at=timezone.now() - timedelta(milliseconds=ms)
    )


@pytest.mark.parametrize(
    ("bank", "used", "move_time", "left"),
    [(5000, 800, 1000, 5000), (5000, 1000, 1000, 5000), (5000, 1700, 1000, 4300),
     (5000, 9000, 1000, 0), (0, 3000, 1000, 0)],
)  # fmt: skip
def test_only_time_beyond_the_move_limit_is_charged(bank, used, move_time, left) -> None:
    assert charge_time_bank(bank, used, move_time) == left


def test_seats_start_with_the_games_time_bank() -> None:
    game, _ = pull_game(move_time_ms=1000, time_bank_ms=7000)
    assert list(game.seats.values_list("bank_left_ms", flat=True)) == [7000, 7000, 7000]


def test_the_clock_waits_for_the_bank_before_playing_the_default() -> None:
    game, seat = pull_game(move_time_ms=1000, time_bank_ms=4000)
    ply = game.next_ply
    stall(game, 1000 + players.GRACE_MS + 1500)  # past the move limit, within the bank
    assert referee.advance(game.pk) == "waiting"
    assert Game.objects.get(pk=game.pk).next_ply == ply
    stall(game, 1000 + 4000 + players.GRACE_MS + 200)  # past limit + bank + grace
    assert referee.advance(game.pk) == "default"
    move = Move.objects.get(game=game, ply=ply)
    assert (move.seat, move.source, move.fault_kind) == (seat.position, "default", "timeout")
    assert "5000 ms" in move.fault_detail
    seat.refresh_from_db()
    assert seat.bank_left_ms == 0 and seat.fault_count == 1


def test_without_a_bank_the_clock_gives_the_move_limit_plus_grace() -> None:
    game, _ = pull_game(move_time_ms=1000, time_bank_ms=0)
    ply = game.next_ply
    stall(game, 1000 + players.GRACE_MS - 300)
    assert referee.advance(game.pk) == "waiting"
    stall(game, 1000 + players.GRACE_MS + 300)
    assert referee.advance(game.pk) == "default"
    assert Move.objects.get(game=game, ply=ply).fault_kind == "timeout"


class SlowBot(RandomBot):
    """Thinks ``delay`` seconds on its first decision, then answers at once."""

    def __init__(self, delay: float) -> None:
        super().__init__(seed=1)
        self.delay = delay
        self.requests: list[dict] = []

    def act(self, turn):  # type: ignore[no-untyped-def]
        self.requests.append(turn.request)
        if len(self.requests) == 1:
            time.sleep(self.delay)
        return super().act(turn)


def test_a_push_bot_gets_the_bank_in_its_deadline_and_pays_for_overtime() -> None:
    slow = SlowBot(delay=0.6)
    quick = [RandomBot(seed=i) for i in (2, 3)]
    servers = [serve_in_background(h, secret=SECRET) for h in (slow, *quick)]
    try:
        bots = [BotFactory(endpoint_url=s.url, signing_secret=SECRET) for s in servers]
        game = create_game(
            "manila",
            [b.competitor for b in bots],
            seed="bank",
            move_time_ms=300,
            time_bank_ms=3000,
        )
    finally:
        for server in servers:
            server.stop()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    first = slow.requests[0]
    assert first["deadline_ms"] == 3300 and first["time_bank_ms"] == 3000
    # Manila's first decision is the auction: the default the SDK would answer is the pass.
    assert first["legal_actions"][first["default_action_index"]] == {"type": "pass"}
    move = Move.objects.get(game=game, ply=first["ply"])
    assert move.source == "bot" and not move.fault_kind and move.latency_ms >= 600
    later = slow.requests[1]
    charged = 3000 - later["time_bank_ms"]
    assert move.latency_ms - 300 <= charged <= move.latency_ms - 300 + 1
    assert later["deadline_ms"] == 300 + later["time_bank_ms"]
    seat = Seat.objects.get(game=game, position=0)
    assert seat.bank_left_ms <= later["time_bank_ms"] and seat.fault_count == 0


def test_a_push_bot_asked_late_by_the_referee_is_asked_with_a_fresh_deadline() -> None:
    """A step the referee takes long after the previous move (a worker died, the task was
    recovered) asks the push bot; the lost time is no timeout and costs no bank."""
    game, seat = pull_game(move_time_ms=1000, time_bank_ms=3000)
    ply = game.next_ply
    handlers = [SlowBot(delay=0) for _ in range(3)]
    servers = [serve_in_background(h, secret=SECRET) for h in handlers]
    try:
        for server, bot_seat in zip(servers, game.seats.order_by("position"), strict=True):
            Bot.objects.filter(competitor=bot_seat.competitor).update(
                mode="push", endpoint_url=server.url, signing_secret=SECRET
            )
        stall(game, 60_000)  # far past move limit + bank + grace: the referee's own delay
        assert referee.advance(game.pk) == "played"
    finally:
        for server in servers:
            server.stop()
    asked = handlers[seat.position].requests[0]
    assert (asked["ply"], asked["deadline_ms"], asked["time_bank_ms"]) == (ply, 4000, 3000)
    move = Move.objects.get(game=game, ply=ply)
    assert (move.source, move.fault_kind) == ("bot", "")
    seat.refresh_from_db()
    assert (seat.fault_count, seat.bank_left_ms) == (0, 3000)


def test_a_stalled_game_is_recovered_only_after_any_bank_could_have_run_out() -> None:
    """Recovering earlier would ask a push bot still thinking on its bank a second time."""
    game, _ = pull_game(move_time_ms=1000, time_bank_ms=5000)
    stall(game, 1000 + players.GRACE_MS + 4000)
    assert recover_stalled(stall_ms=0) == 0
    stall(game, 1000 + players.GRACE_MS + 5000 + 200)
    assert recover_stalled(stall_ms=0) == 1

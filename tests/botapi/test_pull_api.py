"""Pull mode over the REST API: GET /api/v1/bots/me/turns and POST /api/v1/games/{id}/moves."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from botapi import protocol
from botapi.services import bots as services
from botapi.services import pull
from games.models import Game, Move, Seat
from games.referee import statecache
from games.referee import turns as players
from games.services import create_game
from tests.factories import BotFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]
TURNS = "/api/v1/bots/me/turns"


class PullBot:
    """A pull-mode bot with its token and an API client that sends it."""

    def __init__(self, **fields: object) -> None:
        self.bot = BotFactory(mode="pull", endpoint_url="", **fields)
        self.token = services.rotate_pull_token(self.bot)
        self.api = APIClient()
        self.api.credentials(HTTP_AUTHORIZATION=f"Bot {self.token}")

    def turns(self, wait: object = 0):
        return self.api.get(TURNS, {"wait": wait})

    def move(self, game_id: int, body: dict):
        return self.api.post(f"/api/v1/games/{game_id}/moves", body, format="json")


@pytest.fixture
def table():
    """Three pull bots at a Manila game, stopped at the first seat that must decide."""
    bots = [PullBot() for _ in range(3)]
    game = create_game("manila", [b.bot.competitor for b in bots], seed="pull", move_time_ms=60_000)
    game.refresh_from_db()
    return game, bots


def to_move(game: Game, bots: list[PullBot]) -> tuple[PullBot, int]:
    game.refresh_from_db()
    seat = statecache.load_state(game).to_move[0]
    return bots[seat], seat


def test_turns_need_the_bots_own_token() -> None:
    assert APIClient().get(TURNS).status_code == 401
    user_token = Token.objects.create(user=BotFactory(mode="pull", endpoint_url="").owner)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {user_token.key}")
    response = api.get(TURNS)
    assert response.status_code == 401 and response["WWW-Authenticate"] == "Bot"
    api.credentials(HTTP_AUTHORIZATION="Bot hmp_not-a-token")
    assert api.get(TURNS).status_code == 401


def test_no_game_no_turn_and_wait_is_validated() -> None:
    bot = PullBot()
    response = bot.turns()
    assert response.status_code == 200 and response.json() == []
    for bad in (31, -1, "soon"):
        response = bot.turns(bad)
        assert response.status_code == 400 and "wait" in response.json(), bad


def test_the_bot_to_move_gets_the_act_request_of_its_turn(table) -> None:
    game, bots = table
    mover, seat = to_move(game, bots)
    turns = mover.turns().json()
    assert len(turns) == 1
    turn = turns[0]
    protocol.validate("act_request", turn)
    state = statecache.load_state(game)
    assert turn["game"]["id"] == game.pk and turn["game"]["seat"] == seat
    assert turn["ply"] == game.next_ply
    assert turn["request_id"] == pull.request_id_for(game.pk, game.next_ply)
    assert turn["legal_actions"] == state.legal_actions(seat)
    assert turn["view"] == state.view(seat)
    assert turn["events"] == state.events  # the whole log on the first request
    assert 0 < turn["deadline_ms"] <= 60_000 and "time_bank_ms" not in turn
    again = mover.turns().json()
    assert again[0]["ply"] == turn["ply"] and again[0]["events"] == []  # sent once
    for other in bots:
        if other is not mover:
            assert other.turns().json() == []


def test_a_posted_move_is_played_through_the_referee(table) -> None:
    game, bots = table
    mover, seat = to_move(game, bots)
    turn = mover.turns().json()[0]
    response = mover.move(
        game.pk, {"ply": turn["ply"], "action_index": 1, "request_id": turn["request_id"]}
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["action"] == turn["legal_actions"][1] and body["seat"] == seat
    move = Move.objects.get(game=game, ply=turn["ply"])
    assert move.source == "bot" and move.fault_kind == "" and move.latency_ms is not None
    assert move.action == turn["legal_actions"][1]
    assert '"action_index": 1' in move.reply_excerpt
    game.refresh_from_db()
    assert game.next_ply > turn["ply"]
    following, _ = to_move(game, bots)
    turn2 = following.turns().json()[0]
    action = turn2["legal_actions"][0]
    response = following.move(game.pk, {"ply": turn2["ply"], "action": action})
    assert response.status_code == 201 and response.json()["action"] == action


def test_refused_moves_change_nothing(table) -> None:
    game, bots = table
    mover, _ = to_move(game, bots)
    turn = mover.turns().json()[0]
    ply, legal = turn["ply"], turn["legal_actions"]
    idle = next(b for b in bots if b is not mover)
    stranger = PullBot()
    cases = [
        (mover, game.pk, {"ply": ply + 1, "action_index": 0}, 409, "stale_ply"),
        (mover, game.pk, {"ply": ply, "action_index": len(legal)}, 400, "illegal_action"),
        (mover, game.pk, {"ply": ply, "action": {"type": "fly"}}, 400, "illegal_action"),
        (mover, game.pk, {"ply": ply, "action_index": 0, "request_id": "x"}, 400,
         "wrong_request_id"),
        (mover, game.pk + 999, {"ply": ply, "action_index": 0}, 404, "not_found"),
        (stranger, game.pk, {"ply": ply, "action_index": 0}, 404, "not_found"),
        (idle, game.pk, {"ply": ply, "action_index": 0}, 409, "not_your_turn"),
    ]  # fmt: skip
    for bot, game_id, body, status, code in cases:
        response = bot.move(game_id, body)
        assert response.status_code == status, (body, response.json())
        assert response.json()["code"] == code, body
    both = mover.move(game.pk, {"ply": ply, "action_index": 0, "action": legal[0]})
    assert both.status_code == 400 and set(both.json()) == {"action", "action_index"}
    neither = mover.move(game.pk, {"ply": ply})
    assert neither.status_code == 400 and "action" in neither.json()
    assert Game.objects.get(pk=game.pk).next_ply == ply
    assert not Move.objects.filter(game=game, ply=ply).exists()


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("action_index", 0.0, "not a decimal number"),
        ("action_index", 1.0, "not a decimal number"),
        ("action_index", "0", "not a string"),
        ("action_index", True, "not a boolean"),
        ("ply", "PLY", "not a string"),
        ("ply", "PLY.0", "not a decimal number"),
    ],
)
def test_integers_must_be_json_integers(table, field: str, value: object, says: str) -> None:
    """The protocol says an integer in JSON: ``1.0`` or ``"0"`` is refused, not converted."""
    game, bots = table
    mover, _ = to_move(game, bots)
    ply = mover.turns().json()[0]["ply"]
    body: dict[str, object] = {"ply": ply, "action_index": 0}
    if value == "PLY":
        value = str(ply)
    elif value == "PLY.0":
        value = float(ply)
    body[field] = value
    response = mover.move(game.pk, body)
    assert response.status_code == 400, response.json()
    assert response.json() == {field: [f"Must be a JSON integer ({says})."]}
    assert Game.objects.get(pk=game.pk).next_ply == ply


def test_a_form_encoded_move_is_refused(table) -> None:
    game, bots = table
    mover, _ = to_move(game, bots)
    ply = mover.turns().json()[0]["ply"]
    response = mover.api.post(
        f"/api/v1/games/{game.pk}/moves",
        f"ply={ply}&action_index=0",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 415 and response.json()["code"] == "unsupported_media_type"
    assert Game.objects.get(pk=game.pk).next_ply == ply


def test_an_illegal_action_gets_the_engines_reason(table) -> None:
    game, bots = table
    mover, seat = to_move(game, bots)
    turn = mover.turns().json()[0]
    wrong = dict(turn["legal_actions"][0])
    wrong["amount" if "amount" in wrong else "extra"] = 999
    response = mover.move(game.pk, {"ply": turn["ply"], "action": wrong})
    assert response.status_code == 400
    state = statecache.load_state(game)
    reason = state.explain_illegal(seat, wrong, state.legal_actions(seat))
    assert reason and response.json()["detail"] == reason


def test_a_suspended_or_push_bot_may_not_pull(table) -> None:
    game, bots = table
    mover, _ = to_move(game, bots)
    services.suspend_bot(mover.bot, "on holiday")
    response = mover.turns()
    assert response.status_code == 409 and response.json()["code"] == "bot_inactive"
    assert "on holiday" in response.json()["detail"]
    response = mover.move(game.pk, {"ply": game.next_ply, "action_index": 0})
    assert response.status_code == 409 and response.json()["code"] == "bot_inactive"
    with pytest.raises(pull.PullError) as refused:
        pull.check_can_pull(BotFactory(mode="push"))
    assert refused.value.code == "not_pull_mode"


def test_a_game_that_is_not_running_refuses_moves(table) -> None:
    game, bots = table
    mover, _ = to_move(game, bots)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    assert mover.turns().json() == []
    response = mover.move(game.pk, {"ply": game.next_ply, "action_index": 0})
    assert response.status_code == 409 and response.json()["code"] == "not_running"


def test_a_move_after_the_deadline_is_refused_and_the_clock_plays_the_default(table) -> None:
    game, bots = table
    mover, seat = to_move(game, bots)
    ply = game.next_ply
    late = timezone.now() - timedelta(milliseconds=60_000 + players.GRACE_MS + 100)
    Game.objects.filter(pk=game.pk).update(last_progress_at=late)
    response = mover.move(game.pk, {"ply": ply, "action_index": 1})
    assert response.status_code == 409 and response.json()["code"] == "deadline_passed"
    move = Move.objects.get(game=game, ply=ply)
    assert (move.seat, move.source, move.fault_kind) == (seat, "default", "timeout")
    assert Seat.objects.get(game=game, position=seat).fault_count == 1


def test_a_pull_bot_pays_overtime_from_its_bank() -> None:
    bots = [PullBot() for _ in range(3)]
    game = create_game(
        "manila", [b.bot.competitor for b in bots], move_time_ms=1000, time_bank_ms=10_000
    )
    mover, seat = to_move(game, bots)
    Game.objects.filter(pk=game.pk).update(
        last_progress_at=timezone.now() - timedelta(milliseconds=4000)
    )
    turn = mover.turns().json()[0]
    assert turn["time_bank_ms"] == 10_000
    assert 6000 <= turn["deadline_ms"] <= 7000  # 1 s + 10 s bank - 4 s already gone
    response = mover.move(game.pk, {"ply": turn["ply"], "action_index": 0})
    assert response.status_code == 201
    latency = response.json()["latency_ms"]
    assert latency >= 4000
    assert Seat.objects.get(game=game, position=seat).bank_left_ms == 10_000 - (latency - 1000)


def test_the_pull_endpoints_are_in_the_openapi_schema_with_the_bot_token() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    turns = schema["paths"]["/api/v1/bots/me/turns"]["get"]
    moves = schema["paths"]["/api/v1/games/{game_id}/moves"]["post"]
    assert "/api/v1/bots/me/turns/" not in schema["paths"]  # the slash alias is not repeated
    for operation in (turns, moves):
        assert operation["security"] == [{"botToken": []}]
    assert [p["name"] for p in turns["parameters"]] == ["wait"]
    assert set(turns["responses"]) == {"200", "400", "401", "409", "429"}
    assert set(moves["responses"]) == {"201", "400", "401", "404", "409", "413", "415"}

"""Protocol v1 messages: builders, JSON Schemas and reply parsing (botapi.protocol)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

import engines
from botapi import protocol
from botapi.protocol import ProtocolFault, parse_act_reply, parse_ping_reply
from engines import CHANCE, Dealer
from tests.engines.toy import TOY

LEGAL = [{"type": "bid", "amount": 1}, {"type": "bid", "amount": 2}, {"type": "pass"}]
GAME = protocol.game_info(
    game_id=42, engine="toy_highcard", engine_version="1", num_players=3, options={}, seat=1
)


def act(**overrides: object) -> dict:
    fields = dict(
        game=GAME, ply=5, deadline_ms=1000, view={"you": 1}, legal_actions=LEGAL, events=[]
    )
    fields.update(overrides)
    return protocol.act_request(**fields)  # type: ignore[arg-type]


# ------------------------------------------------------------------ schemas
@pytest.mark.parametrize("name", sorted(protocol.SCHEMA_FILES))
def test_every_schema_file_is_a_valid_draft_2020_12_schema(name: str) -> None:
    schema = protocol.schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_built_requests_match_their_schemas() -> None:
    protocol.validate("act_request", act(time_bank_ms=5000))
    protocol.validate("start_request", protocol.start_request(game=GAME, players=["a", "b", "c"]))
    outcome = {"scores": [3, 1, 1], "ranks": [1, 2, 2]}
    finish = protocol.finish_request(game=GAME, outcome=outcome, forfeited=[2], events=[])
    protocol.validate("finish_request", finish)
    protocol.validate("ping_request", protocol.ping_request())


def test_requests_have_the_protocol_envelope_and_fresh_ids() -> None:
    first, second = act(), act()
    assert (first["protocol"], first["kind"]) == (1, "act")
    assert first["request_id"] != second["request_id"]
    assert act(request_id="fixed")["request_id"] == "fixed"


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda r: r.pop("legal_actions"), "legal_actions"),
        (lambda r: r.update(protocol=2), "protocol"),
        (lambda r: r.update(surprise=True), "surprise"),
        (lambda r: r.update(legal_actions=[]), "legal_actions"),
        (lambda r: r["game"].pop("seat"), "seat"),
        (lambda r: r.update(deadline_ms=0), "deadline_ms"),
    ],
    ids=["missing field", "wrong version", "unknown field", "no legal action", "no seat", "zero"],
)
def test_the_act_request_schema_rejects_broken_requests(change, where: str) -> None:
    request = act()
    change(request)
    with pytest.raises(ValueError, match=where):
        protocol.validate("act_request", request)


def test_an_act_request_for_an_engine_state_is_valid_and_json_ready() -> None:
    state = TOY.new_game(3)
    dealer = Dealer(7)
    while state.to_move == [CHANCE]:
        state.apply(CHANCE, dealer.choose(state))
    seat = state.to_move[0]
    request = protocol.act_request_for_state(
        state, game_id="g-1", seat=seat, ply=3, deadline_ms=500
    )
    protocol.validate("act_request", request)
    assert request["game"] == {
        "id": "g-1",
        "engine": "toy_highcard",
        "engine_version": "1",
        "num_players": 3,
        "options": {"unused_flag": False},
        "seat": seat,
    }
    assert request["view"] == state.view(seat)
    assert request["legal_actions"] == state.legal_actions(seat)
    assert request["events"] == state.events
    assert json.loads(json.dumps(request)) == request


@pytest.mark.parametrize("engine", engines.all_engines(), ids=lambda e: e.slug)
def test_registered_engines_give_schema_valid_act_requests(engine: engines.Engine) -> None:
    state = engine.new_game(engine.min_players)
    dealer = Dealer(1)
    while state.to_move == [CHANCE]:
        state.apply(CHANCE, dealer.choose(state))
    seat = state.to_move[0]
    request = protocol.act_request_for_state(state, game_id=1, seat=seat, ply=0, deadline_ms=900)
    protocol.validate("act_request", request)
    json.dumps(request)
    index = request["default_action_index"]
    assert request["legal_actions"][index] == state.default_action(seat)


def test_manilas_auction_request_points_the_default_at_the_pass_not_the_first_raise() -> None:
    """Issue #32: an SDK answering for a slow bot must not play the lowest raise."""
    engine = engines.get("manila")
    state = engine.new_game(3)
    dealer = Dealer(1)
    while state.to_move == [CHANCE]:
        state.apply(CHANCE, dealer.choose(state))
    seat = state.to_move[0]
    request = protocol.act_request_for_state(state, game_id=1, seat=seat, ply=0, deadline_ms=900)
    legal = request["legal_actions"]
    assert legal[0]["type"] != "pass", "the fixture must be a decision where index 0 is a raise"
    assert legal[request["default_action_index"]] == {"type": "pass"}


def test_an_act_request_indexes_the_given_default_and_refuses_one_that_is_not_legal() -> None:
    legal = [{"type": "bid", "amount": 1}, {"type": "pass"}]
    common = {"game": act()["game"], "ply": 1, "deadline_ms": 500, "view": {}, "events": []}
    request = protocol.act_request(legal_actions=legal, default_action={"type": "pass"}, **common)
    assert request["default_action_index"] == 1
    protocol.validate("act_request", request)
    assert "default_action_index" not in protocol.act_request(legal_actions=legal, **common)
    with pytest.raises(ValueError, match="not among"):
        protocol.act_request(legal_actions=legal, default_action={"type": "fold"}, **common)


@pytest.mark.parametrize("index", [-1, 1.5, "0", None])
def test_the_schema_refuses_a_default_index_that_is_not_a_natural_number(index: object) -> None:
    request = act()
    request["default_action_index"] = index
    with pytest.raises(ValueError, match="default_action_index"):
        protocol.validate("act_request", request)


# ------------------------------------------------------------------ replies
def test_an_action_reply_returns_the_referees_copy_and_its_index() -> None:
    request = act()
    reply = {"request_id": request["request_id"], "action": {"amount": 2, "type": "bid"}}
    action, index = parse_act_reply(reply, request)
    assert (action, index) == (LEGAL[1], 1)
    assert action is request["legal_actions"][1]


def test_an_index_reply_returns_that_action() -> None:
    request = act()
    reply = {"request_id": request["request_id"], "action_index": 2}
    action, index = parse_act_reply(reply, request)
    assert (action, index) == ({"type": "pass"}, 2)


def test_unknown_reply_fields_are_ignored() -> None:
    request = act()
    reply = {"request_id": request["request_id"], "action_index": 0, "note": "thinking..."}
    assert parse_act_reply(reply, request)[1] == 0


@pytest.mark.parametrize(
    "reply",
    [
        [],
        {"action_index": 0},
        {"action_index": 0, "action": {"type": "pass"}},
        {"move": "pass"},
        {"action_index": -1},
        {"action_index": "0"},
        {"action_index": True},
        {"action_index": 0.0},
        {"action": {"amount": 1}},
        {"action": "pass"},
    ],
    ids=[
        "not an object",
        "no request_id",
        "both",
        "neither",
        "negative index",
        "string index",
        "boolean index",
        "decimal index",
        "action without type",
        "action not an object",
    ],
)
def test_malformed_replies_are_bad_schema(reply: object) -> None:
    request = act()
    if isinstance(reply, dict) and reply != {"action_index": 0}:  # all but "no request_id"
        reply = {"request_id": request["request_id"], **reply}
    with pytest.raises(ProtocolFault) as caught:
        parse_act_reply(reply, request)
    assert caught.value.kind == "bad_schema"
    assert caught.value.detail


def test_a_reply_for_another_request_is_wrong_request_id() -> None:
    with pytest.raises(ProtocolFault) as caught:
        parse_act_reply({"request_id": "other", "action_index": 0}, act(request_id="mine"))
    assert caught.value.kind == "wrong_request_id"
    assert "'mine'" in caught.value.detail


@pytest.mark.parametrize(
    "choice",
    [
        {"action_index": 3},
        {"action": {"type": "bid", "amount": 3}},
        {"action": {"type": "bid", "amount": True}},
        {"action": {"type": "bid", "amount": 1, "extra": 0}},
    ],
    ids=["index past the end", "not listed", "true is not 1", "extra key"],
)
def test_choices_outside_the_legal_actions_are_illegal(choice: dict) -> None:
    request = act()
    with pytest.raises(ProtocolFault) as caught:
        parse_act_reply({"request_id": request["request_id"], **choice}, request)
    assert caught.value.kind == "illegal_action"


def test_a_float_equal_to_an_integer_is_the_same_json_number() -> None:
    request = act()
    reply = {"request_id": request["request_id"], "action": {"type": "bid", "amount": 2.0}}
    assert parse_act_reply(reply, request) == (LEGAL[1], 1)


def test_the_engine_may_explain_an_illegal_action() -> None:
    request = act()
    reply = {"request_id": request["request_id"], "action": {"type": "bid", "amount": 40}}
    with pytest.raises(ProtocolFault, match="only 31 pesos"):
        parse_act_reply(reply, request, explain=lambda a: f"bid {a['amount']}: only 31 pesos")


def test_ping_replies_give_name_and_version() -> None:
    request = protocol.ping_request()
    reply = {"request_id": request["request_id"], "name": "b", "version": "3", "protocol": 1}
    assert parse_ping_reply(reply, request) == {"name": "b", "version": "3"}
    with pytest.raises(ProtocolFault) as caught:
        parse_ping_reply({"request_id": request["request_id"], "name": "b"}, request)
    assert caught.value.kind == "bad_schema"
    with pytest.raises(ProtocolFault) as caught:
        parse_ping_reply({"request_id": "x", "name": "b", "version": "1"}, request)
    assert caught.value.kind == "wrong_request_id"


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        (1, 1.0, True),
        (True, 1, False),
        (False, 0, False),
        (None, None, True),
        ({"a": [1, {"b": "x"}]}, {"a": [1, {"b": "x"}]}, True),
        ({"a": [1, 2]}, {"a": [2, 1]}, False),
        ({"a": 1}, {"a": 1, "b": None}, False),
        ("1", 1, False),
    ],
)
def test_json_equal(a: object, b: object, equal: bool) -> None:
    assert protocol.json_equal(a, b) is equal


def test_the_documented_act_exchange_is_valid() -> None:
    """The complete exchange in docs/bot-protocol.md matches the schemas."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "bot-protocol.md").read_text()
    section = doc.split("## A complete act exchange", 1)[1]
    request = json.loads(section.split("```json\n", 1)[1].split("```", 1)[0])
    protocol.validate("act_request", request)
    reply_line = next(line for line in section.splitlines() if '"action_index": 2}' in line)
    action, index = parse_act_reply(json.loads(reply_line), request)
    assert (action, index) == ({"type": "send", "to": "Rotterdam"}, 2)

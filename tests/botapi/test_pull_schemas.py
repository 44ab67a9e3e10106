"""The JSON Schemas of the pull API, and the documented example exchanges of every game.

``docs/bot-protocol.md`` shows, per game, a start request, one act request
with its reply and the finish request. They come from real engine
positions: the test rebuilds each one the same way (every seat played by
the greedy example bot, chance by ``Dealer(seed)``) and requires the
documented messages to equal the rebuilt ones and to match their schemas.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from harbormaster_bot import Turn
from harbormaster_bot.examples.greedy import greedy_bot
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from rest_framework.test import APIClient

import engines
from botapi import protocol
from botapi.services import bots as services
from engines import CHANCE, Dealer
from games.referee import statecache
from games.services import create_game
from tests.factories import BotFactory

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "bot-protocol.md"
PULL_SCHEMAS = {
    "turns": "pull-turns-response.schema.json",
    "move_request": "pull-move-request.schema.json",
    "move_response": "pull-move-response.schema.json",
    "error": "pull-error.schema.json",
}
PLAYERS = ["alice/my-bot", "local-play/greedy", "local-play/random"]


def validator(filename: str) -> Draft202012Validator:
    resources = []
    for path in sorted(protocol.SCHEMA_DIR.glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents)))
    schema = json.loads((protocol.SCHEMA_DIR / filename).read_text(encoding="utf-8"))
    return Draft202012Validator(schema, registry=Registry().with_resources(resources))


def assert_valid(name: str, message: Any) -> None:
    errors = [e.message for e in validator(PULL_SCHEMAS[name]).iter_errors(message)]
    assert not errors, errors


# ------------------------------------------------------------ pull schemas
@pytest.mark.parametrize("filename", sorted(PULL_SCHEMAS.values()))
def test_pull_schema_files_are_valid_draft_2020_12(filename: str) -> None:
    schema = json.loads((protocol.SCHEMA_DIR / filename).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith("/" + filename)


@pytest.mark.parametrize(
    ("body", "valid"),
    [
        ({"ply": 3, "action_index": 0}, True),
        ({"ply": 3, "action": {"type": "pass"}, "request_id": "game-1-ply-3"}, True),
        ({"ply": 3}, False),
        ({"ply": 3, "action_index": 0, "action": {"type": "pass"}}, False),
        ({"ply": -1, "action_index": 0}, False),
        ({"action_index": 0}, False),
        ({"ply": 3, "action": {"amount": 2}}, False),
    ],
)
def test_the_move_request_schema(body: dict, valid: bool) -> None:
    errors = list(validator(PULL_SCHEMAS["move_request"]).iter_errors(body))
    assert (not errors) is valid, errors


@pytest.mark.django_db(transaction=True)
def test_real_pull_answers_match_their_schemas(settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    bots = [BotFactory(mode="pull", endpoint_url="") for _ in range(3)]
    clients = []
    for bot in bots:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bot {services.rotate_pull_token(bot)}")
        clients.append(client)
    game = create_game("manila", [b.competitor for b in bots], time_bank_ms=5000)
    answers = [c.get("/api/v1/bots/me/turns").json() for c in clients]
    for answer in answers:
        assert_valid("turns", answer)
    index, turns = next((i, a) for i, a in enumerate(answers) if a)
    game.refresh_from_db()
    state = statecache.load_state(game)
    seat = turns[0]["game"]["seat"]
    assert turns[0]["legal_actions"][turns[0]["default_action_index"]] == state.default_action(seat)
    body = {"ply": turns[0]["ply"], "action_index": 0, "request_id": turns[0]["request_id"]}
    assert_valid("move_request", body)
    stale = clients[index].post(
        f"/api/v1/games/{game.pk}/moves", {"ply": 0, "action_index": 0}, "json"
    )
    assert stale.status_code == 409
    assert_valid("error", stale.json())
    moved = clients[index].post(f"/api/v1/games/{game.pk}/moves", body, format="json")
    assert moved.status_code == 201
    assert_valid("move_response", moved.json())


# --------------------------------------------------- documented exchanges
@dataclass(frozen=True)
class Example:
    slug: str
    title: str
    game_id: int
    seed: str
    ply: int
    intro: str


EXAMPLES = [
    Example("manila", "Manila", 101, "doc-manila", 40,
            "Three players; the act request is the first decision of a seat at or after "
            "ply 40."),
    Example("batavia", "Batavia", 102, "doc-batavia", 40,
            "Three players; the act request is the first decision of a seat at or after "
            "ply 40."),
    Example("cargo_noir", "Cargo Noir", 103, "doc-cargo-noir", 60,
            "Three players; the act request is the first decision of a seat at or after "
            "ply 60."),
    Example("grog_island", "Grog Island", 104, "doc-grog-island", 40,
            "Three players; the act request is the first decision of a seat at or after "
            "ply 40."),
]  # fmt: skip


def example_exchange(example: Example) -> tuple[dict, dict, dict, dict]:
    """(start, act, reply, finish) of a game where the greedy bot plays every seat."""
    state = engines.get(example.slug).new_game(len(PLAYERS))
    dealer, bot = Dealer(example.seed), greedy_bot(example.slug)
    sent = [0] * len(PLAYERS)
    act = reply = None
    watched = None
    ply = 0
    while not state.is_over:
        seat = state.to_move[0]
        if seat == CHANCE:
            state.apply(seat, dealer.choose(state))
            ply += 1
            continue
        info = protocol.game_info(
            game_id=example.game_id, engine=state.engine, num_players=len(PLAYERS),
            options=state.options, seat=seat,
        )  # fmt: skip
        request = protocol.act_request(
            game=info, ply=ply, deadline_ms=2000, view=state.view(seat),
            legal_actions=state.legal_actions(seat), events=state.events[sent[seat]:],
            default_action=state.default_action(seat), request_id=f"{example.slug}-{ply}",
        )  # fmt: skip
        sent[seat] = len(state.events)
        index = bot.act(Turn(request=request, answer_by=float("inf")))
        if act is None and ply >= example.ply:
            act, watched = request, seat
            reply = {"request_id": request["request_id"], "action_index": index}
        state.apply(seat, request["legal_actions"][index])
        ply += 1
    assert act is not None and reply is not None and watched is not None
    info = dict(act["game"])
    start = protocol.start_request(game=info, players=PLAYERS, request_id=f"{example.slug}-start")
    finish = protocol.finish_request(
        game=info, outcome=state.outcome(), forfeited=[],
        events=state.events[sent[watched]:], request_id=f"{example.slug}-finish",
    )  # fmt: skip
    return start, act, reply, finish


def documented(example: Example) -> list[Any]:
    """The JSON blocks of the example's section: start, act, reply, finish."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split(f"\n### {example.title}\n", 1)[1].split("\n### ", 1)[0]
    section = section.split("\n## ", 1)[0]
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", section, re.DOTALL)]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.slug)
def test_the_documented_exchange_is_a_real_game(example: Example) -> None:
    start, act, reply, finish = documented(example)
    protocol.validate("start_request", start)
    protocol.validate("act_request", act)
    protocol.validate("finish_request", finish)
    action, _ = protocol.parse_act_reply(reply, act)
    assert action in act["legal_actions"]
    assert [start, act, reply, finish] == list(example_exchange(example))

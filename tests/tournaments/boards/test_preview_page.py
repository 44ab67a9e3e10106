"""The board preview page: a seeded position, its model in a JSON script tag, bad input refused."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.test import Client

from games.selectors import boards as board_models
from games.selectors.boards import board_model, random_position
from tests.engines.helpers import perturb_secrets


def model_of(html: str) -> dict:
    pattern = r'<script id="board-model" type="application/json">(.*?)</script>'
    found = re.search(pattern, html, re.S)
    assert found, "no board model in the page"
    return json.loads(found.group(1))


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.content[:300]
    return response.content.decode()


@pytest.mark.parametrize("slug", ["manila", "batavia"])
def test_preview_embeds_the_seats_model_and_loads_the_board(client: Client, slug: str) -> None:
    html = page(client, f"/boards/{slug}/?players=4&seed=3&plies=30&seat=1")
    state = random_position(slug, 4, 3, 30)
    assert model_of(html) == board_model(state, 1, playing=True)
    assert "/static/boards/board.js" in html
    assert f"/static/boards/{slug}.js" in html
    assert f"/static/boards/{slug}.css" in html


def test_the_spectator_gets_no_private_part_and_no_actions(client: Client) -> None:
    model = model_of(page(client, "/boards/manila/?players=3&seed=5&plies=8"))
    assert model["seat"] is None
    assert "private" not in model["view"]
    assert model["legal"] == []


def test_the_seat_to_move_gets_every_legal_action_with_its_description(client: Client) -> None:
    model = model_of(page(client, "/boards/manila/?players=3&seed=5&plies=8&seat=2"))
    state = random_position("manila", 3, 5, 8)
    assert state.to_move == [2]
    assert [e["action"] for e in model["legal"]] == state.legal_actions(2)
    assert model["legal"][0]["text"] == state.engine.describe(state.legal_actions(2)[0])


@pytest.mark.parametrize(("slug", "seat"), [("manila", 0), ("manila", None), ("batavia", 2)])
def test_other_seats_secrets_never_reach_the_page(client, monkeypatch, slug, seat) -> None:
    """The whole page is the same whatever the other seats' hidden parts are."""
    url = f"/boards/{slug}/?players=4&seed=9&plies=120&seat={'' if seat is None else seat}"
    honest = page(client, url)
    real = board_models.random_position
    rng = random.Random(4)
    for _ in range(3):
        monkeypatch.setattr(
            board_models,
            "random_position",
            lambda *args: perturb_secrets(real(*args), seat, rng),
        )
        assert page(client, url) == honest


def test_own_hand_is_on_the_page_but_not_another_seats(client: Client) -> None:
    """Batavia: seat 0's hand is in its page; the spectator's page has no hand at all."""
    state = random_position("batavia", 3, 7, 20)
    own = model_of(page(client, "/boards/batavia/?players=3&seed=7&plies=20&seat=0"))
    assert own["view"]["private"] == state.private[0]
    watcher = model_of(page(client, "/boards/batavia/?players=3&seed=7&plies=20"))
    assert "private" not in watcher["view"]
    assert '"hand":' not in json.dumps(watcher)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("players=9", "players must be between 3 and 5, not 9"),
        ("players=x", "players must be a whole number, not 'x'"),
        ("seed=-1", "seed must be between"),
        ("plies=999999", "plies must be between 0 and 5000"),
        ("players=3&seat=3", "seat must be between 0 and 2, not 3"),
        ("seat=one", "seat must be a whole number"),
    ],
)
def test_bad_parameters_get_a_clear_error(client: Client, query: str, message: str) -> None:
    response = client.get(f"/boards/manila/?{query}")
    assert response.status_code == 400
    assert message in response.content.decode()


def test_an_unknown_engine_is_not_found(client: Client) -> None:
    response = client.get("/boards/chess/")
    assert response.status_code == 404
    assert "unknown engine 'chess'" in response.content.decode()

"""A user refused a third game with an example bot is told it is the example bots' share.

A new bot author meets the share the first time they start games with the
example bots in parallel; the 409 says why, not just "a bot is busy".
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from botapi.selectors.capacity import challenger_share
from botapi.services import bots as services
from games.selectors.rating_rules import DEFAULT_EXAMPLE_BOTS_USERNAME
from tests.botapi.test_capacity_share import bot_of, challenge
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_refusal_names_the_example_bots_share() -> None:
    house = UserFactory(username=DEFAULT_EXAMPLE_BOTS_USERNAME, password=None)
    greedy = bot_of(house, name="greedy", max_concurrent_games=4)
    bob = UserFactory(username="bob", password=None)
    assert [challenge(bob, greedy).status_code for _ in range(2)] == [201, 201]
    refused = challenge(bob, greedy)
    assert refused.status_code == 409
    assert refused.json() == {
        "detail": (
            "a bot is busy for you: you already play 2 of examples/greedy's 4 games at once; "
            "wait for one of them to finish (the example bots are shared by every user: each "
            "user may play at most 2 games at once with each one; seat another example bot, "
            "or a bot of your own, where only its own limit applies)"
        ),
        "code": "bot_share_used",
    }


def test_the_docs_give_the_share_of_an_example_bot() -> None:
    """The pages a new author reads say how many games at once: half the demo's limit."""
    limit = inspect.signature(services.register_bot).parameters["max_concurrent_games"].default
    share = challenger_share(limit)
    root = Path(__file__).resolve().parents[2]
    for page in ("README.md", "sdk/python/README.md", "sdk/js/README.md"):
        text = " ".join((root / page).read_text(encoding="utf-8").split())
        assert f"at most {share} games at once" in text, page

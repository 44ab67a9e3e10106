"""Lobby fixtures: people with accounts, the house (example) bots, other owners' bots.

Games a full table creates are made, not played: no referee run and no start
message to the bots' fake endpoints, so a test sees the game exactly as the
table made it.
"""

from __future__ import annotations

from typing import Any

import pytest

from botapi.models import Bot
from games import services as creation
from games.models import Game, Seat
from games.referee import turns as players
from games.selectors.rating_rules import DEFAULT_EXAMPLE_BOTS_USERNAME
from lobby.models import LobbySeat, LobbyTable
from people import services as people
from tests.factories import BotFactory, UserFactory

ALL = ["manila", "batavia", "cargo_noir", "grog_island"]


@pytest.fixture(autouse=True)
def games_stay_put(monkeypatch) -> None:
    monkeypatch.setattr(creation, "schedule_advance", lambda game_id: None)
    monkeypatch.setattr(players, "game_started", lambda game: None)


def person(username: str, *, consents: bool = False) -> Any:
    """A user with their profile and person competitor; consent to bot opponents as given."""
    user = UserFactory(username=username, password=None)
    people.set_consent(user, consents)
    return user


@pytest.fixture
def host():
    return person("hana")


@pytest.fixture
def guest():
    return person("gus")


@pytest.fixture
def house():
    return UserFactory(username=DEFAULT_EXAMPLE_BOTS_USERNAME, password=None)


@pytest.fixture
def greedy(house) -> Bot:
    return BotFactory(owner=house, name="greedy", engines=ALL, visibility="private")


@pytest.fixture
def randomly(house) -> Bot:
    return BotFactory(owner=house, name="random", engines=ALL, visibility="private")


@pytest.fixture
def stranger():
    return UserFactory(username="olga", password=None)


def bot(owner, name: str, **fields) -> Bot:
    fields.setdefault("engines", ["manila"])
    return BotFactory(owner=owner, name=name, **fields)


def snapshot() -> tuple:
    """Everything a lobby action may write: tables, seats, games and their seats."""
    return (
        list(
            LobbyTable.objects.order_by("pk").values_list(
                "pk", "status", "rated", "game_id", "start_problem", "num_players"
            )
        ),
        list(
            LobbySeat.objects.order_by("table_id", "position").values_list(
                "table_id", "position", "competitor_id", "added_by_id"
            )
        ),
        list(Game.objects.order_by("pk").values_list("pk", "status")),
        list(Seat.objects.order_by("pk").values_list("game_id", "position", "competitor_id")),
    )


def seat_names(table: LobbyTable) -> list[str | None]:
    return [
        seat.competitor.name if seat.competitor else None
        for seat in table.seats.select_related("competitor").order_by("position")
    ]

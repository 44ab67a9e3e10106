"""A bot open to others shares its capacity fairly (issue 19, ``botapi.selectors.capacity``).

No single challenger may hold more than their share of another owner's bot
(half its games at once, rounded up), the others together leave its owner
a slot, and the house bots count events (tournaments, the arena) apart from
the games users make, so users' challenges never make them refuse an event.
Creation runs inside the test's transaction, so the referee never starts.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, transaction
from rest_framework.test import APIClient

from botapi.models import Bot
from botapi.selectors.capacity import BotAtCapacity, BotShareUsed, check_capacity
from games.models import Game, Move, Seat
from games.selectors.rating_rules import DEFAULT_EXAMPLE_BOTS_USERNAME
from games.services import create_game
from tests.factories import BotFactory, CompetitorFactory, UserFactory

GAMES = "/api/v1/games/"


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def db_snapshot() -> tuple[int, int, int]:
    return Game.objects.count(), Seat.objects.count(), Move.objects.count()


def bot_of(owner, **fields) -> Bot:
    return BotFactory(owner=owner, engines=["manila"], **fields)


def challenge(user, bot: Bot) -> Any:
    """``user`` seats ``bot`` between a bot of their own and a third owner's open bot."""
    seats = [bot_of(user), bot, bot_of(UserFactory(password=None), visibility="challenge")]
    return client_of(user).post(
        GAMES, {"engine": "manila", "seats": [{"bot": b.pk} for b in seats]}, format="json"
    )


@pytest.fixture
def users():
    return {name: UserFactory(username=name, password=None) for name in ("alice", "bob", "carol")}


@pytest.mark.django_db
def test_one_challenger_cannot_take_every_slot_and_the_next_user_still_plays(users) -> None:
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    duelist = bot_of(alice, name="duelist", visibility="challenge", max_concurrent_games=4)
    for _ in range(2):
        assert challenge(bob, duelist).status_code == 201
    before = db_snapshot()
    third = challenge(bob, duelist)
    assert third.status_code == 409, third.json()
    assert third.json()["code"] == "bot_share_used"
    assert third.json()["detail"] == (
        "a bot is busy for you: you already play 2 of alice/duelist's 4 games at once; "
        "wait for one of them to finish"
    )
    assert db_snapshot() == before
    assert challenge(carol, duelist).status_code == 201, "the next user still gets a game"


@pytest.mark.django_db
def test_the_owner_always_keeps_a_slot(users) -> None:
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    dave = UserFactory(username="dave", password=None)
    duelist = bot_of(alice, name="duelist", visibility="challenge", max_concurrent_games=4)
    for user in (bob, bob, carol):
        assert challenge(user, duelist).status_code == 201
    refused = challenge(dave, duelist)
    assert refused.status_code == 409
    assert refused.json()["code"] == "bot_share_used"
    assert "its last free game is kept for its owner" in refused.json()["detail"]
    seats = [{"bot": bot.pk} for bot in (duelist, bot_of(alice), bot_of(alice))]
    own = client_of(alice).post(GAMES, {"engine": "manila", "seats": seats}, format="json")
    assert own.status_code == 201, own.json()
    full = challenge(carol, duelist)
    assert full.status_code == 409 and full.json()["code"] == "bot_at_capacity"


@pytest.mark.django_db
def test_a_finished_game_gives_the_challenger_their_share_back(users) -> None:
    alice, bob = users["alice"], users["bob"]
    duelist = bot_of(alice, visibility="challenge", max_concurrent_games=2)
    first = challenge(bob, duelist)
    assert first.status_code == 201
    assert challenge(bob, duelist).status_code == 409
    Game.objects.filter(pk=first.json()["id"]).update(status=Game.Status.FINISHED)
    assert challenge(bob, duelist).status_code == 201


@pytest.mark.django_db
def test_a_monopolised_house_bot_still_takes_a_second_users_game(users) -> None:
    house = UserFactory(username=DEFAULT_EXAMPLE_BOTS_USERNAME, password=None)
    greedy = bot_of(house, name="greedy", max_concurrent_games=4)
    bob, carol = users["bob"], users["carol"]
    answers = [challenge(bob, greedy) for _ in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 409, 409]
    assert answers[-1].json()["code"] == "bot_share_used"
    assert "examples/greedy" in answers[-1].json()["detail"]
    assert challenge(carol, greedy).status_code == 201


@pytest.mark.django_db
def test_users_games_never_make_a_house_bot_refuse_an_event(users) -> None:
    """Tournaments and the arena (``purpose="event"``) count apart on the house bots."""
    house = UserFactory(username=DEFAULT_EXAMPLE_BOTS_USERNAME, password=None)
    greedy = bot_of(house, max_concurrent_games=2)
    assert challenge(users["bob"], greedy).status_code == 201
    create_game("manila", [greedy.competitor, *CompetitorFactory.create_batch(2)])  # the demo
    assert challenge(users["carol"], greedy).json()["code"] == "bot_at_capacity"
    people = CompetitorFactory.create_batch(2)
    for _ in range(2):
        create_game("manila", [greedy.competitor, *people], purpose="event")
    with pytest.raises(BotAtCapacity):
        create_game("manila", [greedy.competitor, *people], purpose="event")


@pytest.mark.django_db
def test_a_users_own_bot_counts_every_game_against_its_one_limit(users) -> None:
    """Only the house bots count events apart: a user's bot's limit is its server's."""
    duelist = bot_of(users["alice"], visibility="challenge", max_concurrent_games=2)
    assert challenge(users["bob"], duelist).status_code == 201
    create_game("manila", [duelist.competitor, *CompetitorFactory.create_batch(2)], purpose="event")
    with pytest.raises(BotAtCapacity):
        create_game(
            "manila", [duelist.competitor, *CompetitorFactory.create_batch(2)], purpose="event"
        )


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_one_challenger_racing_for_their_last_share_slot_gets_one_game(users) -> None:
    """The share is counted under the bot's row lock, like the limit itself."""
    assert connection.vendor == "postgresql"
    duelist = bot_of(users["alice"], visibility="challenge", max_concurrent_games=2)
    bob = users["bob"]
    barrier = threading.Barrier(2)
    results: list[str] = []

    def creator() -> None:
        try:
            barrier.wait()
            with transaction.atomic():
                check_capacity([duelist.competitor], created_by=bob)
                game = Game.objects.create(
                    engine="manila", num_players=1, status=Game.Status.RUNNING, created_by=bob
                )
                Seat.objects.create(game=game, position=0, competitor=duelist.competitor)
            results.append("created")
        except BotShareUsed:
            results.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=creator) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["created", "refused"]

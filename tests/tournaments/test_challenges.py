"""Challenges: games that seat bots of different owners through POST /api/v1/games/.

A user seats their own bots (any visibility), the example bots, and other
owners' bots open to challenges; such a game is a challenge and is unrated.
Creation runs inside the test's transaction, so the referee never starts.
"""

from __future__ import annotations

import json

import pytest

from botapi.models import Bot
from games.models import Game, Move
from games.selectors.rating_rules import DEFAULT_EXAMPLE_BOTS_USERNAME
from tests.factories import BotFactory, UserFactory
from tests.tournaments.game_requests import body, client_of, db_snapshot
from tests.tournaments.played import played_game

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"
PRIVATE, CHALLENGE, TOURNAMENT = (
    Bot.Visibility.PRIVATE,
    Bot.Visibility.CHALLENGE,
    Bot.Visibility.TOURNAMENT,
)


@pytest.fixture
def alice():
    return UserFactory(username="alice", password=None)


@pytest.fixture
def bob():
    return UserFactory(username="bob", password=None)


def bot_of(owner, visibility=PRIVATE, **fields) -> Bot:
    return BotFactory(owner=owner, visibility=visibility, engines=["manila"], **fields)


# ---------------------------------------------------------------- seating
def test_a_challenge_seats_another_owners_open_bot_and_is_unrated(alice, bob) -> None:
    open_bot = bot_of(alice, CHALLENGE)
    mine = [bot_of(bob), bot_of(bob, TOURNAMENT)]
    answer = client_of(bob).post(GAMES, body([mine[0], open_bot, mine[1]]), format="json")
    assert answer.status_code == 201, answer.json()
    game = Game.objects.get(pk=answer.json()["id"])
    assert answer.json()["rated"] is False and game.rated is False
    assert list(game.seats.values_list("competitor_id", flat=True)) == [
        mine[0].competitor_id,
        open_bot.competitor_id,
        mine[1].competitor_id,
    ]


def test_a_challenge_asked_to_be_rated_is_refused_on_rated_and_writes_nothing(alice, bob) -> None:
    open_bot = bot_of(alice, CHALLENGE)
    before = db_snapshot()
    answer = client_of(bob).post(
        GAMES, body([bot_of(bob), open_bot, bot_of(bob)], rated=True), format="json"
    )
    assert answer.status_code == 400
    assert answer.json() == {
        "rated": [
            f"a game seating another owner's bot ({open_bot.competitor.name}) is a challenge, "
            "and challenges are unrated; set rated to false or leave it out"
        ]
    }
    assert db_snapshot() == before
    explicit = client_of(bob).post(
        GAMES, body([bot_of(bob), open_bot, bot_of(bob)], rated=False), format="json"
    )
    assert explicit.status_code == 201 and explicit.json()["rated"] is False


def test_a_challenge_with_a_chosen_seed_needs_no_rated_field(alice, bob) -> None:
    """The seed rule (a known seed cannot be rated) and the challenge rule agree."""
    open_bot = bot_of(alice, CHALLENGE)
    answer = client_of(bob).post(
        GAMES, body([bot_of(bob), open_bot, bot_of(bob)], seed="known"), format="json"
    )
    assert answer.status_code == 201, answer.json()
    assert Game.objects.get(pk=answer.json()["id"]).seed == "known"


@pytest.mark.parametrize("own_visibility", [PRIVATE, TOURNAMENT])
def test_own_and_house_bots_stay_rated_by_default_whatever_their_visibility(
    bob, own_visibility
) -> None:
    """One own bot: a table where one owner holds several seats is unrated (test_rating_farming)."""
    house = UserFactory(username=DEFAULT_EXAMPLE_BOTS_USERNAME, password=None)
    seats = [bot_of(bob, own_visibility), bot_of(house, PRIVATE), bot_of(house, CHALLENGE)]
    answer = client_of(bob).post(GAMES, body(seats), format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["rated"] is True


def test_a_user_may_pit_two_other_owners_open_bots_against_each_other(alice, bob) -> None:
    carol = UserFactory(username="carol", password=None)
    seats = [bot_of(alice, CHALLENGE), bot_of(bob, CHALLENGE), bot_of(alice, CHALLENGE)]
    answer = client_of(carol).post(GAMES, body(seats), format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["rated"] is False


def test_a_tournament_only_bot_cannot_be_challenged(alice, bob) -> None:
    arena_bot = bot_of(alice, TOURNAMENT)
    before = db_snapshot()
    answer = client_of(bob).post(
        GAMES, body([bot_of(bob), bot_of(bob), arena_bot], rated=False), format="json"
    )
    assert answer.status_code == 400
    assert answer.json() == {
        "seats": {
            "2": {
                "bot": [
                    f"bot alice/{arena_bot.name} plays only in tournaments and the arena; "
                    "its owner does not accept challenges"
                ]
            }
        }
    }
    assert db_snapshot() == before


def refusal(client, seat_bot_id: int, fillers) -> list[str]:
    answer = client.post(
        GAMES,
        {"engine": "manila", "seats": [{"bot": seat_bot_id}, *({"bot": b.pk} for b in fillers)]},
        format="json",
    )
    assert answer.status_code == 400
    return answer.json()["seats"]["0"]["bot"]


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"status": "suspended", "status_reason": "secret plans"},
        {"status": "disabled", "status_reason": "abuse"},
        {"engines": ["batavia"]},
    ],
    ids=["active", "suspended", "disabled", "other-engine"],
)
def test_another_owners_private_bot_looks_exactly_like_a_missing_one(alice, bob, fields) -> None:
    hidden = BotFactory(owner=alice, visibility=PRIVATE, **{"engines": ["manila"], **fields})
    missing_id = Bot.objects.order_by("-pk").first().pk + 1000
    fillers = [bot_of(bob), bot_of(bob)]
    bob_api = client_of(bob)
    said = refusal(bob_api, hidden.pk, fillers)
    said_missing = refusal(bob_api, missing_id, fillers)
    assert said == [
        f"no bot {hidden.pk} among yours, the example bots or the bots open to challenges"
    ]
    assert said == [text.replace(str(missing_id), str(hidden.pk)) for text in said_missing]
    assert "alice" not in json.dumps(said)


def test_another_owners_open_bot_shows_its_status_but_not_its_reason(alice, bob) -> None:
    resting = bot_of(alice, CHALLENGE, status="suspended", status_reason="alice's private note")
    said = refusal(client_of(bob), resting.pk, [bot_of(bob), bot_of(bob)])
    assert said == [f"bot {resting.competitor.name} is suspended"]
    # its owner sees the reason, as before
    own = refusal(client_of(alice), resting.pk, [bot_of(alice), bot_of(alice)])
    assert own == [f"bot {resting.competitor.name} is suspended: alice's private note"]


def test_an_open_bot_must_still_play_the_engine(alice, bob) -> None:
    batavia_only = BotFactory(owner=alice, visibility=CHALLENGE, engines=["batavia"])
    said = refusal(client_of(bob), batavia_only.pk, [bot_of(bob), bot_of(bob)])
    assert said == [f"bot {batavia_only.competitor.name} does not play manila (it plays batavia)"]


# --------------------------------------------------------------- capacity
def test_capacity_holds_whoever_creates_the_game(alice, bob) -> None:
    """Bob's challenge fills Alice's bot; then Carol's challenge and Alice's own game get 409."""
    carol = UserFactory(username="carol", password=None)
    busy = bot_of(alice, CHALLENGE, max_concurrent_games=1)
    first = client_of(bob).post(GAMES, body([bot_of(bob), busy, bot_of(bob)]), format="json")
    assert first.status_code == 201, first.json()
    for creator in (carol, alice):
        before = db_snapshot()
        answer = client_of(creator).post(
            GAMES, body([bot_of(creator), busy, bot_of(creator)]), format="json"
        )
        assert answer.status_code == 409, answer.json()
        assert answer.json()["code"] == "bot_at_capacity"
        assert f"alice/{busy.name} (1)" in answer.json()["detail"]
        assert db_snapshot() == before
    # a finished game frees the slot again, for anyone
    Game.objects.filter(pk=first.json()["id"]).update(status=Game.Status.FINISHED)
    again = client_of(carol).post(GAMES, body([bot_of(carol), busy, bot_of(carol)]), format="json")
    assert again.status_code == 201, again.json()


def test_the_owners_own_games_count_against_a_challengers_game(alice, bob) -> None:
    busy = bot_of(alice, CHALLENGE, max_concurrent_games=1)
    played_game("manila", [busy.competitor, bot_of(alice).competitor, bot_of(alice).competitor],
                plies=3)  # fmt: skip
    answer = client_of(bob).post(GAMES, body([bot_of(bob), busy, bot_of(bob)]), format="json")
    assert answer.status_code == 409
    assert answer.json()["code"] == "bot_at_capacity"


# ------------------------------------------------------------ owners' views
def test_each_owner_sees_the_challenge_game_and_only_their_own_diagnostics(alice, bob) -> None:
    challenged = bot_of(alice, CHALLENGE)
    challenger = bot_of(bob)
    other = bot_of(bob)
    answer = client_of(bob).post(GAMES, body([challenger, challenged, other]), format="json")
    game = Game.objects.get(pk=answer.json()["id"])
    diagnostics = {
        0: ("bob-latency", 11, "bob-secret-reply"),
        1: ("alice-fault", 22, "alice-secret-reply"),
        2: ("bob-other-fault", 33, "bob-other-secret-reply"),
    }
    for ply, (seat, (fault, latency, reply)) in enumerate(diagnostics.items()):
        Move.objects.create(
            game=game,
            ply=ply,
            seat=seat,
            action={"type": "pass"},
            source="default",
            latency_ms=latency,
            fault_kind="timeout",
            fault_detail=fault,
            request_excerpt=f"request-to-{reply}",
            reply_excerpt=reply,
        )
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)

    alice_games = client_of(alice).get(f"/api/v1/bots/{challenged.pk}/games/").json()
    assert [g["id"] for g in alice_games["results"]] == [game.pk]
    assert [s["this_bot"] for s in alice_games["results"][0]["seats"]] == [False, True, False]

    def log(user, bot) -> tuple[str, list[dict]]:
        response = client_of(user).get(f"/api/v1/bots/{bot.pk}/games/{game.pk}/moves/")
        assert response.status_code == 200
        return response.content.decode(), response.json()["results"]

    text, entries = log(alice, challenged)
    assert [e["latency_ms"] for e in entries] == [None, 22, None]
    assert "alice-secret-reply" in text
    for secret in ("bob-latency", "bob-secret-reply", "bob-other-fault", "bob-other-secret-reply"):
        assert secret not in text

    text, entries = log(bob, challenger)
    assert [e["latency_ms"] for e in entries] == [11, None, None]
    for secret in ("alice-fault", "alice-secret-reply"):
        assert secret not in text

    # and neither may open the other's bot through the owner's API
    assert client_of(bob).get(f"/api/v1/bots/{challenged.pk}/games/").status_code == 404
    assert client_of(alice).get(f"/api/v1/bots/{challenger.pk}/games/").status_code == 404

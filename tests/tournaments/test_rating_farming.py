"""Rating farming: a game where one owner holds several seats is unrated (issue 19).

A user's bots against each other (or a bot against itself) are all on the
owner's side: one can lose on purpose and lift the other up the leaderboard.
Such a game is unrated wherever it is made (the game API, ``create_game``),
a request for a rated one is refused naming the bots, and the game page and
the API record say why a game is unrated. The house bots (the example bots)
are exempt, and an organiser's event may rate such a game.
Creation runs inside the test's transaction, so the referee never starts.
"""

from __future__ import annotations

import pytest

from botapi.models import Bot
from games.models import Game
from games.selectors.rating_rules import DEFAULT_EXAMPLE_BOTS_USERNAME
from games.services import GameSetupError, create_game
from ratings.models import Rating
from ratings.services.apply import apply_game_result
from tests.factories import BotFactory, CompetitorFactory, UserFactory
from tests.tournaments.game_requests import body, client_of, db_snapshot
from tests.tournaments.played import played_game

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"
SAME_OWNER = "same_owner"


def bot_of(owner, **fields) -> Bot:
    return BotFactory(owner=owner, engines=["manila"], **fields)


@pytest.fixture
def bob():
    return UserFactory(username="bob", password=None)


@pytest.fixture
def house():
    return UserFactory(username=DEFAULT_EXAMPLE_BOTS_USERNAME, password=None)


# ------------------------------------------------------------- the game API
def test_a_users_own_bots_against_each_other_make_an_unrated_game(bob, house) -> None:
    farmer, puppet = bot_of(bob), bot_of(bob)
    answer = client_of(bob).post(GAMES, body([farmer, bot_of(house), puppet]), format="json")
    assert answer.status_code == 201, answer.json()
    game = Game.objects.get(pk=answer.json()["id"])
    assert answer.json()["rated"] is False and game.rated is False
    assert answer.json()["unrated_reason"] == SAME_OWNER
    assert game.unrated_reason == SAME_OWNER
    assert game.created_by == bob


def test_a_bot_seated_twice_is_one_owner_holding_several_seats(bob, house) -> None:
    bot = bot_of(bob)
    answer = client_of(bob).post(GAMES, body([bot, bot_of(house), bot]), format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["rated"] is False
    assert answer.json()["unrated_reason"] == SAME_OWNER


def test_asking_for_a_rated_game_between_ones_own_bots_is_refused_naming_them(bob, house) -> None:
    farmer, puppet = bot_of(bob, name="farmer"), bot_of(bob, name="puppet")
    before = db_snapshot()
    answer = client_of(bob).post(
        GAMES, body([farmer, puppet, bot_of(house)], rated=True), format="json"
    )
    assert answer.status_code == 400
    assert answer.json() == {
        "rated": [
            "one owner holds several seats (bob/farmer, bob/puppet), and such a game is "
            "unrated; set rated to false or leave it out"
        ]
    }
    assert db_snapshot() == before


def test_one_own_bot_against_the_house_bots_stays_rated(bob, house) -> None:
    seats = [bot_of(house), bot_of(bob), bot_of(house)]
    answer = client_of(bob).post(GAMES, body(seats, rated=True), format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["rated"] is True and answer.json()["unrated_reason"] is None
    default = client_of(bob).post(GAMES, body(seats), format="json")
    assert default.json()["rated"] is True


def test_the_house_bots_among_themselves_stay_rated(house) -> None:
    """The demo's ladder fills: the service's own bots are exempt."""
    game = create_game("manila", [bot_of(house).competitor for _ in range(3)])
    assert game.rated is True and game.unrated_reason == ""


def test_unrated_games_move_no_rating_and_leave_the_farmer_off_the_leaderboard(bob) -> None:
    farmer, puppet, other = bot_of(bob), bot_of(bob), bot_of(bob)
    competitors = [farmer.competitor, puppet.competitor, other.competitor]
    game = create_game("manila", competitors)
    finished = played_game("manila", competitors, rated=game.rated)
    assert apply_game_result(finished) == 0
    assert not Rating.objects.filter(competitor__in=competitors).exists()


# ------------------------------------------------------------ create_game
def test_create_game_makes_one_owners_table_unrated_and_refuses_rated_true(bob) -> None:
    competitors = [bot_of(bob).competitor, bot_of(bob).competitor, CompetitorFactory()]
    game = create_game("manila", competitors)
    assert (game.rated, game.unrated_reason) == (False, SAME_OWNER)
    before = db_snapshot()
    with pytest.raises(GameSetupError, match="one owner holds several seats"):
        create_game("manila", competitors, rated=True)
    assert db_snapshot() == before


def test_a_person_and_their_own_bot_share_an_owner(bob) -> None:
    """An owner is a user: the person in a seat, or the owner of the bot in it."""
    person = CompetitorFactory(kind="person", name="bob", user=bob)
    game = create_game("manila", [person, bot_of(bob).competitor, CompetitorFactory()])
    assert (game.rated, game.unrated_reason) == (False, SAME_OWNER)


def test_only_an_organisers_event_may_rate_one_owners_table(bob) -> None:
    competitors = [bot_of(bob).competitor, bot_of(bob).competitor, CompetitorFactory()]
    event = create_game("manila", competitors, purpose="event", allow_same_owner_rated=True)
    assert (event.rated, event.unrated_reason) == (True, "")
    with pytest.raises(GameSetupError, match="organiser's event"):
        create_game("manila", competitors, allow_same_owner_rated=True)


def test_a_game_made_unrated_by_choice_says_so(bob) -> None:
    competitors = CompetitorFactory.create_batch(3)
    seeded = create_game("manila", competitors, seed="known", rated=False)
    assert seeded.unrated_reason == "chosen_seed"
    chosen = create_game("manila", competitors, rated=False)
    assert chosen.unrated_reason == "creator"
    rated = create_game("manila", competitors)
    assert (rated.rated, rated.unrated_reason) == (True, "")


# ------------------------------------------------- the page and the record
@pytest.mark.parametrize(
    ("case", "reason", "words"),
    [
        ("same_owner", SAME_OWNER, "Unrated: one owner holds several seats"),
        ("challenge", "challenge", "Unrated: a challenge"),
        ("seed", "chosen_seed", "Unrated: chosen seed"),
    ],
)
def test_the_game_page_and_record_say_why_a_game_is_unrated(
    client, bob, house, case, reason, words
) -> None:
    alice = UserFactory(username="alice", password=None)
    seats = {
        "same_owner": [bot_of(bob), bot_of(bob), bot_of(house)],
        "challenge": [bot_of(bob), bot_of(alice, visibility="challenge"), bot_of(house)],
        "seed": [bot_of(bob), bot_of(house), bot_of(house)],
    }[case]
    extra = {"seed": "known", "rated": False} if case == "seed" else {}
    answer = client_of(bob).post(GAMES, body(seats, **extra), format="json")
    assert answer.status_code == 201, answer.json()
    game_id = answer.json()["id"]
    assert answer.json()["unrated_reason"] == reason
    assert client.get(f"{GAMES}{game_id}/").json()["unrated_reason"] == reason
    assert client.get(GAMES).json()["results"][0]["unrated_reason"] == reason
    page = client.get(f"/games/{game_id}/").content.decode()
    assert words in page


def test_a_rated_game_page_says_rated_and_gives_no_reason(client, bob, house) -> None:
    seats = [bot_of(bob), bot_of(house), bot_of(house)]
    answer = client_of(bob).post(GAMES, body(seats), format="json")
    assert answer.json()["rated"] is True
    page = client.get(f"/games/{answer.json()['id']}/").content.decode()
    assert "rated" in page and "Unrated:" not in page


def test_the_admin_shows_why_and_for_whom_a_game_was_made(admin_client, bob, house) -> None:
    seats = [bot_of(bob), bot_of(bob), bot_of(house)]
    answer = client_of(bob).post(GAMES, body(seats), format="json")
    page = admin_client.get(f"/admin/games/game/{answer.json()['id']}/change/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "one owner holds several seats" in text and "bob" in text


def test_another_person_at_a_users_table_is_no_challenge(bob) -> None:
    """People took their seats themselves (the lobby): only another owner's *bot* is challenged."""
    from django.contrib.auth import get_user_model

    ann = get_user_model().objects.create(username="ann")
    people = [
        CompetitorFactory(kind="person", name=user.username, user=user) for user in (bob, ann)
    ]
    game = create_game("cargo_noir", people, rated=True, created_by=bob)
    assert game.rated is True and game.unrated_reason == ""

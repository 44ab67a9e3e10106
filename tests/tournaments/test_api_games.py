"""The game API: create games between bots, read a game's public record.

Creation runs inside the test's transaction, so the referee (started on
commit) never moves: the new game is seen exactly as created. Recorded games
come from ``played_game``.
"""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

import engines
from botapi.seating import no_such_bot
from engines import CHANCE
from games.creation import GameSetupError, create_game
from games.models import Game, Move, Seat
from games.rating_rules import DEFAULT_EXAMPLE_BOTS_USERNAME
from tests.factories import BotFactory, CompetitorFactory, UserFactory
from tests.tournaments.played import played_game

pytestmark = pytest.mark.django_db


def bots_of(owner, count: int, engines_played=("manila",)):
    return [BotFactory(owner=owner, engines=list(engines_played)) for _ in range(count)]


def rated_table(user) -> list:
    """One bot of ``user`` and two example bots: a table that may be rated."""
    examples = UserFactory(username=DEFAULT_EXAMPLE_BOTS_USERNAME, password=None)
    return [*bots_of(user, 1), *bots_of(examples, 2)]


def body(seats, **fields):
    return {"engine": "manila", "seats": [{"bot": bot.pk} for bot in seats], **fields}


def db_snapshot() -> tuple[int, int, int]:
    return Game.objects.count(), Seat.objects.count(), Move.objects.count()


# ------------------------------------------------------------------ create
def test_create_seats_own_and_example_bots_and_hides_the_seed(api, user) -> None:
    examples = UserFactory(username=DEFAULT_EXAMPLE_BOTS_USERNAME, password=None)
    mine = bots_of(user, 2)
    example = bots_of(examples, 1)[0]
    answer = api.post(
        "/api/v1/games/",
        body([mine[0], example, mine[1]], move_time_ms=2000, time_bank_ms=1000),
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    data = answer.json()
    game = Game.objects.get(pk=data["id"])
    assert [s["competitor"] for s in data["seats"]] == [
        mine[0].competitor.name,
        example.competitor.name,
        mine[1].competitor.name,
    ]
    assert list(game.seats.values_list("competitor_id", flat=True)) == [
        mine[0].competitor_id,
        example.competitor_id,
        mine[1].competitor_id,
    ]
    assert data["status"] == "running"
    assert not game.rated, "two of the user's own bots: unrated (test_rating_farming)"
    assert (game.move_time_ms, game.time_bank_ms) == (2000, 1000)
    assert data["options"] == engines.get("manila").check_setup(3, {})
    assert data["seed"] is None and data["outcome"] is None
    assert data["seed_commitment"] == engines.seed_commitment(game.seed)
    assert len(game.seed) >= 32, "a random seed by default"
    assert game.seed not in answer.content.decode()


def test_a_chosen_seed_makes_an_unrated_game(api, user) -> None:
    answer = api.post(
        "/api/v1/games/", body(bots_of(user, 3), seed="my-dice", rated=False), format="json"
    )
    assert answer.status_code == 201
    game = Game.objects.get(pk=answer.json()["id"])
    assert game.seed == "my-dice" and not game.rated
    assert answer.json()["seed_commitment"] == engines.seed_commitment("my-dice")


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"engine": "chess"}, "engine", "unknown engine 'chess'"),
        ({"options": {"rounds": 3}}, "options", "unknown option(s) rounds"),
        ({"seed": "known-dice"}, "seed", "cannot be rated"),
        ({"move_time_ms": 0}, "move_time_ms", "greater than or equal to 100"),
        ({"time_bank_ms": -1}, "time_bank_ms", "greater than or equal to 0"),
        ({"rated": "perhaps"}, "rated", "valid boolean"),
        ({"colour": "red"}, "colour", "unknown field"),
        ({"seats": [{"robot": 1}]}, "seats", "unknown field"),
    ],
)
def test_validation_errors_name_the_field_and_write_nothing(
    api, user, change, field, words
) -> None:
    before = db_snapshot()
    answer = api.post("/api/v1/games/", {**body(rated_table(user)), **change}, format="json")
    assert answer.status_code == 400
    errors = answer.json()
    assert field in errors, errors
    assert words in json.dumps(errors[field])
    assert db_snapshot() == before


def test_too_few_seats_are_refused_on_seats(api, user) -> None:
    answer = api.post("/api/v1/games/", body(bots_of(user, 1)), format="json")
    assert answer.status_code == 400
    assert answer.json() == {"seats": ["Manila is for 3-5 players, not 1"]}


def test_another_users_bot_cannot_be_seated(api, user) -> None:
    mine = bots_of(user, 2)
    theirs = bots_of(UserFactory(password=None), 1)[0]
    before = db_snapshot()
    answer = api.post("/api/v1/games/", body([mine[0], theirs, mine[1]]), format="json")
    assert answer.status_code == 400
    assert answer.json() == {"seats": {"1": {"bot": [no_such_bot(theirs.pk)]}}}
    assert db_snapshot() == before
    missing = api.post(
        "/api/v1/games/", {"engine": "manila", "seats": [{"bot": 999_999}] * 3}, format="json"
    )
    assert missing.json()["seats"]["0"] == {"bot": [no_such_bot(999_999)]}, (
        "a missing bot and another user's bot look the same"
    )


def test_inactive_bots_and_bots_of_other_games_are_refused(api, user) -> None:
    mine = bots_of(user, 3)
    mine[0].status, mine[0].status_reason = "suspended", "on holiday"
    mine[0].save()
    mine[2].engines = ["batavia"]
    mine[2].save()
    answer = api.post("/api/v1/games/", body(mine), format="json")
    errors = answer.json()["seats"]
    assert set(errors) == {"0", "2"}
    assert errors["0"]["bot"] == [f"bot {mine[0].competitor.name} is suspended: on holiday"]
    assert "does not play manila (it plays batavia)" in errors["2"]["bot"][0]
    assert Game.objects.count() == 0


def bot_queries(queries) -> list[str]:
    return [q["sql"] for q in queries if '"botapi_bot"' in q["sql"]]


def test_a_seat_list_longer_than_any_engine_allows_is_refused_before_any_query(api, user) -> None:
    """20,000 seats once took 417 s: one bot lookup per seat before the count was checked."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from botapi.models import engine_slugs

    most = max(engines.get(slug).max_players for slug in engine_slugs())
    seats = [{"bot": n} for n in range(1, 20_001)]
    with CaptureQueriesContext(connection) as queries:
        answer = api.post("/api/v1/games/", {"engine": "manila", "seats": seats}, format="json")
    assert answer.status_code == 400
    assert answer.json() == {
        "seats": {"non_field_errors": [f"Ensure this field has no more than {most} elements."]}
    }
    assert len(queries) == 0, [q["sql"] for q in queries]


def test_the_seats_are_looked_up_in_one_query(api, user) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    examples = UserFactory(username=DEFAULT_EXAMPLE_BOTS_USERNAME, password=None)
    seated = [*bots_of(user, 1), *bots_of(examples, 4)]  # rated: one bot per owner
    with CaptureQueriesContext(connection) as queries:
        # valid seats; the chosen seed with rated=true is refused after the seats are checked
        answer = api.post("/api/v1/games/", body(seated, seed="s"), format="json")
    assert answer.status_code == 400 and list(answer.json()) == ["seed"]
    assert len(bot_queries(queries)) == 1, bot_queries(queries)


def test_options_with_more_keys_than_any_engine_has_are_refused(api, user) -> None:
    options = {f"option{n}": True for n in range(10_000)}
    answer = api.post("/api/v1/games/", body(bots_of(user, 3), options=options), format="json")
    assert answer.status_code == 400
    assert answer.json()["options"] == [
        "Ensure this object has no more than 32 keys (it has 10000)."
    ]


def test_creating_needs_a_user(user) -> None:
    answer = APIClient().post("/api/v1/games/", body(bots_of(user, 3)), format="json")
    assert answer.status_code == 401
    assert answer.json()["code"] == "not_authenticated"
    assert Game.objects.count() == 0


# ------------------------------------------------------------------ read
def test_a_running_game_shows_events_but_no_action_and_no_seed() -> None:
    game = played_game("manila", CompetitorFactory.create_batch(3), seed="secret-dice", plies=40)
    answer = APIClient().get(f"/api/v1/games/{game.pk}/")
    assert answer.status_code == 200
    data = answer.json()
    assert data["status"] == "running"
    assert data["seed"] is None and data["outcome"] is None
    assert data["seed_commitment"] == engines.seed_commitment("secret-dice")
    assert "secret-dice" not in answer.content.decode()
    assert [m["ply"] for m in data["moves"]] == list(range(40))
    assert all(m["action"] is None and m["description"] is None for m in data["moves"])
    assert all(s["rank"] is None and s["forfeited"] is None for s in data["seats"])
    # the public events are there, exactly the engine's (secret-free) event log
    state = engines.replay(
        "manila", 3, game.options, game.moves.order_by("ply").values_list("seat", "action")
    )
    assert [e for m in data["moves"] for e in m["events"]] == state.events
    # no chance action leaks, not even inside another field
    page = answer.content.decode()
    for action in game.moves.filter(seat=CHANCE).values_list("action", flat=True):
        assert json.dumps(action) not in page
    assert "Deal a" not in page


def test_a_finished_game_shows_everything() -> None:
    competitors = CompetitorFactory.create_batch(3)
    game = played_game("manila", competitors, seed="open-dice")
    data = APIClient().get(f"/api/v1/games/{game.pk}/").json()
    assert data["status"] == "finished" and data["seed"] == "open-dice"
    assert data["outcome"] == {"scores": game.outcome.scores, "ranks": game.outcome.ranks}
    assert [s["rank"] for s in data["seats"]] == game.outcome.ranks
    moves = list(game.moves.order_by("ply"))
    assert [m["action"] for m in data["moves"]] == [m.action for m in moves]
    rules = engines.get("manila")
    assert [m["description"] for m in data["moves"]] == [rules.describe(m.action) for m in moves]
    assert [m["chance"] for m in data["moves"]] == [m.seat == CHANCE for m in moves]


def test_an_aborted_game_keeps_its_seed() -> None:
    game = played_game("manila", CompetitorFactory.create_batch(3), seed="kept", plies=10)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    data = APIClient().get(f"/api/v1/games/{game.pk}/").json()
    assert data["seed"] is None and all(m["action"] is None for m in data["moves"])


def test_list_filters_by_engine_and_status() -> None:
    competitors = CompetitorFactory.create_batch(3)
    finished = played_game("manila", competitors, seed="a")
    running = played_game("manila", competitors, seed="b", plies=5)
    other = played_game("batavia", competitors, seed="c")
    client = APIClient()
    everything = client.get("/api/v1/games/").json()
    assert [g["id"] for g in everything["results"]] == [other.pk, running.pk, finished.pk]
    assert "moves" not in everything["results"][0]
    only = client.get("/api/v1/games/?engine=manila&status=finished").json()
    assert [g["id"] for g in only["results"]] == [finished.pk]
    bad = client.get("/api/v1/games/?engine=chess")
    assert bad.status_code == 400 and "engine" in bad.json()


def test_a_missing_game_is_404() -> None:
    answer = APIClient().get("/api/v1/games/424242/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"time_bank_ms": -1}, "time_bank_ms must be 0 or more"),
        ({"seed": ""}, "a seed has 1 to 100 characters"),
        ({"seed": "x" * 101}, "a seed has 1 to 100 characters"),
        ({"move_time_ms": 0}, "move_time_ms must be positive"),
    ],
)
def test_create_game_itself_refuses_bad_clocks_and_seeds(fields, words) -> None:
    with pytest.raises(GameSetupError, match=words):
        create_game("manila", CompetitorFactory.create_batch(3), **fields)
    assert Game.objects.count() == 0


def test_the_schema_documents_the_game_endpoints() -> None:
    import yaml

    schema = yaml.safe_load(APIClient().get("/api/v1/schema/").content)
    paths = schema["paths"]
    assert set(paths["/api/v1/games/"]) == {"get", "post"}
    assert set(paths["/api/v1/games/{id}/"]) == {"get"}
    assert set(paths["/api/v1/games/{id}/verify/"]) == {"get"}
    components = schema["components"]["schemas"]
    assert {"engine", "seats", "seed", "rated"} <= set(
        components["GameCreateRequest"]["properties"]
    )
    assert "moves" in components["GameDetail"]["properties"]
    assert "problems" in components["Verification"]["properties"]


def test_a_bot_playing_its_limit_of_games_is_refused_with_409(api, user) -> None:
    busy, *others = bots_of(user, 3)
    busy.max_concurrent_games = 1
    busy.save()
    played_game("manila", [busy.competitor, *(b.competitor for b in others)], plies=3)
    before = db_snapshot()
    answer = api.post("/api/v1/games/", body([*others, busy]), format="json")
    assert answer.status_code == 409
    assert answer.json()["code"] == "bot_at_capacity"
    assert f"{busy.name} (1)" in answer.json()["detail"]
    assert db_snapshot() == before


def test_a_bot_id_beyond_64_bits_is_a_400_not_a_database_error(api, user) -> None:
    """SQLite cannot even compare such a number (the embedded mode answered 500)."""
    answer = api.post(
        "/api/v1/games/", {"engine": "manila", "seats": [{"bot": 2**63}] * 3}, format="json"
    )
    assert answer.status_code == 400
    assert "bot" in answer.json()["seats"]["0"]

"""The lobby's services: making, joining and filling tables, and starting their games."""

from __future__ import annotations

import pytest

from games.models import Game
from lobby import services
from lobby.models import LobbyTable
from lobby.services import LobbyError
from tests.factories import GameFactory

from .conftest import bot, person, seat_names, snapshot

pytestmark = pytest.mark.django_db


def make(user, *, engine="manila", players=3, control="quick", rated=False, seats=None):
    seats = [None] * (players - 1) if seats is None else seats
    return services.create_table(user, engine, players, control, rated, seats)


# ------------------------------------------------------------------ creating
def test_a_new_table_seats_its_host_and_leaves_the_other_seats_open(host) -> None:
    table = make(host, players=4, control="relaxed")
    assert table.status == LobbyTable.Status.OPEN and table.game is None
    assert seat_names(table) == ["hana", None, None, None]
    assert (table.move_time_ms, table.time_bank_ms) == (180_000, 900_000)
    host_seat = table.seats.get(position=0)
    assert host_seat.competitor.kind == "person" and host_seat.competitor.user == host


def test_a_table_with_each_kind_of_seat(host, greedy, stranger) -> None:
    own = bot(host, "mine")
    open_bot = bot(stranger, "open", visibility="challenge")
    table = make(host, players=5, seats=[greedy.pk, own.pk, open_bot.pk, None])
    assert seat_names(table) == ["hana", "examples/greedy", "hana/mine", "olga/open", None]
    assert table.status == LobbyTable.Status.OPEN
    assert set(table.seats.exclude(competitor=None).values_list("added_by", flat=True)) == {host.pk}


def test_a_table_of_bots_only_besides_its_host_starts_at_once(host, greedy, randomly) -> None:
    table = make(host, seats=[greedy.pk, randomly.pk])
    table.refresh_from_db()
    assert table.status == LobbyTable.Status.STARTED
    game = table.game
    assert game.status == Game.Status.RUNNING and game.created_by == host
    assert list(game.seats.order_by("position").values_list("competitor__name", flat=True)) == [
        "hana",
        "examples/greedy",
        "examples/random",
    ]
    assert (game.move_time_ms, game.time_bank_ms) == (30_000, 120_000)
    assert game.rated is False and game.unrated_reason == "creator"


# ------------------------------------------------------------------ joining and starting
def test_joining_takes_the_first_open_seat(host, guest) -> None:
    table = make(host, players=4)
    services.join(table, guest)
    assert seat_names(table) == ["hana", "gus", None, None]
    assert table.seats.get(position=1).added_by == guest


def test_the_last_seat_starts_the_game_with_the_tables_seats_in_order(host, guest, greedy) -> None:
    table = make(host, players=4, control="standard", rated=False, seats=[None, greedy.pk, None])
    services.join(table, guest)
    third = person("tess")
    services.join(table, third)
    table.refresh_from_db()
    assert table.status == LobbyTable.Status.STARTED and table.started_at is not None
    game = table.game
    assert list(game.seats.order_by("position").values_list("position", "competitor_id")) == list(
        table.seats.order_by("position").values_list("position", "competitor_id")
    )
    assert seat_names(table) == ["hana", "gus", "examples/greedy", "tess"]
    assert (game.engine, game.num_players, game.move_time_ms, game.time_bank_ms) == (
        "manila",
        4,
        60_000,
        300_000,
    )
    assert game.created_by == host


def test_a_rated_table_of_people_makes_a_rated_game(host, guest) -> None:
    """Another person at the table is no challenge (only another owner's bot is)."""
    table = make(host, engine="cargo_noir", players=2, rated=True)
    services.join(table, guest)
    table.refresh_from_db()
    assert table.game.rated is True and table.game.unrated_reason == ""


def test_a_rated_table_with_a_house_bot_and_consent_is_rated(greedy) -> None:
    host, guest = person("hana", consents=True), person("gus", consents=True)
    table = make(host, rated=True, seats=[greedy.pk, None])
    services.join(table, guest)
    table.refresh_from_db()
    assert table.game.rated is True


def test_leaving_frees_the_seat_and_the_host_leaving_cancels(host, guest) -> None:
    table = make(host, players=4)
    services.join(table, guest)
    services.leave(table, guest)
    assert seat_names(table) == ["hana", None, None, None]
    services.leave(table, host)
    table.refresh_from_db()
    assert table.status == LobbyTable.Status.CANCELLED and table.ended_at is not None


def test_the_host_removes_a_bot_and_the_seat_opens(host, greedy) -> None:
    table = make(host, players=4, seats=[greedy.pk, None, None])
    services.remove_seat(table, host, 1)
    assert seat_names(table) == ["hana", None, None, None]
    services.add_bot(table, host, greedy.pk, position=3)
    assert seat_names(table) == ["hana", None, None, "examples/greedy"]


# ------------------------------------------------------------------ refusals
def refused(code: str, action, *args, **kwargs) -> LobbyError:
    before = snapshot()
    with pytest.raises(LobbyError) as caught:
        action(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    assert snapshot() == before, "a refusal changed something"
    return caught.value


def test_a_table_whose_game_started_refuses_another_person(host, guest) -> None:
    table = make(host, players=3, seats=[None, None])
    services.join(table, guest)
    services.join(table, person("tess"))
    error = refused("started", services.join, table, person("late"))
    assert error.message == "this table's game has already started"


def test_a_full_open_table_refuses_a_joiner(host, guest, greedy) -> None:
    greedy.max_concurrent_games = 1
    greedy.save()
    busy = GameFactory(status=Game.Status.RUNNING, created_by=None)
    busy.seats.create(position=0, competitor=greedy.competitor)
    table = make(host, players=3, seats=[greedy.pk, None])
    services.join(table, guest)  # the last seat: the start fails, the table stays full and open
    table.refresh_from_db()
    assert table.status == LobbyTable.Status.OPEN
    error = refused("table_full", services.join, table, person("late"))
    assert error.message == "this table is full"


def test_joining_twice_is_refused(host, guest) -> None:
    table = make(host, players=4)
    services.join(table, guest)
    refused("already_seated", services.join, table, guest)
    refused("already_seated", services.join, table, host)


def test_only_the_host_adds_removes_and_cancels(host, guest, greedy) -> None:
    table = make(host, players=4, seats=[greedy.pk, None, None])
    services.join(table, guest)
    assert refused("not_host", services.add_bot, table, guest, greedy.pk).message == (
        "only the table's host may do that"
    )
    refused("not_host", services.remove_seat, table, guest, 1)
    refused("not_host", services.cancel, table, guest)


def test_another_owners_private_bot_is_refused_like_a_missing_one(host, stranger) -> None:
    hidden = bot(stranger, "hidden", visibility="private")
    table = make(host, players=4)
    missing_id = hidden.pk + 1000
    private = refused("seat_refused", services.add_bot, table, host, hidden.pk)
    missing = refused("seat_refused", services.add_bot, table, host, missing_id)
    assert private.message == missing.message.replace(str(missing_id), str(hidden.pk))
    assert "no bot" in private.message and "private" not in private.message
    at_creation = refused("seat_refused", make, host, players=3, seats=[hidden.pk, None])
    assert at_creation.message == f"seat 2: {private.message}"


def test_a_bot_that_does_not_play_the_engine_is_refused(host) -> None:
    batavian = bot(host, "batavian", engines=["batavia"])
    table = make(host, players=4)
    error = refused("seat_refused", services.add_bot, table, host, batavian.pk)
    assert "does not play manila" in error.message


def test_a_suspended_bot_is_refused(host) -> None:
    sleepy = bot(host, "sleepy", status="suspended", status_reason="too many timeouts")
    error = refused("seat_refused", make, host, players=3, seats=[sleepy.pk, None])
    assert "suspended" in error.message


def test_a_tournament_only_bot_of_another_owner_is_refused(host, stranger) -> None:
    arena = bot(stranger, "arena", visibility="tournament")
    table = make(host, players=4)
    error = refused("seat_refused", services.add_bot, table, host, arena.pk)
    assert "does not accept challenges" in error.message


def test_a_bot_twice_at_one_table_is_refused(host, greedy) -> None:
    refused("bot_twice", make, host, players=3, seats=[greedy.pk, greedy.pk])
    table = make(host, players=4, seats=[greedy.pk, None, None])
    refused("bot_twice", services.add_bot, table, host, greedy.pk)


def test_consent_is_needed_for_a_rated_table_with_a_bot(greedy) -> None:
    host = person("hana", consents=False)
    error = refused("consent_needed", make, host, rated=True, seats=[greedy.pk, None])
    assert "/me/" in error.message and "your consent" in error.message


def test_a_person_without_consent_cannot_join_a_rated_table_with_a_bot(greedy) -> None:
    host = person("hana", consents=True)
    table = make(host, players=4, rated=True, seats=[greedy.pk, None, None])
    guest = person("gus", consents=False)
    error = refused("consent_needed", services.join, table, guest)
    assert "/me/" in error.message


def test_no_bot_joins_a_rated_table_while_a_seated_person_has_not_consented(greedy) -> None:
    host = person("hana", consents=True)
    table = make(host, players=4, rated=True)
    services.join(table, person("gus", consents=False))
    error = refused("consent_needed", services.add_bot, table, host, greedy.pk)
    assert "a person at this rated table has not agreed" in error.message
    assert "gus" not in error.message  # another person's setting is theirs


def test_an_unrated_table_needs_no_consent(greedy) -> None:
    host = person("hana", consents=False)
    table = make(host, players=4, rated=False, seats=[greedy.pk, None, None])
    services.join(table, person("gus", consents=False))
    assert seat_names(table) == ["hana", "examples/greedy", "gus", None]


def test_a_rated_challenge_is_refused_with_the_rules_reason(stranger) -> None:
    host = person("hana", consents=True)
    open_bot = bot(stranger, "open", visibility="challenge")
    error = refused("rated_refused", make, host, rated=True, seats=[open_bot.pk, None])
    assert "olga/open" in error.message and "challenge" in error.message
    table = make(host, players=4, rated=True)
    refused("rated_refused", services.add_bot, table, host, open_bot.pk)
    # Unrated, the same seat is fine.
    make(host, rated=False, seats=[open_bot.pk, None])


def test_a_rated_table_with_the_hosts_own_bot_is_refused() -> None:
    host = person("hana", consents=True)
    own = bot(host, "mine")
    error = refused("rated_refused", make, host, rated=True, seats=[own.pk, None])
    assert "one owner holds several seats" in error.message


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"control": "blitz"}, "bad_time_control"),
        ({"control": ""}, "bad_time_control"),
        ({"engine": "chess"}, "bad_engine"),
        ({"engine": "manila", "players": 2}, "bad_players"),
        ({"engine": "grog_island", "players": 5}, "bad_players"),
        ({"players": 4, "seats": [None]}, "bad_seats"),
    ],
)
def test_bad_settings_are_refused(host, kwargs, code) -> None:
    refused(code, make, host, **kwargs)


def test_leaving_after_the_start_is_refused(host, guest) -> None:
    table = make(host, engine="cargo_noir", players=2)
    services.join(table, guest)
    error = refused("started", services.leave, table, guest)
    assert "resign" in error.message
    refused("started", services.leave, table, host)
    refused("started", services.cancel, table, host)
    refused("started", services.add_bot, table, host, 1)


def test_leaving_a_table_one_has_no_seat_at_is_refused(host, guest) -> None:
    table = make(host, players=4)
    refused("not_seated", services.leave, table, guest)


def test_a_cancelled_table_refuses_everything(host, guest, greedy) -> None:
    table = make(host, players=4)
    services.cancel(table, host)
    refused("cancelled", services.join, table, guest)
    refused("cancelled", services.add_bot, table, host, greedy.pk)
    refused("cancelled", services.cancel, table, host)


def test_the_host_cannot_remove_a_person(host, guest) -> None:
    table = make(host, players=4)
    services.join(table, guest)
    refused("not_a_bot", services.remove_seat, table, host, 1)
    refused("not_a_bot", services.remove_seat, table, host, 0)
    refused("not_a_bot", services.remove_seat, table, host, 2)
    refused("no_seat", services.remove_seat, table, host, 9)


def test_a_host_has_at_most_a_few_open_tables(host) -> None:
    for _ in range(services.MAX_OPEN_TABLES_PER_HOST):
        make(host)
    refused("too_many_tables", make, host)


def test_an_anonymous_visitor_is_refused(host) -> None:
    from django.contrib.auth.models import AnonymousUser

    table = make(host, players=4)
    refused("sign_in", services.join, table, AnonymousUser())


# ------------------------------------------------------------------ a busy bot
def busy(bot_, games: int = 1) -> None:
    for _ in range(games):
        game = GameFactory(status=Game.Status.RUNNING)
        game.seats.create(position=0, competitor=bot_.competitor)


def test_a_busy_bot_keeps_the_full_table_open_and_says_why(host, guest, greedy) -> None:
    greedy.max_concurrent_games = 1
    greedy.save()
    busy(greedy)
    table = make(host, players=3, seats=[greedy.pk, None])
    services.join(table, guest)
    table.refresh_from_db()
    assert table.status == LobbyTable.Status.OPEN and table.game is None
    assert "examples/greedy" in table.start_problem and "busy" in table.start_problem
    assert seat_names(table) == ["hana", "examples/greedy", "gus"]
    error = refused("cannot_start", services.start, table, guest)
    assert "examples/greedy" in error.message
    Game.objects.filter(status=Game.Status.RUNNING).update(status=Game.Status.FINISHED)
    services.start(table, guest)
    table.refresh_from_db()
    assert table.status == LobbyTable.Status.STARTED
    assert table.start_problem == ""


def test_start_refuses_a_table_with_an_open_seat_and_a_stranger(host, guest) -> None:
    table = make(host, players=4)
    refused("not_full", services.start, table, host)
    refused("not_seated", services.start, table, guest)

"""The lobby keeps moving by itself (issue #32, point 7).

Busy bots are shown marked and cannot be chosen; a full table waiting for a
busy bot starts by itself when the bot's game ends (the ``game_finished``
receiver queues ``lobby.start_waiting_tables``; beat's ``lobby.upkeep`` tries
again); a table no person changed for ``LOBBY_TABLE_IDLE_S`` is closed with a
sentence and its seats are emptied.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone

from games.models import Game
from games.referee import steps as referee
from games.services import create_game
from lobby import selectors, services, tasks
from lobby.models import LobbyTable
from people.services import ensure_person
from tests.factories import BotFactory, GameFactory
from tests.tournaments.test_house_bot import expire_clock

from .conftest import person, seat_names


def make(user, seats, players=3) -> LobbyTable:
    return services.create_table(user, "manila", players, "quick", False, seats)


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def occupy(bot) -> Game:
    game = GameFactory(status=Game.Status.RUNNING)
    game.seats.create(position=0, competitor=bot.competitor)
    return game


# ------------------------------------------------------------------ busy bots
@pytest.mark.django_db
def test_a_busy_bot_is_marked_and_not_offered(host, greedy, randomly) -> None:
    greedy.max_concurrent_games = 1
    greedy.save()
    occupy(greedy)
    choices = {c.name: c for c in selectors.bot_choices(host)}
    assert choices["examples/greedy"].busy == "busy: at its limit of 1 game at once"
    assert choices["examples/random"].busy == ""

    page = client_of(host).get("/lobby/").content.decode()
    assert f'<option value="{greedy.pk}" data-engines="' in page
    option = page.split(f'<option value="{greedy.pk}"', 1)[1].split("</option>", 1)[0]
    assert "disabled" in option and "(busy: at its limit of 1 game at once)" in option
    free = page.split(f'<option value="{randomly.pk}"', 1)[1].split("</option>", 1)[0]
    assert "disabled" not in free and "busy" not in free

    table = make(host, [None, None])
    body = client_of(host).get(f"/lobby/tables/{table.pk}/").content.decode()
    option = body.split(f'<option value="{greedy.pk}"', 1)[1].split("</option>", 1)[0]
    assert "disabled" in option and "busy" in option


@pytest.mark.django_db
def test_another_owners_bot_is_busy_for_a_user_who_holds_their_share(host, stranger) -> None:
    shared = BotFactory(owner=stranger, name="shared", visibility="challenge",
                        max_concurrent_games=4, engines=["manila"])  # fmt: skip
    for _ in range(2):  # half of its 4 games: the share of one challenger
        game = GameFactory(status=Game.Status.RUNNING, created_by=host)
        game.seats.create(position=0, competitor=shared.competitor)
    mine = {c.name: c.busy for c in selectors.bot_choices(host)}
    theirs = {c.name: c.busy for c in selectors.bot_choices(person("ivo"))}
    assert mine["olga/shared"] == "busy for you: you already play your share of its games"
    assert theirs["olga/shared"] == ""


# ------------------------------------------------------------------ a waiting table starts
@pytest.mark.django_db(transaction=True)
def test_a_table_waiting_for_a_busy_bot_starts_when_its_game_ends(host, guest, settings) -> None:
    """The bot's other game is played to its end by the referee (everyone absent)."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.BOT_ENDPOINT_ALLOW = ["loopback"]
    pulled = BotFactory(
        owner=host, name="puller", mode="pull", endpoint_url="", max_concurrent_games=1
    )
    others = [person("p1", consents=True), person("p2", consents=True)]
    elsewhere = create_game(
        "manila",
        [pulled.competitor, *(ensure_person(u).competitor for u in others)],
        seed="elsewhere",
        move_time_ms=1000,
    )
    table = make(host, [pulled.pk, None])
    services.join(table, guest)
    table.refresh_from_db()
    assert table.status == LobbyTable.Status.OPEN and "busy" in table.start_problem
    assert "starts by itself" in table.start_problem

    for _ in range(200):  # every seat times out, forfeits, and its defaults end the game
        elsewhere.refresh_from_db()
        if elsewhere.status != Game.Status.RUNNING:
            break
        expire_clock(elsewhere)
        referee.advance(elsewhere.pk)
    elsewhere.refresh_from_db()
    assert elsewhere.status == Game.Status.FINISHED

    table.refresh_from_db()
    assert table.status == LobbyTable.Status.STARTED and table.start_problem == ""
    names = table.game.seats.order_by("position").values_list("competitor__name", flat=True)
    assert list(names) == ["hana", pulled.competitor.name, "gus"]


@pytest.mark.django_db
def test_beat_starts_a_waiting_table_whose_bot_is_free_again(host, guest, greedy) -> None:
    """Should the receiver's task be lost, the upkeep finds the table on its next run."""
    greedy.max_concurrent_games = 1
    greedy.save()
    other = occupy(greedy)
    table = make(host, [greedy.pk, None])
    services.join(table, guest)
    assert tasks.upkeep() == {"closed": [], "started": []}  # still busy: nothing changes
    table.refresh_from_db()
    assert table.status == LobbyTable.Status.OPEN and "busy" in table.start_problem
    Game.objects.filter(pk=other.pk).update(status=Game.Status.FINISHED)
    assert tasks.upkeep() == {"closed": [], "started": [table.pk]}
    table.refresh_from_db()
    assert table.status == LobbyTable.Status.STARTED


# ------------------------------------------------------------------ idle tables close
@pytest.mark.django_db
def test_a_table_nobody_touched_is_closed_with_a_sentence_and_its_seats_freed(
    host, guest, greedy, settings
) -> None:
    settings.LOBBY_TABLE_IDLE_S = 600
    idle = make(host, [greedy.pk, None, None], players=4)
    fresh = make(guest, [None, None])
    long_ago = timezone.now() - timedelta(seconds=601)
    LobbyTable.objects.filter(pk__in=[idle.pk, fresh.pk]).update(touched_at=long_ago)
    services.join(fresh, host)  # a person's change keeps a table open

    assert tasks.upkeep() == {"closed": [idle.pk], "started": []}
    idle.refresh_from_db()
    assert idle.status == LobbyTable.Status.CANCELLED and idle.ended_at is not None
    assert idle.closed_reason == services.idle_sentence(600)
    assert "after 10 minutes without a change" in idle.closed_reason
    assert seat_names(idle) == [None, None, None, None]
    fresh.refresh_from_db()
    assert fresh.status == LobbyTable.Status.OPEN

    page = client_of(host).get(f"/lobby/tables/{idle.pk}/").content.decode()
    assert idle.closed_reason in page
    data = client_of(host).get(f"/lobby/tables/{idle.pk}.json").json()
    assert data["status"] == "cancelled" and data["closedReason"] == idle.closed_reason
    assert tasks.upkeep() == {"closed": [], "started": []}  # closing is done once


@pytest.mark.django_db
def test_each_change_by_a_person_touches_the_table(host, guest, greedy) -> None:
    table = make(host, [None, None])
    for change in (
        lambda: services.join(table, guest),
        lambda: services.leave(table, guest),
        lambda: services.add_bot(table, host, greedy.pk),
        lambda: services.remove_seat(table, host, 1),
    ):
        LobbyTable.objects.filter(pk=table.pk).update(touched_at=timezone.now() - timedelta(days=1))
        change()
        table.refresh_from_db()
        assert timezone.now() - table.touched_at < timedelta(minutes=1)


def test_the_upkeep_runs_on_beat_every_minute() -> None:
    entry = django_settings.CELERY_BEAT_SCHEDULE["lobby-upkeep"]
    assert entry["task"] == tasks.upkeep.name == "lobby.upkeep"
    assert entry["schedule"] <= 60
    assert django_settings.LOBBY_TABLE_IDLE_S > 0

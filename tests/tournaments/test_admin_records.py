"""No admin path breaks the referee's record.

A staff user posts the admin's real forms and actions -- "Delete selected",
the delete pages, the change forms -- on games, moves, outcomes, ratings and
on everything whose deletion would cascade into them (competitors, bots,
users, leagues, tournaments, rating scopes). After every attempt the whole
record is unchanged, the game page answers and verification finds no problem.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import ProtectedError
from django.test import Client
from django.urls import reverse

from botapi.models import Bot
from games.models import Competitor, Game, Move, Outcome, Seat
from ratings.models import Rating, RatingChange, RatingScope
from ratings.services.apply import apply_game_result
from tests.factories import BotFactory, LeagueFactory, UserFactory
from tests.tournaments.played import played_game
from tournaments.models import League, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client) -> Client:
    client.force_login(UserFactory(admin=True, password=None))
    return client


@pytest.fixture
def rated_game() -> Game:
    """A finished, rated game of three bots in a league, rated in the global and league scopes."""
    bots = BotFactory.create_batch(3)
    league = LeagueFactory(engine="manila")
    game = played_game("manila", [bot.competitor for bot in bots], seed="record-seed", rated=True)
    Game.objects.filter(pk=game.pk).update(league=league)
    tournament = Tournament.objects.create(name="Cup", league=league, engine="manila")
    Game.objects.filter(pk=game.pk).update(tournament=tournament)
    game.refresh_from_db()
    assert apply_game_result(game) > 0
    return game


def record_of(game: Game) -> dict[str, Any]:
    """Everything the referee and the ratings wrote for ``game``, to compare before and after."""
    competitors = list(game.seats.values_list("competitor", flat=True))
    return {
        "game": Game.objects.filter(pk=game.pk).values().get(),
        "seats": list(Seat.objects.filter(game=game).order_by("position").values()),
        "moves": list(Move.objects.filter(game=game).order_by("ply").values()),
        "outcome": list(Outcome.objects.filter(game=game).values()),
        "changes": list(RatingChange.objects.filter(game=game).order_by("pk").values()),
        "ratings": list(Rating.objects.filter(competitor__in=competitors).order_by("pk").values()),
        "scopes": list(RatingScope.objects.order_by("pk").values()),
        "competitors": list(Competitor.objects.filter(pk__in=competitors).values()),
        "bots": list(Bot.objects.filter(competitor__in=competitors).order_by("pk").values()),
    }


def assert_record_intact(client: Client, game: Game, before: dict[str, Any]) -> None:
    assert record_of(game) == before
    assert client.get(reverse("tournaments:game", args=[game.pk])).status_code == 200
    report = client.get(reverse("games-api:game-verify", args=[game.pk])).json()
    assert report["ok"] is True, report


def bulk_delete(client: Client, changelist: str, pks: list[int]) -> Any:
    """Choose "Delete selected" for ``pks`` and confirm it, as the admin's two pages do."""
    url = reverse(changelist)
    client.post(url, {"action": "delete_selected", "_selected_action": pks})
    return client.post(url, {"action": "delete_selected", "_selected_action": pks, "post": "yes"})


RECORD_MODELS = [
    ("games", "game"),
    ("games", "move"),
    ("games", "outcome"),
    ("ratings", "rating"),
    ("ratings", "ratingchange"),
    ("ratings", "ratingscope"),
]


def rows_of(game: Game, model: str) -> list[int]:
    rows = {
        "game": [game.pk],
        "move": list(game.moves.values_list("pk", flat=True)[:3]),
        "outcome": [game.outcome.pk],
        "rating": list(Rating.objects.values_list("pk", flat=True)),
        "ratingchange": list(game.rating_changes.values_list("pk", flat=True)),
        "ratingscope": list(RatingScope.objects.values_list("pk", flat=True)),
    }
    return rows[model]


@pytest.mark.parametrize(("app", "model"), RECORD_MODELS)
def test_record_lists_offer_no_delete_action(staff, rated_game, app, model) -> None:
    page = staff.get(reverse(f"admin:{app}_{model}_changelist"))
    assert page.status_code == 200
    assert b"delete_selected" not in page.content


@pytest.mark.parametrize(("app", "model"), RECORD_MODELS)
def test_deleting_record_rows_is_refused_on_every_admin_path(staff, rated_game, app, model) -> None:
    before = record_of(rated_game)
    pks = rows_of(rated_game, model)
    bulk_delete(staff, f"admin:{app}_{model}_changelist", pks)
    for pk in pks:
        url = reverse(f"admin:{app}_{model}_delete", args=[pk])
        assert staff.get(url).status_code == 403
        assert staff.post(url, {"post": "yes"}).status_code == 403
    assert_record_intact(staff, rated_game, before)


def test_deleting_one_move_in_the_admin_is_refused_and_the_game_still_verifies(
    staff, rated_game
) -> None:
    before = record_of(rated_game)
    move = rated_game.moves.get(ply=10)
    bulk_delete(staff, "admin:games_move_changelist", [move.pk])
    staff.post(reverse("admin:games_move_delete", args=[move.pk]), {"post": "yes"})
    assert_record_intact(staff, rated_game, before)


@pytest.mark.parametrize(
    ("app", "model", "form"),
    [
        ("games", "game", {"seed": "forged", "status": "aborted", "rated": ""}),
        ("games", "move", {"action": '{"type": "forged"}', "ply": "99", "seat": "2"}),
        ("games", "outcome", {"ranks": "[3, 2, 1]", "scores": "[0, 0, 99]"}),
        ("ratings", "rating", {"value": "3000", "score": "3000", "games": "0"}),
        ("ratings", "ratingchange", {"after_value": "3000", "rank": "1"}),
        ("ratings", "ratingscope", {"engine": "batavia", "systems": "{}"}),
        ("games", "competitor", {"name": "someone-else", "kind": "person"}),
    ],
)
def test_record_fields_cannot_be_edited_in_the_admin(staff, rated_game, app, model, form) -> None:
    before = record_of(rated_game)
    pk = {
        "game": rated_game.pk,
        "move": rated_game.moves.get(ply=3).pk,
        "outcome": rated_game.outcome.pk,
        "rating": Rating.objects.first().pk,
        "ratingchange": rated_game.rating_changes.first().pk,
        "ratingscope": RatingScope.objects.first().pk,
        "competitor": rated_game.seats.first().competitor_id,
    }[model]
    url = reverse(f"admin:{app}_{model}_change", args=[pk])
    page = staff.get(url)
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert staff.post(url, form).status_code == 403
    assert_record_intact(staff, rated_game, before)


def test_deleting_a_rated_game_outside_the_admin_is_refused_by_the_database(rated_game) -> None:
    with pytest.raises(ProtectedError):
        rated_game.delete()
    with pytest.raises(ProtectedError):
        RatingScope.objects.all().delete()
    assert rated_game.rating_changes.exists()


# ------------------------------------------------------------------ cascades
def test_a_bot_with_games_is_not_deleted_from_its_page_nor_by_the_bulk_action(
    staff, rated_game
) -> None:
    before = record_of(rated_game)
    bot = Bot.objects.get(competitor=rated_game.seats.first().competitor)
    url = reverse("admin:botapi_bot_delete", args=[bot.pk])
    page = staff.post(url, {"post": "yes"})
    assert page.status_code == 200
    assert b"Cannot delete" in page.content
    assert f"seat 0 of game {rated_game.pk}".encode() in page.content
    page = bulk_delete(staff, "admin:botapi_bot_changelist", [bot.pk])
    assert b"Cannot delete" in page.content
    assert_record_intact(staff, rated_game, before)


def test_a_bot_without_games_is_deleted_with_its_competitor(staff) -> None:
    bot, other = BotFactory.create_batch(2)
    staff.post(reverse("admin:botapi_bot_delete", args=[bot.pk]), {"post": "yes"})
    bulk_delete(staff, "admin:botapi_bot_changelist", [other.pk])
    assert not Bot.objects.exists()
    assert not Competitor.objects.filter(pk__in=[bot.competitor_id, other.competitor_id]).exists()


@pytest.mark.parametrize(
    ("app", "model", "target"),
    [
        ("games", "competitor", lambda game: game.seats.first().competitor),
        ("auth", "user", lambda game: game.seats.first().competitor.user),
        ("tournaments", "league", lambda game: game.league),
        ("tournaments", "tournament", lambda game: game.tournament),
    ],
)
def test_a_delete_that_would_cascade_into_the_record_is_refused_with_its_reason(
    staff, rated_game, app, model, target
) -> None:
    before = record_of(rated_game)
    row = target(rated_game)
    page = staff.post(reverse(f"admin:{app}_{model}_delete", args=[row.pk]), {"post": "yes"})
    assert page.status_code == 200
    assert b"Cannot delete" in page.content
    page = bulk_delete(staff, f"admin:{app}_{model}_changelist", [row.pk])
    assert b"Cannot delete" in page.content
    assert type(row).objects.filter(pk=row.pk).exists()
    assert_record_intact(staff, rated_game, before)


def test_a_league_whose_scope_holds_rating_changes_cannot_be_deleted(staff) -> None:
    """Even without games in it (moved out), the league's scope keeps its changes."""
    bots = BotFactory.create_batch(3)
    league = LeagueFactory(engine="manila")
    game = played_game("manila", [bot.competitor for bot in bots], rated=True)
    Game.objects.filter(pk=game.pk).update(league=league)
    apply_game_result(game)
    Game.objects.filter(pk=game.pk).update(league=None)
    changes = RatingChange.objects.count()
    page = staff.post(reverse("admin:tournaments_league_delete", args=[league.pk]), {"post": "yes"})
    assert b"Cannot delete" in page.content
    assert League.objects.filter(pk=league.pk).exists()
    assert RatingChange.objects.count() == changes

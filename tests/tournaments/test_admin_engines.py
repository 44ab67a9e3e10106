"""Leagues and tournaments play a registered engine: the admin and the model refuse others."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

import engines
from games.models import Game
from tests.factories import CompetitorFactory, LeagueFactory, UserFactory
from tests.tournaments.admin_form_data import league_form, tournament_form
from tests.tournaments.played import played_game
from tournaments.models import League, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client) -> Client:
    client.force_login(UserFactory(admin=True, password=None))
    return client


def test_the_league_form_offers_every_registered_engine_and_nothing_else(staff) -> None:
    page = staff.get(reverse("admin:tournaments_league_add"))
    offered = [value for value, _ in page.context["adminform"].form.fields["engine"].choices]
    assert [slug for slug in offered if slug] == [e.slug for e in engines.all_engines()]


def test_a_league_with_an_unknown_engine_is_refused_and_nothing_is_saved(staff) -> None:
    form = league_form() | {"engine": "chess"}
    page = staff.post(reverse("admin:tournaments_league_add"), form)
    assert page.status_code == 200
    assert page.context["adminform"].form.errors["engine"] == [
        "Select a valid choice. chess is not one of the available choices."
    ]
    assert not League.objects.exists()
    assert staff.post(reverse("admin:tournaments_league_add"), league_form()).status_code == 302
    assert League.objects.get().engine == "manila"


def test_a_tournament_with_an_unknown_engine_or_another_engine_than_its_league_is_refused(
    staff,
) -> None:
    league = LeagueFactory(engine="manila")
    url = reverse("admin:tournaments_tournament_add")
    page = staff.post(url, tournament_form(engine="chess"))
    assert "engine" in page.context["adminform"].form.errors
    page = staff.post(url, tournament_form(engine="batavia", league=league.pk))
    assert page.context["adminform"].form.errors["engine"] == [
        f"the league {league} plays manila; its tournaments play the same engine"
    ]
    assert not Tournament.objects.exists()
    page = staff.post(url, tournament_form(league=league.pk))
    assert page.status_code == 302
    assert Tournament.objects.get().engine == "manila"


def test_the_models_refuse_an_unknown_engine_outside_the_admin_too() -> None:
    with pytest.raises(ValidationError) as refused:
        League(name="Chess club", slug="chess-club", engine="chess").full_clean()
    assert "engine" in refused.value.message_dict
    with pytest.raises(ValidationError) as refused:
        Tournament(name="Chess cup", engine="chess").full_clean()
    assert "engine" in refused.value.message_dict


def test_a_league_with_games_keeps_its_engine(staff) -> None:
    league = LeagueFactory(engine="manila")
    game = played_game("manila", CompetitorFactory.create_batch(3))
    Game.objects.filter(pk=game.pk).update(league=league)
    form = league_form() | {
        "name": league.name,
        "slug": league.slug,
        "engine": "batavia",
        "description": "x",
    }
    staff.post(reverse("admin:tournaments_league_change", args=[league.pk]), form)
    league.refresh_from_db()
    assert (league.engine, league.description) == ("manila", "x")

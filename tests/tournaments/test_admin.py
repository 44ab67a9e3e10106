"""Every admin list and detail page an organiser opens renders, with real rows in it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Move
from ratings.services.apply import apply_game_result
from tests.factories import CompetitorFactory, LeagueFactory, UserFactory, finished_game
from tournaments.models import Tournament

PAGES = [
    ("games", "competitor"),
    ("tournaments", "league"),
    ("tournaments", "tournament"),
    ("games", "game"),
    ("games", "move"),
    ("games", "outcome"),
    ("ratings", "ratingscope"),
    ("ratings", "rating"),
    ("ratings", "ratingchange"),
]


@pytest.fixture
def populated(client):
    client.force_login(UserFactory(admin=True))
    players = CompetitorFactory.create_batch(3)
    league = LeagueFactory()
    game = finished_game(players, [1, 2, 3], league=league)
    Tournament.objects.create(name="Autumn cup", league=league, engine=league.engine)
    Move.objects.create(game=game, ply=0, seat=-1, action={"type": "deal"}, source="chance")
    apply_game_result(game)
    return client, game


@pytest.mark.django_db
@pytest.mark.parametrize(("app", "model"), PAGES)
def test_admin_changelist_renders_rows(populated, app, model) -> None:
    client, _ = populated
    response = client.get(reverse(f"admin:{app}_{model}_changelist"))
    assert response.status_code == 200
    assert b'id="result_list"' in response.content, "the list shows no row"


@pytest.mark.django_db
def test_game_record_is_read_only_in_admin(populated) -> None:
    client, game = populated
    assert client.get(reverse("admin:games_game_add")).status_code == 403
    page = client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert page.status_code == 200
    assert b'name="_save"' not in page.content

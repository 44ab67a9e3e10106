"""The play page: a shell that opens the game's socket; it holds no game data itself."""

from __future__ import annotations

import pytest

from tests.tournaments.played import played_game

from .conftest import people

pytestmark = pytest.mark.django_db


def test_the_play_page_opens_the_games_socket_with_its_engines_board(client) -> None:
    game = played_game("manila", people(3), plies=10)
    response = client.get(f"/games/{game.pk}/play/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'data-ws="/ws/games/{game.pk}/"' in html
    assert "boards/board.js" in html and "boards/manila.js" in html and "boards/play.js" in html
    assert game.seed not in html  # nothing of the game is in the page: the socket brings it


def test_an_engine_without_a_renderer_yet_still_gets_the_page(client, monkeypatch) -> None:
    from web.games import play as play_views

    monkeypatch.setattr(play_views.finders, "find", lambda path: None)
    game = played_game("grog_island", people(2), plies=5)
    response = client.get(f"/games/{game.pk}/play/")
    assert response.status_code == 200
    assert "boards/grog_island.js" not in response.content.decode()


def test_no_page_for_a_game_that_does_not_exist(client) -> None:
    assert client.get("/games/999999/play/").status_code == 404

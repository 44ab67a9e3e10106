"""The play page in a real browser, against a real uvicorn serving the test database.

A person opens their game's page: the socket brings their seat's board, the tab
title says it is their turn, clicking a legal control on the board plays it
through the referee, and the page then waits for the next player. A spectator's
page shows the board without controls. Screenshots go to ``$HM_ARTEFACTS/play``
(else a temporary directory the test prints). Skipped where Chromium or its
driver is missing, and without PostgreSQL (the server runs in another process,
which cannot see an in-memory SQLite test database).
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from games.creation import create_game
from games.models import Game, Move
from games.referee.statecache import load_state
from tests.browser.chromium import console_errors, needs_chromium, page_screenshot, start
from tests.browser.site import sign_in, wait_for
from tests.tournaments.play.conftest import IN_MEMORY, people

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_referee"),
    pytest.mark.postgres,
    needs_chromium,
]
SHOTS = "play"
CONTROLS = "#board .hm-control[data-action-index]:not([disabled])"


@pytest.fixture(autouse=True)
def in_memory_layer(settings) -> None:
    """This process's news of the game stays in it, as in tests/tournaments/play/ (the served
    site has a channel layer of its own)."""
    settings.CHANNEL_LAYERS = IN_MEMORY


def test_a_person_plays_a_move_by_clicking_the_board_and_a_spectator_watches(server, shots) -> None:
    players = people(3)
    game = create_game("manila", players, seed="browser-play", move_time_ms=120_000)
    game.refresh_from_db()
    mover = load_state(game).to_move[0]
    ply = game.next_ply
    page = f"{server}/games/{game.pk}/play/"
    with start(1280, 1000) as browser:
        browser.get(page)
        wait_for(
            lambda: browser.find_elements(By.CSS_SELECTOR, "#play-clocks .play-clock"),
            "the spectator's frame",
        )
        role = browser.execute_script("return document.getElementById('play-role').textContent")
        assert "watching" in role
        assert browser.find_elements(By.CSS_SELECTOR, CONTROLS) == []
        page_screenshot(browser, shots / "manila-spectator.png")

        sign_in(browser, players[mover].user)
        browser.get(page)
        wait_for(lambda: browser.title.startswith("▶"), "'your turn'")
        controls = browser.find_elements(By.CSS_SELECTOR, CONTROLS)
        assert len(controls) == len(load_state(game).legal_actions(mover))
        page_screenshot(browser, shots / "manila-your-turn.png")
        controls[0].click()
        wait_for(lambda: Move.objects.filter(game=game, ply=ply).exists(), "the move")
        wait_for(lambda: not browser.title.startswith("▶"), "the turn to pass")
        assert "Waiting for" in browser.execute_script(
            "return document.getElementById('play-turn').textContent"
        )
        assert console_errors(browser) == []
        page_screenshot(browser, shots / "manila-after-move.png")
    move = Move.objects.get(game=game, ply=ply)
    assert move.seat == mover and move.source == "person"
    assert Game.objects.get(pk=game.pk).next_ply > ply

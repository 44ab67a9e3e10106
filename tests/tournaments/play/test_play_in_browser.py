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

from pathlib import Path

import pytest

from games.models import Game, Move
from games.referee.statecache import load_state
from games.services import create_game
from tests.browser_site import artefacts, server, session_for, wait_for
from tests.tournaments.boards.webdriver import MISSING, Browser

from .conftest import people

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_referee"),
    pytest.mark.postgres,
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
]
__all__ = ["server"]  # the fixture: uvicorn on this test's database


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    return artefacts(tmp_path, "play")


def test_a_person_plays_a_move_by_clicking_the_board_and_a_spectator_watches(server, shots) -> None:
    players = people(3)
    game = create_game("manila", players, seed="browser-play", move_time_ms=120_000)
    game.refresh_from_db()
    mover = load_state(game).to_move[0]
    ply = game.next_ply
    page = f"{server}/games/{game.pk}/play/"
    with Browser(1280, 1000) as browser:
        browser.get(page)
        wait_for(lambda: browser.find_all("#play-clocks .play-clock"), "the spectator's frame")
        assert "watching" in browser.run("return document.getElementById('play-role').textContent")
        assert browser.find_all("#board .hm-control[data-action-index]:not([disabled])") == []
        browser.screenshot(shots / "manila-spectator.png")

        cookie = {"name": "sessionid", "value": session_for(players[mover].user), "path": "/"}
        browser.cmd("POST", "/cookie", {"cookie": cookie})
        browser.get(page)
        wait_for(lambda: browser.run("return document.title").startswith("▶"), "'your turn'")
        controls = browser.find_all("#board .hm-control[data-action-index]:not([disabled])")
        assert len(controls) == len(load_state(game).legal_actions(mover))
        browser.screenshot(shots / "manila-your-turn.png")
        browser.click(controls[0])
        wait_for(lambda: Move.objects.filter(game=game, ply=ply).exists(), "the move")
        wait_for(
            lambda: not browser.run("return document.title").startswith("▶"), "the turn to pass"
        )
        assert "Waiting for" in browser.run(
            "return document.getElementById('play-turn').textContent"
        )
        console = [e for e in browser.console_errors() if "favicon.ico" not in e]
        assert console == []
        browser.screenshot(shots / "manila-after-move.png")
    move = Move.objects.get(game=game, ply=ply)
    assert move.seat == mover and move.source == "person"
    assert Game.objects.get(pk=game.pk).next_ply > ply

"""The game page's board replay in a real browser (headless Chromium driven by Selenium).

A finished Manila game with a bot seat: the board loads from ``boards.json``,
steps forward and back with the buttons and the arrow keys, jumps to the end,
switches to a seat's view and back, all without a JavaScript error. Screenshots
(desktop and phone, the viewport) go under ``$HM_ARTEFACTS/replay`` or a
printed temporary directory. Skipped with the reason where Chromium or its
driver is missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from games.models import Move
from tests.browser.chromium import console_errors, needs_chromium, start, window_screenshot
from tests.factories import CompetitorFactory
from tests.tournaments.played import played_game

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]
SHOTS = "replay"

DRAWN = (
    "var b = document.getElementById('board');"
    "return [b.getAttribute('data-position'), b.getAttribute('data-seat'),"
    " !!b.querySelector('.hm-board')];"
)


def wait_for(browser: WebDriver, expected: list[Any], timeout: float = 15.0) -> None:
    """Poll until the board shows ``[position, seat, drawn]``."""
    deadline = time.monotonic() + timeout
    seen = None
    while time.monotonic() < deadline:
        seen = browser.execute_script(DRAWN)
        if seen == expected:
            return
        time.sleep(0.05)
    raise AssertionError(f"board shows {seen}, expected {expected}")


def no_errors(browser: WebDriver) -> None:
    errors = browser.execute_script("return window.boardErrors;")
    console = console_errors(browser)
    assert errors == [] and console == [], f"{errors} {console}"


def viewport_shot(browser: WebDriver, path: Path) -> None:
    browser.execute_script("document.getElementById('stepper').scrollIntoView();")
    window_screenshot(browser, path)


def key(browser: WebDriver, name: str) -> None:
    browser.execute_script(
        "document.body.dispatchEvent("
        "new KeyboardEvent('keydown', {key: arguments[0], bubbles: true}));",
        name,
    )


def click(browser: WebDriver, step: str) -> None:
    browser.find_elements(By.CSS_SELECTOR, f'#stepper button[data-step="{step}"]')[0].click()


@pytest.fixture
def game():
    players = [CompetitorFactory(name=n, kind="person") for n in ("Ana", "Ben")]
    players.append(CompetitorFactory(name="example/harbour-bot", kind="bot"))
    game = played_game("manila", players, seed="replay-browser")
    Move.objects.filter(game=game, seat=2).update(latency_ms=42, source=Move.Source.BOT)
    return game


def test_stepping_and_switching_seats(live_server, shots, game) -> None:
    last = str(game.next_ply)
    page = f"{live_server.url}/games/{game.pk}/"
    with start(1280, 1000) as browser:
        browser.get(page)
        wait_for(browser, [last, "spectator", True])
        no_errors(browser)
        click(browser, "first")
        wait_for(browser, ["0", "spectator", True])
        click(browser, "next")
        wait_for(browser, ["1", "spectator", True])
        key(browser, "ArrowRight")
        wait_for(browser, ["2", "spectator", True])
        key(browser, "ArrowLeft")
        wait_for(browser, ["1", "spectator", True])
        click(browser, "prev")
        wait_for(browser, ["0", "spectator", True])
        # A decision of the bot's seat, far enough into the game to be interesting.
        ply = Move.objects.filter(game=game, seat=2, ply__gte=40).order_by("ply").first().ply
        browser.execute_script(
            "var s = document.querySelector('#stepper input[type=range]');"
            "s.value = arguments[0]; s.dispatchEvent(new Event('input'));",
            str(ply),
        )
        wait_for(browser, [str(ply), "spectator", True])
        browser.execute_script(
            "var s = document.getElementById('replay-seat'); s.value = '2';"
            "s.dispatchEvent(new Event('change'));"
        )
        wait_for(browser, [str(ply), "2", True])
        text = browser.execute_script("return document.getElementById('replay-move').textContent;")
        assert "example/harbour-bot" in text and "42 ms" in text and "offered" in text
        # The offered actions are drawn but cannot be clicked: a replay plays nothing.
        enabled = browser.execute_script(
            "return Array.from(document.querySelectorAll('#board .hm-control'))"
            ".filter(b => !b.disabled).length;"
        )
        assert enabled == 0
        viewport_shot(browser, shots / "manila-replay-seat2-desktop.png")
        click(browser, "last")
        wait_for(browser, [last, "2", True])
        browser.execute_script(
            "var s = document.getElementById('replay-seat'); s.value = 'spectator';"
            "s.dispatchEvent(new Event('change'));"
        )
        wait_for(browser, [last, "spectator", True])
        viewport_shot(browser, shots / "manila-replay-end-desktop.png")
        no_errors(browser)
    with start(phone=True) as phone:
        phone.get(page)
        wait_for(phone, [last, "spectator", True])
        key(phone, "Home")
        wait_for(phone, ["0", "spectator", True])
        click(phone, "last")
        wait_for(phone, [last, "spectator", True])
        viewport_shot(phone, shots / "manila-replay-phone.png")
        no_errors(phone)


def test_a_running_game_shows_the_spectators_board_and_no_seat_choice(live_server, shots) -> None:
    players = [CompetitorFactory(name=n, kind="person") for n in ("Ana", "Ben", "Cy")]
    game = played_game("manila", players, seed="replay-running", plies=25)
    with start(1280, 1000) as browser:
        browser.get(f"{live_server.url}/games/{game.pk}/")
        wait_for(browser, ["25", "spectator", True])
        assert browser.find_elements(By.CSS_SELECTOR, "#replay-seat") == []
        key(browser, "ArrowLeft")
        wait_for(browser, ["24", "spectator", True])
        viewport_shot(browser, shots / "manila-running-desktop.png")
        no_errors(browser)


def test_a_game_of_older_rules_gets_its_board_up_to_the_last_ply_that_replays(
    live_server,
) -> None:
    players = [CompetitorFactory(name=n, kind="person") for n in ("Ana", "Ben", "Cy")]
    game = played_game("manila", players, seed="replay-legacy")
    Move.objects.filter(game=game, ply=30).update(action={"type": "no-such-action"})
    type(game).objects.filter(pk=game.pk).update(engine_version="0-old")
    with start(1280, 1000) as browser:
        browser.get(f"{live_server.url}/games/{game.pk}/")
        wait_for(browser, ["30", "spectator", True])
        key(browser, "ArrowRight")
        wait_for(browser, ["30", "spectator", True])
        assert len(browser.find_elements(By.CSS_SELECTOR, "#replay li.ply")) == game.next_ply
        no_errors(browser)

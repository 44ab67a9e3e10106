"""The game page's ply list a window at a time (``web.games.ply_window``) in a real browser:
the board still covers the whole game from any window, and the list marks the plies it holds.

Screenshots at 1280 and 390 px go to ``$HM_ARTEFACTS/ply-window`` (else a
temporary directory the test prints). Skipped with the reason where Chromium
or its driver is missing.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from tests.browser.chromium import needs_chromium, page_screenshot, start
from tests.browser.test_replay import key, no_errors, wait_for
from tests.factories import CompetitorFactory
from tests.tournaments.played import played_game
from web.games import ply_window

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]
SHOTS = "ply-window"
CURRENT = "return [...document.querySelectorAll('#replay li.current')].map(li => li.dataset.ply);"


def test_a_windowed_list_steps_through_every_position_in_a_browser(
    live_server, monkeypatch, shots
) -> None:
    """The board covers the whole game from any window; the list marks the plies it holds."""
    monkeypatch.setattr(ply_window, "SIZE", 50)
    players = [CompetitorFactory(name=name, kind="person") for name in ("Ana", "Ben", "Cy")]
    game = played_game("manila", players, seed="windowed-browser")

    def listed(css: str) -> int:
        return len(browser.find_elements(By.CSS_SELECTOR, css))

    with start(1280, 1000) as browser:
        browser.get(f"{live_server.url}/games/{game.pk}/?plies=50")
        wait_for(browser, [str(game.next_ply), "spectator", True])
        assert listed("#replay li.ply") == 50
        assert browser.execute_script(CURRENT) == []
        assert listed("#replay li.future") == 0
        key(browser, "Home")
        wait_for(browser, ["0", "spectator", True])
        assert browser.execute_script(CURRENT) == [] and listed("#replay li.future") == 50
        browser.execute_script(
            "var s = document.querySelector('#stepper input[type=range]');"
            "s.value = '60'; s.dispatchEvent(new Event('input'));"
        )
        wait_for(browser, ["60", "spectator", True])
        assert browser.execute_script(CURRENT) == ["60"]
        assert listed("#replay li.future") == 39
        key(browser, "End")
        wait_for(browser, [str(game.next_ply), "spectator", True])
        no_errors(browser)
        page_screenshot(browser, shots / "window-1280.png")
    with start(390, 900) as phone:
        phone.get(f"{live_server.url}/games/{game.pk}/?plies=50")
        wait_for(phone, [str(game.next_ply), "spectator", True])
        phone.execute_script("document.querySelector('#replay').scrollIntoView()")
        page_screenshot(phone, shots / "window-390.png")
        no_errors(phone)

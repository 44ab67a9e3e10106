"""The rating history chart in headless Chromium: drawn (pixels of the series' colour), switchable,
a click opens a game, and the page fits a 390 px phone.

Screenshots at 1280 and 390 px go to ``$HM_ARTEFACTS/stats`` (else a
temporary directory the test prints). Skipped where Chromium or its driver is
missing, and without PostgreSQL (the server runs in another process, which
cannot see an in-memory SQLite test database).
"""

from __future__ import annotations

import pytest
from selenium.webdriver import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from people.services import ensure_person
from ratings.services import apply_game_result
from tests.browser.chromium import console_errors, needs_chromium, page_screenshot, start
from tests.browser.site import wait_for
from tests.factories import UserFactory, finished_game
from tests.stats.fixtures import build_world

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, needs_chromium]
SHOTS = "stats"
LEADERBOARD_LINKS = "table.leaderboard a.competitor"
SYSTEM_BUTTONS = "figure.rating-chart .chart-systems button"

PIXELS = """
const canvas = document.querySelector(arguments[0] + ' .chart-box canvas');
if (!canvas) return null;
const {width, height} = canvas;
const data = canvas.getContext('2d').getImageData(0, 0, width, height).data;
let painted = 0, series = 0;
for (let i = 0; i < data.length; i += 4) {
  if (data[i + 3] === 0) continue;
  painted++;
  // the mu line, #12559b (18, 85, 155), allowing for antialiasing
  const near = (value, target) => Math.abs(value - target) < 30;
  if (near(data[i], 18) && near(data[i + 1], 85) && near(data[i + 2], 155)) series++;
}
return {painted, series, width, height};
"""


def chart_pixels(browser: WebDriver) -> dict:
    """The first chart's canvas, read back: painted pixels and pixels of the μ line's colour."""
    wait_for(lambda: browser.execute_script(PIXELS, "figure.rating-chart"), "the chart")
    return browser.execute_script(PIXELS, "figure.rating-chart")


def test_the_rating_chart_is_drawn_and_links_to_games(server, shots) -> None:
    world = build_world()
    marta = ensure_person(UserFactory(username="marta", password=None)).competitor
    for ranks in ([1, 2, 3], [2, 1, 3], [1, 3, 2]):
        latest = finished_game([marta, world.alpha, world.bravo], ranks)
        apply_game_result(latest)
    page = f"{server}/bots/ann/alpha/"
    with start(1280, 1000) as browser:
        # From the engine's leaderboard: its row links to the competitor page.
        browser.get(f"{server}/leaderboards/{latest.engine}/")
        links = [
            link for link in browser.find_elements(By.CSS_SELECTOR, LEADERBOARD_LINKS)
            if browser.execute_script("return arguments[0].textContent", link) == "ann/alpha"
        ]  # fmt: skip
        assert len(links) == 1, "the bot's row on the leaderboard links to its page"
        page_screenshot(browser, shots / "leaderboard-1280.png")
        links[0].click()
        wait_for(lambda: browser.execute_script("return location.pathname") == "/bots/ann/alpha/",
                 "the competitor page")  # fmt: skip
        drawn = chart_pixels(browser)
        assert drawn["painted"] > 2000, drawn
        assert drawn["series"] > 100, f"the μ line is not drawn: {drawn}"
        legend = browser.execute_script("return document.querySelector('.u-legend').textContent")
        assert "TrueSkill \u03bc" in legend and "\u03bc \u2212 3\u03c3" in legend  # mu - 3 sigma
        page_screenshot(browser, shots / "bot-1280.png")

        buttons = browser.find_elements(By.CSS_SELECTOR, SYSTEM_BUTTONS)
        names = [browser.execute_script("return arguments[0].textContent", b) for b in buttons]
        assert names == ["Elo", "TrueSkill", "OpenSkill"]
        buttons[0].click()
        wait_for(lambda: "Elo" in browser.execute_script(
            "return document.querySelector('.u-legend').textContent"), "the Elo chart")  # fmt: skip
        assert chart_pixels(browser)["series"] > 100

        # hover the last point, then click: the game page opens
        over = browser.find_elements(By.CSS_SELECTOR, "figure.rating-chart .u-over")[0]
        width = browser.execute_script("return arguments[0].getBoundingClientRect().width", over)
        # Offsets from the element's centre, as in WebDriver's actions; no pause in the move.
        hover = ActionChains(browser, duration=0)
        hover.move_to_element_with_offset(over, int(width / 2) - 2, 0).click().perform()
        wait_for(lambda: browser.execute_script("return location.pathname")
                 == f"/games/{latest.pk}/", "the game page")  # fmt: skip
        assert console_errors(browser) == []

    with start(phone=True) as browser:
        browser.get(page)
        drawn = chart_pixels(browser)
        assert drawn["series"] > 100, drawn
        assert drawn["width"] <= 390 * 2
        overflow = browser.execute_script("return document.documentElement.scrollWidth")
        assert overflow <= 390, f"the page is {overflow} px wide on a 390 px phone"
        page_screenshot(browser, shots / "bot-390.png")
        assert console_errors(browser) == []
        for width, phone in ((1280, False), (390, True)):
            with start(phone=True) if phone else start(width) as person:
                person.get(f"{server}/people/marta/")
                assert chart_pixels(person)["series"] > 50
                assert person.execute_script("return document.documentElement.scrollWidth") <= width
                page_screenshot(person, shots / f"person-{width}.png")
                assert console_errors(person) == []

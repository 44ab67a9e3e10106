"""The rating history chart in headless Chromium: drawn (pixels of the series' colour), switchable,
a click opens a game, and the page fits a 390 px phone.

Screenshots at 1280 and 390 px go to ``$HM_ARTEFACTS/stats`` (else a
temporary directory the test prints). Skipped where Chromium or its driver is
missing, and without PostgreSQL (the server runs in another process, which
cannot see an in-memory SQLite test database).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from people.services import ensure_person
from ratings.services.apply import apply_game_result
from tests.browser_site import artefacts, server, wait_for
from tests.factories import UserFactory, finished_game
from tests.tournaments.boards.webdriver import ELEMENT, MISSING, Browser

from .fixtures import build_world

__all__ = ["server"]  # the fixture: uvicorn on this test's database

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
]

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


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    return artefacts(tmp_path, "stats")


def chart_pixels(browser: Browser) -> dict:
    """The first chart's canvas, read back: painted pixels and pixels of the μ line's colour."""
    wait_for(lambda: browser.run(PIXELS, "figure.rating-chart"), "the chart")
    return browser.run(PIXELS, "figure.rating-chart")


def errors(browser: Browser) -> list[str]:
    """Console errors, but for the favicon the site does not have."""
    return [e for e in browser.console_errors() if "favicon.ico" not in e]


def test_the_rating_chart_is_drawn_and_links_to_games(server, shots) -> None:
    world = build_world()
    marta = ensure_person(UserFactory(username="marta", password=None)).competitor
    for ranks in ([1, 2, 3], [2, 1, 3], [1, 3, 2]):
        latest = finished_game([marta, world.alpha, world.bravo], ranks)
        apply_game_result(latest)
    page = f"{server}/bots/ann/alpha/"
    with Browser(1280, 1000) as browser:
        # From the engine's leaderboard: its row links to the competitor page.
        browser.get(f"{server}/leaderboards/{latest.engine}/")
        links = [
            link for link in browser.find_all("table.leaderboard a.competitor")
            if browser.run("return arguments[0].textContent", link) == "ann/alpha"
        ]  # fmt: skip
        assert len(links) == 1, "the bot's row on the leaderboard links to its page"
        browser.screenshot(shots / "leaderboard-1280.png")
        browser.click(links[0])
        wait_for(lambda: browser.run("return location.pathname") == "/bots/ann/alpha/",
                 "the competitor page")  # fmt: skip
        drawn = chart_pixels(browser)
        assert drawn["painted"] > 2000, drawn
        assert drawn["series"] > 100, f"the μ line is not drawn: {drawn}"
        legend = browser.run("return document.querySelector('.u-legend').textContent")
        assert "TrueSkill \u03bc" in legend and "\u03bc \u2212 3\u03c3" in legend  # mu - 3 sigma
        browser.screenshot(shots / "bot-1280.png")

        buttons = browser.find_all("figure.rating-chart .chart-systems button")
        names = [browser.run("return arguments[0].textContent", b) for b in buttons]
        assert names == ["Elo", "TrueSkill", "OpenSkill"]
        browser.click(buttons[0])
        wait_for(lambda: "Elo" in browser.run(
            "return document.querySelector('.u-legend').textContent"), "the Elo chart")  # fmt: skip
        assert chart_pixels(browser)["series"] > 100

        # hover the last point, then click: the game page opens
        over = browser.find_all("figure.rating-chart .u-over")[0]
        width = browser.run("return arguments[0].getBoundingClientRect().width", over)
        browser.cmd("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "origin": {ELEMENT: over[ELEMENT]},
                 "x": int(width / 2) - 2, "y": 0},
                {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0},
            ],
        }]})  # fmt: skip
        wait_for(lambda: browser.run("return location.pathname") == f"/games/{latest.pk}/",
                 "the game page")  # fmt: skip
        assert errors(browser) == []

    with Browser(phone=True) as browser:
        browser.get(page)
        drawn = chart_pixels(browser)
        assert drawn["series"] > 100, drawn
        assert drawn["width"] <= 390 * 2
        overflow = browser.run("return document.documentElement.scrollWidth")
        assert overflow <= 390, f"the page is {overflow} px wide on a 390 px phone"
        browser.screenshot(shots / "bot-390.png")
        assert errors(browser) == []
        for width, phone in ((1280, False), (390, True)):
            with Browser(width, phone=phone) if not phone else Browser(phone=True) as person:
                person.get(f"{server}/people/marta/")
                assert chart_pixels(person)["series"] > 50
                assert person.run("return document.documentElement.scrollWidth") <= width
                person.screenshot(shots / f"person-{width}.png")
                assert errors(person) == []

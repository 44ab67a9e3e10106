"""How ``static/boards/log.js`` draws the game log, from frames written here, in a real browser.

The whole-game tests show the log the server sends and what a page makes of a
real game; this one holds the drawing to each rule with entries chosen for it:
names and colours for "seat N" (a number past the players stays text), round
and phase headings, a seat's own move shown only where the public events do
not tell it, the timeout mark, the highlight of what came after the viewer's
own last move, a frame's events played one at a time and the skip button, and
a frame that does not continue the log refused (the page then asks for it
whole). The log runs on the board preview page, which loads ``board.js``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser.chromium import console_errors, needs_chromium, start

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]
LOG_JS = Path(__file__).resolve().parents[2] / "static" / "boards" / "log.js"

MODEL = {
    "engine": "manila",
    "numPlayers": 3,
    "seat": 1,
    "names": {"0": "ana", "1": "bo", "2": "cy"},
}
FIRST = {
    "from": 0,
    "to": 3,
    "entries": [
        {"ply": 0, "seat": -1, "events": [
            {"type": "dealt", "text": "Seat 0 is dealt a share, face down."},
            {"type": "supply", "text": "Seat 7 is no seat of this game."},
        ]},
        {"ply": 1, "seat": -1, "events": [
            {"type": "voyage", "voyage": 1, "text": "Voyage 1 begins with the auction."},
        ]},
        {"ply": 2, "seat": 1, "mine": "Bid 5 pesos", "events": [
            {"type": "bid", "text": "Seat 1 bids 5 pesos to become harbor master."},
        ]},
    ],
}  # fmt: skip
SECOND = {
    "from": 3,
    "to": 6,
    "entries": [
        {"ply": 3, "seat": 2, "default": "timeout", "events": [
            {"type": "pass", "text": "Seat 2 passes."},
        ]},
        {"ply": 4, "seat": 1, "mine": "Put an accomplice aside", "events": []},
        {"ply": 5, "seat": 0, "events": [
            {"type": "bid", "text": "Seat 0 bids 6 pesos to become harbor master."},
        ]},
    ],
}  # fmt: skip
GAP = {"from": 9, "to": 10, "entries": []}

ROWS = """
return Array.from(document.querySelectorAll('#test-log li'), function (li) {
  return [li.className, li.textContent, li.hidden];
});
"""


def rows(browser: WebDriver) -> list[tuple[str, str, bool]]:
    return [tuple(row) for row in browser.execute_script(ROWS)]


def test_the_log_draws_names_groups_own_moves_marks_highlights_and_plays_steps(
    live_server,
) -> None:
    with start(1280, 900) as browser:
        browser.get(f"{live_server.url}/boards/manila/?players=3&seed=1")
        browser.execute_script(LOG_JS.read_text())
        browser.execute_script(
            "var box = document.createElement('section'); box.id = 'test-log';"
            "document.body.appendChild(box); window.testLog = HMLog.create(box);"
        )
        took = browser.execute_script(
            "return testLog.update({model: arguments[0], log: arguments[1]})", MODEL, FIRST
        )
        assert took is True
        assert rows(browser) == [
            ("hm-log-phase", "Setting up", False),
            ("hm-log-event", "● ana is dealt a share, face down.", False),
            ("hm-log-event", "Seat 7 is no seat of this game.", False),
            ("hm-log-round", "Voyage 1", False),
            ("hm-log-phase", "Auction for harbour master", False),
            ("hm-log-event", "Voyage 1 begins with the auction.", False),
            ("hm-log-event", "▲ bo (you) bids 5 pesos to become harbor master.", False),
        ]  # the own bid is told by its event: no "you chose" line

        browser.execute_script(  # the steps wait for the test: no timer ever fires
            "window.realSetTimeout = window.setTimeout;"
            "window.setTimeout = function () { return 0; };"
            "testLog.update({model: arguments[0], log: arguments[1]});",
            MODEL,
            SECOND,
        )
        shown = rows(browser)
        assert [hidden for _, _, hidden in shown[7:]] == [False, True, True]  # one step at a time
        assert browser.execute_script("return !document.querySelector('.hm-log-skip').hidden")
        assert "■ cy passes." in browser.execute_script(
            "return document.querySelector('.hm-log-now').textContent"
        )
        browser.execute_script(
            "document.querySelector('.hm-log-skip').click();"
            "window.setTimeout = window.realSetTimeout;"
        )
        assert rows(browser)[7:] == [
            ("hm-log-event", "■ cy passes. timed out", False),
            ("hm-log-event hm-log-mine", "you chose: Put an accomplice aside", False),
            ("hm-log-event hm-log-new", "● ana bids 6 pesos to become harbor master.", False),
        ]  # only what came after bo's own last move (ply 4) is highlighted
        assert browser.execute_script(
            "return document.querySelector('.hm-log-default').title"
        ).startswith("No answer in time")
        assert browser.execute_script(
            "return document.querySelector('.hm-log-now').hidden"
            " && document.querySelector('.hm-log-skip').hidden"
        )

        took = browser.execute_script(
            "return testLog.update({model: arguments[0], log: arguments[1]})", MODEL, GAP
        )
        assert took is False and len(rows(browser)) == 10  # refused, and nothing changed
        browser.execute_script(
            "testLog.update({model: arguments[0], log: arguments[1]})", MODEL, FIRST
        )
        assert len(rows(browser)) == 7  # a whole log again replaces what was kept
        assert console_errors(browser) == []

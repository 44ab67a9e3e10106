"""The play page for people on a phone and with a keyboard (issue #32, points 6 and 8), in a real
browser: the skip link, the first control scrolled into view when the turn comes, the L key,
and the opt-in turn notification.

The page's ``Notification`` is a stand-in installed before the page's own
scripts (the Chrome DevTools protocol's ``Page.addScriptToEvaluateOnNewDocument``),
which records what the page shows and answers a permission request with
"granted"; ``document.hidden`` is the test's to set, so "the tab is in the
background" needs no second window. A person plays Manila against two example
bots; skipped where Chromium is missing and without PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from harbormaster.demo import example_bots
from tests.browser.chromium import console_errors, needs_chromium, page_screenshot, start
from tests.browser.person import my_turn_controls, next_ply, open_table
from tests.browser.site import served_site, sign_in, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, needs_chromium]
SHOTS = "play-access"

STAND_IN = """
window.__notes = [];
window.__hidden = false;
window.Notification = function (title, options) {
  window.__notes.push(title);
  this.close = function () {};
};
window.Notification.permission = sessionStorage.getItem("stand-in-permission") || "default";
window.Notification.requestPermission = function () {  // granted, and kept as a browser would
  window.Notification.permission = "granted";
  sessionStorage.setItem("stand-in-permission", "granted");
  return Promise.resolve("granted");
};
Object.defineProperty(document, "hidden", { get: function () { return window.__hidden; } });
"""

FIRST_CONTROL_IN_VIEW = """
var b = document.querySelector('#board .hm-control[data-action-index]:not([disabled])');
if (!b) { return null; }
var r = b.getBoundingClientRect();
return r.top >= 0 && r.bottom <= window.innerHeight;
"""


def active(browser: WebDriver) -> str:
    return browser.execute_script(
        "var a = document.activeElement; return a.id || a.className || a.tagName;"
    )


def test_a_phone_person_skips_to_the_board_sees_the_first_control_and_is_notified_of_the_turn(
    shots: Path,
) -> None:
    person = get_user_model().objects.create_user("noa", password="x")
    with example_bots(), served_site() as site, start(390, 800, phone=True) as browser:
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": STAND_IN})
        browser.get(site + "/healthz")
        sign_in(browser, person)
        game_id = open_table(
            browser, site, "manila", ["examples/greedy", "examples/random-1"],
            time_control="standard", rated=False,
        )  # fmt: skip
        wait_for(lambda: my_turn_controls(browser, game_id), "the person's turn", 60)
        # The turn came with the page: its first control was scrolled into view.
        wait_for(lambda: browser.execute_script(FIRST_CONTROL_IN_VIEW), "the first control in view")
        assert browser.execute_script("return window.scrollY") > 0
        page_screenshot(browser, shots / "manila-phone-turn.png")

        # The skip link is the page's first stop for Tab, and leads to the board.
        first = browser.execute_script(
            "return document.querySelector('a[href], button, input, select, textarea,"
            ' [tabindex]:not([tabindex="-1"])\').outerHTML'
        )
        assert 'class="skip-link" href="#board"' in first
        browser.execute_script(
            "window.scrollTo(0, 0); document.querySelector('.skip-link').focus();"
        )
        browser.switch_to.active_element.send_keys(Keys.ENTER)
        wait_for(lambda: active(browser) == "board", "the focus on the board")

        # L goes to the game log.
        browser.switch_to.active_element.send_keys("l")
        assert "hm-log-scroll" in active(browser)

        # No notification unless asked for; asked for, it is remembered.
        assert browser.execute_script("return window.__notes") == []
        (toggle,) = browser.find_elements(By.CSS_SELECTOR, "#play-notify")
        assert toggle.is_displayed()
        toggle.click()
        wait_for(
            lambda: browser.execute_script("return localStorage.getItem('hm-notify-turn')") == "on",
            "the choice remembered",
        )
        # The tab goes to the background; after the person's move the bots play, the turn
        # comes back, and the page says so with a notification.
        browser.execute_script("window.__hidden = true;")
        found = wait_for(lambda: my_turn_controls(browser, game_id), "the person's turn", 60)
        ply = next_ply(game_id)
        found[0].click()
        wait_for(lambda: next_ply(game_id) > ply, "the move")
        wait_for(
            lambda: (
                my_turn_controls(browser, game_id) == "over"
                or browser.execute_script("return window.__notes.length") > 0
            ),
            "a notification or the end",
            60,
        )
        notes = browser.execute_script("return window.__notes")
        assert notes and notes[0].startswith("Your turn"), notes
        browser.refresh()  # the choice survives a reload
        wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#play-notify"), "the page")
        wait_for(
            lambda: browser.execute_script("return document.getElementById('play-notify').checked"),
            "the toggle on again",
        )
        assert console_errors(browser) == []

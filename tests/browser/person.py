"""Helpers of the people's real-browser scenarios: signing up, opening a table, playing by clicks.

The site is served by ``tests.browser.site.served_site`` (uvicorn on the test's
database, embedded mode), so a person's click goes browser → socket →
``referee.submit`` → the example bots over loopback HTTP, exactly as on
``make demo``. The example bots are served by the test process
(``harbormaster.demo.example_bots``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

from games.models import Game
from tests.browser.site import wait_for

ENABLED_CONTROLS = "#board .hm-control[data-action-index]:not([disabled])"
CLICK_GAP_S = 0.22
"""At least this long between two clicks: the socket takes 5 messages a second on average
(``person_moves``' rate limit), and an auction against bots that answer at once can offer
the seat a new turn faster than a person could click."""


def choose(browser: WebDriver, select_id: str, wanted: str) -> None:
    """Pick the option of a <select> whose value or text is ``wanted`` (and tell the page)."""
    found = browser.execute_script(
        "var s = document.getElementById(arguments[0]), want = arguments[1];"
        "for (var o of s.options) {"
        "  if (o.value !== want && o.textContent.trim() !== want) { continue; }"
        "  s.value = o.value; s.dispatchEvent(new Event('change', {bubbles: true}));"
        "  return true;"
        "}"
        "return false;",
        select_id,
        wanted,
    )
    assert found, f"no option {wanted!r} in #{select_id}"


def fill(browser: WebDriver, fields: dict[str, str]) -> None:
    """Type each value into the input named by its key."""
    for name, value in fields.items():
        (element,) = browser.find_elements(By.CSS_SELECTOR, f"input[name='{name}']")
        element.send_keys(value)


def click_button(browser: WebDriver, text: str) -> None:
    """Click the (first) button whose text is ``text``."""
    buttons = [
        b for b in browser.find_elements(By.CSS_SELECTOR, "button")
        if browser.execute_script("return arguments[0].textContent.trim()", b) == text
    ]  # fmt: skip
    assert buttons, f"no button {text!r}"
    buttons[0].click()


def sign_up(browser: WebDriver, site: str, username: str, *, accepts_bots: bool) -> None:
    """Sign up through the site's own form (and answer the consent question)."""
    browser.get(site + "/accounts/signup/")
    fill(
        browser,
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": "a-long-enough-password-1",
            "password2": "a-long-enough-password-1",
        },
    )
    if accepts_bots:
        (consent,) = browser.find_elements(By.CSS_SELECTOR, "input[name='accepts_bot_opponents']")
        consent.click()
    click_button(browser, "Sign Up")
    wait_for(
        lambda: "/accounts/signup" not in browser.execute_script("return location.pathname"),
        "sign-up",
    )


def open_table(
    browser: WebDriver, site: str, engine: str, seats: list[str], *, time_control: str, rated: bool
) -> int:
    """Create a table in the lobby's form with these bots (by name) in the other seats.

    With every seat filled the table starts at once and the page goes to the
    play page; returns the game's number from its address.
    """
    browser.get(site + "/lobby/")
    choose(browser, "id_engine", engine)
    choose(browser, "id_num_players", str(len(seats) + 1))
    choose(browser, "id_time_control", time_control)
    for n, name in enumerate(seats, start=1):
        choose(browser, f"id_seat_{n}", name)
    (box,) = browser.find_elements(By.CSS_SELECTOR, "#id_rated")
    if browser.execute_script("return arguments[0].checked", box) != rated:
        box.click()
    click_button(browser, "Create the table")
    path = wait_for(
        lambda: (p := browser.execute_script("return location.pathname")).endswith("/play/") and p,
        "the play page",
    )
    return int(str(path).strip("/").split("/")[1])


def title(browser: WebDriver) -> str:
    return browser.execute_script("return document.title")


def status_of(game_id: int) -> str:
    return Game.objects.values_list("status", flat=True).get(pk=game_id)


def next_ply(game_id: int) -> int:
    return Game.objects.values_list("next_ply", flat=True).get(pk=game_id)


def my_turn_controls(browser: WebDriver, game_id: int) -> list[WebElement] | str:
    """The enabled board controls once it is this page's turn, or "over" once the game is."""
    if status_of(game_id) != Game.Status.RUNNING:
        return "over"
    shown = browser.execute_script(
        "var p = document.getElementById('play');"
        "return [p.getAttribute('data-ply'), p.getAttribute('data-your-turn')];"
    )
    if shown != [str(next_ply(game_id)), "true"]:
        return []  # not this seat's turn, or the page still shows an older position
    assert title(browser).startswith("▶"), "the tab title says whose turn it is"
    return browser.find_elements(By.CSS_SELECTOR, ENABLED_CONTROLS)


def play_by_clicks(
    browser: WebDriver,
    game_id: int,
    *,
    rng: random.Random,
    max_clicks: int,
    stop_after: int | None = None,
    turn_timeout: float = 60,
    on_click: Callable[[int], None] | None = None,
) -> int:
    """Click a random legal control on every turn until the game ends (or ``stop_after``
    clicks were logged); the number of clicks.

    Each turn waits for the page to show the current position with the seat
    to move (and "▶" in the tab title) and for ``CLICK_GAP_S`` since the last
    click, then clicks one of them for real (WebDriver's element click, so
    the control must be visible and enabled), then waits for the move to be
    logged before looking again.
    """
    clicks, last_click = 0, 0.0
    while True:
        found = wait_for(
            lambda: my_turn_controls(browser, game_id), "the seat's turn or the end", turn_timeout
        )
        if found == "over" or clicks == stop_after:
            return clicks
        assert clicks < max_clicks, f"still playing after {clicks} clicks"
        before = next_ply(game_id)
        control = rng.choice(found)
        time.sleep(max(0.0, last_click + CLICK_GAP_S - time.monotonic()))
        last_click = time.monotonic()
        label = browser.execute_script("return arguments[0].outerHTML.slice(0, 300)", control)
        control.click()
        clicks += 1
        if on_click is not None:
            on_click(clicks)
        try:
            wait_for(lambda b=before: next_ply(game_id) > b, "the clicked move to be logged", 20)
        except AssertionError:
            refused = browser.execute_script(
                "return document.getElementById('play-refused').textContent"
            )
            raise AssertionError(
                f"click {clicks} on {label} at ply {before} was not logged; page says {refused!r}"
            ) from None

"""Each of the four boards with its game log, on a seat's play page at 1280 and 390 px (issue #32).

Issue #32 asks for screenshots of each board with its log to be looked at
before it is called done; the other log tests play Manila only. Here a game of
each engine between people is logged near its end in one write (the
referee's own, ``tests.tournaments.played.fast_forward``), then the seat to
move opens its play page on a desktop and on a phone: the log is drawn beside
or below the board with an entry for every public event so far, the page is
no wider than the phone, and no script fails. Screenshots go to
``$HM_ARTEFACTS/game-log-boards``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from engines import CHANCE
from games.models import Game
from games.referee.statecache import load_state
from games.selectors import spectator
from games.services import create_game
from tests.browser.chromium import console_errors, needs_chromium, page_screenshot, start
from tests.browser.site import served_site, sign_in, wait_for
from tests.tournaments.play.conftest import people
from tests.tournaments.played import fast_forward

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.usefixtures("eager_referee"),
    needs_chromium,
]
SHOTS = "game-log-boards"
ENGINES = ["manila", "batavia", "cargo_noir", "grog_island"]


def log_entries(browser) -> int:
    return len(browser.find_elements(By.CSS_SELECTOR, "#play-log .hm-log-event:not(.hm-log-mine)"))


def log_plies(browser) -> int:
    return int(
        browser.execute_script(
            "return document.getElementById('play-log').getAttribute('data-plies') || -1"
        )
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_each_board_shows_its_log_on_a_desktop_and_a_phone(engine: str, shots: Path) -> None:
    players = people(3, prefix=f"{engine[:4]}_")
    game = create_game(engine, players, seed=f"log-{engine}", move_time_ms=600_000)
    fast_forward(game, random.Random(32), leave=4)
    game.refresh_from_db()
    seat = load_state(game).to_move[0]
    assert seat != CHANCE
    public = sum(  # Cargo Noir's "turn" events are the log's phase headings, not lines
        1 for ply in spectator.public_plies(game) for e in ply.events if e["type"] != "turn"
    )
    assert public > 20
    user = players[seat].user
    with served_site() as site:
        for width, phone in ((1280, False), (390, True)):
            with start(width, 900, phone=phone) as browser:
                browser.get(site + "/healthz")
                sign_in(browser, user)
                browser.get(f"{site}/games/{game.pk}/play/")
                wait_for(lambda b=browser: log_plies(b) == game.next_ply, "the log up to now", 30)
                assert log_entries(browser) == public
                browser.execute_script(
                    "var s = document.querySelector('.hm-log-skip'); if (s) s.click();"
                )
                wait_for(
                    lambda b=browser: b.find_elements(By.CSS_SELECTOR, "#board .hm-board"),
                    "the board",
                )
                page_width = browser.execute_script("return document.documentElement.scrollWidth")
                assert page_width <= width, f"{page_width} px wide in a {width} px window"
                page_screenshot(browser, shots / f"{engine}-{width}.png")
                assert console_errors(browser) == []
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING

"""The game log in a real browser: a person plays Manila to the end against two example bots
while the test reads the log beside the board (issue #32).

Every public event of the game's record must be in the page's log, in the
record's order, with the players' names in place of "seat N" (the seat's own
name marked "(you)"); at the person's turns the log so far is the record so
far, and what the bots did since the person's last move is highlighted. Along
the way: after a click focus stays on the board, the P key plays a pass, the
tab title says "Game over" at the end and the page links the favicon. Skipped
where Chromium or its driver is missing, and without PostgreSQL (the site runs
in another process). Screenshots go to ``$HM_ARTEFACTS/game-log``.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

import engines
from games.models import Game, Move
from games.selectors import spectator
from harbormaster.demo import example_bots
from tests.browser.chromium import console_errors, needs_chromium, page_screenshot, start
from tests.browser.person import CLICK_GAP_S, my_turn_controls, next_ply, open_table
from tests.browser.site import served_site, sign_in, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, needs_chromium]
SHOTS = "game-log"
MARKS = ["●", "▲", "■", "◆", "★"]  # board.js's seat marks, in its chips before the name
SEAT = re.compile(r"\b[Ss]eat (\d+)\b")

READ_LOG = """
var items = document.querySelectorAll('#play-log .hm-log-event:not(.hm-log-mine)');
return Array.from(items, function (li) {
  var copy = li.cloneNode(true);
  copy.querySelectorAll('.hm-log-default').forEach(function (m) { m.remove(); });
  var ply = Number(li.getAttribute('data-ply'));
  return [ply, copy.textContent, li.classList.contains('hm-log-new')];
});
"""


def expected_log(game: Game, names: list[str], me: int, plies: int) -> list[tuple[int, str]]:
    """``[(ply, text)]`` of every public event of the game's record before ``plies``, as the
    page should write it: the engine's sentence with each seat's mark and name."""
    rules = engines.get(game.engine)

    def named(match: re.Match) -> str:
        seat = int(match.group(1))
        return f"{MARKS[seat]} {names[seat]}" + (" (you)" if seat == me else "")

    return [
        (ply.ply, SEAT.sub(named, rules.describe_event(event)))
        for ply in spectator.public_plies(game)[:plies]
        for event in ply.events
    ]


def shown_log(browser: WebDriver) -> list[tuple[int, str, bool]]:
    return [tuple(row) for row in browser.execute_script(READ_LOG)]


def log_plies(browser: WebDriver) -> int:
    return int(
        browser.execute_script(
            "return document.getElementById('play-log').getAttribute('data-plies') || -1"
        )
    )


def test_a_person_plays_manila_to_the_end_reading_every_event_of_the_record_in_the_log(
    shots: Path,
) -> None:
    person = get_user_model().objects.create_user("lea", password="x")
    with example_bots(), served_site() as site, start(1280, 1000) as browser:
        browser.get(site + "/healthz")
        sign_in(browser, person)
        game_id = open_table(
            browser, site, "manila", ["examples/greedy", "examples/random-1"],
            time_control="standard", rated=False,
        )  # fmt: skip
        game = Game.objects.get(pk=game_id)
        names = list(game.seats.order_by("position").values_list("competitor__name", flat=True))
        assert names[0] == "lea"
        rng, clicks, passed_by_key, checked_turns, highlighted = random.Random(3), 0, False, 0, 0
        while True:
            found = wait_for(lambda: my_turn_controls(browser, game_id), "a turn or the end", 60)
            if found == "over":
                break
            ply = next_ply(game_id)
            wait_for(lambda p=ply: log_plies(browser) == p, "the log up to the current ply")
            shown = shown_log(browser)
            game.refresh_from_db()
            assert [(p, t) for p, t, _ in shown] == expected_log(game, names, 0, ply), ply
            mine = [p for (p,) in Move.objects.filter(game=game, seat=0).values_list("ply")]
            if mine:  # what happened since the person's last move, and only that, is highlighted
                assert all(new == (p > max(mine)) for p, _, new in shown)
                highlighted += any(new for _, _, new in shown)
            checked_turns += 1
            if clicks:  # after the last click the board kept the focus
                assert browser.execute_script(
                    "return document.getElementById('board').contains(document.activeElement)"
                )
            time.sleep(CLICK_GAP_S)
            passes = browser.find_elements(
                By.CSS_SELECTOR, "#board .hm-control[data-action-index]:not([disabled])"
            )
            if not passed_by_key and ply > 0 and any(b.text.strip() == "pass" for b in passes):
                browser.find_element(By.TAG_NAME, "body").send_keys("p")
                wait_for(lambda p=ply: next_ply(game_id) > p, "the pass played by the P key", 20)
                move = Move.objects.get(game=game, ply=ply)
                assert move.seat == 0 and move.action["type"] == "pass"
                passed_by_key = True
            else:
                rng.choice(found).click()
                wait_for(lambda p=ply: next_ply(game_id) > p, "the clicked move", 20)
            clicks += 1
            if clicks == 8:
                page_screenshot(browser, shots / "manila-log-playing.png")
            assert clicks < 200
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        wait_for(lambda: log_plies(browser) == game.next_ply, "the whole log")
        browser.execute_script("var s = document.querySelector('.hm-log-skip'); if (s) s.click();")
        page_screenshot(browser, shots / "manila-log-over.png")
        shown = shown_log(browser)
        expected = expected_log(game, names, 0, game.next_ply)
        assert [(p, t) for p, t, _ in shown] == expected
        kinds = {e["type"] for ply in spectator.public_plies(game) for e in ply.events}
        assert {"voyage", "bid", "roll", "profits", "game_over"} <= kinds
        assert any("greedy" in t for _, t in expected) and any(
            "lea (you)" in t for _, t in expected
        )
        rounds = browser.execute_script(
            "return Array.from(document.querySelectorAll('#play-log .hm-log-round'),"
            " e => e.textContent)"
        )
        voyages = [
            e["voyage"]
            for ply in spectator.public_plies(game)
            for e in ply.events
            if e["type"] == "voyage"
        ]
        assert rounds == [f"Voyage {v}" for v in voyages]
        assert browser.title.startswith("■ Game over")
        assert browser.find_elements(By.CSS_SELECTOR, "link[rel='icon'][href$='favicon.svg']")
        assert passed_by_key and checked_turns > 5 and highlighted > 0
        assert console_errors(browser) == []

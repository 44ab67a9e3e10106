"""Issue #32's scenario with the timeout: a person lets their clock run out in Manila's auction,
in a real browser, and the game goes on to its end (issue #32, "Done when").

The table is opened in the lobby with the standard time control; once it runs,
the test shortens the game's clock (a few seconds a move, no bank) so that
waiting for the deadline stays short, and gives the standard clock back after
the timeout so that no other move of the person can time out by accident
under load. The server's own clock task plays the default: nothing here calls
the referee. Then: the default was a pass (never a bid), the log marks that
move "timed out" and no other, the game page's move list marks it too, the
person plays by clicks to the end, and the final standings on the board are
the record's ranking (with its notes in words: the single timeout is no
forfeit, so no seat has a "left the game" note, and the panel says none).
Screenshots go to ``$HM_ARTEFACTS/game-log-timeout``.
"""

from __future__ import annotations

import json
import random
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from selenium.webdriver.common.by import By

from games.models import Game, Move, Seat
from games.referee.statecache import load_state
from harbormaster.demo import example_bots
from lobby import time_controls
from tests.browser.chromium import console_errors, needs_chromium, page_screenshot, start
from tests.browser.person import my_turn_controls, next_ply, open_table, play_by_clicks
from tests.browser.site import served_site, sign_in, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, needs_chromium]
SHOTS = "game-log-timeout"
SHORT_MOVE_MS = 2500
"""The person's move time while the test waits for a timeout; the clock task fires after this
plus the referee's grace (2 s)."""

READ_MARKS = """
return Array.from(document.querySelectorAll('#play-log .hm-log-event'), function (li) {
  var mark = li.querySelector('.hm-log-default');
  return [Number(li.getAttribute('data-ply')), mark ? mark.textContent.trim() : null];
});
"""
READ_STANDINGS = """
return Array.from(document.querySelectorAll('#board .hm-standings-list li'), function (li) {
  var note = li.querySelector('.hm-rank-note');
  return [Number(li.getAttribute('data-seat')), Number(li.getAttribute('data-rank')),
          note ? note.textContent.trim() : null];
});
"""


def set_clock(game: Game, move_time_ms: int, bank_ms: int) -> None:
    """The game's clock for the turns that start from now on (read by the referee each turn)."""
    Game.objects.filter(pk=game.pk).update(move_time_ms=move_time_ms, time_bank_ms=bank_ms)
    Seat.objects.filter(game=game).update(bank_left_ms=bank_ms)


def auction_turn(game_id: int) -> bool:
    """Whether the person (seat 0) is to move in an auction where a bid and a pass are legal."""
    game = Game.objects.get(pk=game_id)
    state = load_state(game)
    if not state.to_move or state.to_move[0] != 0:
        return False
    kinds = {action["type"] for action in state.legal_actions(0)}
    return {"bid", "pass"} <= kinds


def test_a_person_times_out_in_manilas_auction_passes_is_marked_and_the_rankings_agree(
    shots: Path,
) -> None:
    assert settings.BOT_MAX_FAULTS_PER_GAME > 1  # one timeout is no forfeit here
    person = get_user_model().objects.create_user("tim", password="x")
    standard = time_controls.get("standard")
    assert standard is not None
    with example_bots(), served_site() as site, start(1280, 1000) as browser:
        browser.get(site + "/healthz")
        sign_in(browser, person)
        game_id = open_table(
            browser, site, "manila", ["examples/greedy", "examples/random-1"],
            time_control="standard", rated=False,
        )  # fmt: skip
        game = Game.objects.get(pk=game_id)
        set_clock(game, SHORT_MOVE_MS, 0)
        rng, clicks = random.Random(32), 0
        while True:  # click until an auction turn that began on the short clock
            found = wait_for(lambda: my_turn_controls(browser, game_id), "the person's turn", 60)
            assert found != "over", "the game ended before an auction turn of the person"
            if clicks and auction_turn(game_id):
                break
            ply = next_ply(game_id)
            rng.choice(found).click()
            wait_for(lambda p=ply: next_ply(game_id) > p, "the clicked move", 20)
            clicks += 1
            assert clicks < 40, "no auction turn for the person"

        waited = next_ply(game_id)
        state = load_state(Game.objects.get(pk=game_id))
        assert state.legal_actions(0)[0]["type"] == "bid"  # what the old default played
        page_screenshot(browser, shots / "manila-waiting.png")
        wait_for(lambda: next_ply(game_id) > waited, "the clock to run out", 30)
        set_clock(game, standard.move_time_ms, standard.time_bank_ms)

        move = Move.objects.get(game=game, ply=waited)
        assert (move.seat, move.action, move.source, move.fault_kind) == (
            0,
            {"type": "pass"},
            "default",
            "timeout",
        )
        wait_for(
            lambda: [p for p, m in browser.execute_script(READ_MARKS) if m] == [waited],
            "the log's timeout mark",
        )
        marks = browser.execute_script(READ_MARKS)
        assert {m for p, m in marks if p == waited} == {"timed out"}
        page_screenshot(browser, shots / "manila-timeout-in-log.png")

        clicks += play_by_clicks(browser, game_id, rng=rng, max_clicks=250)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        wait_for(
            lambda: browser.find_elements(By.CSS_SELECTOR, "#board .hm-standings-list li"),
            "the final standings",
        )
        wait_for(
            lambda: int(browser.execute_script(
                "return document.getElementById('play-log').getAttribute('data-plies') || -1"
            )) == game.next_ply,
            "the whole log",
        )  # fmt: skip
        browser.execute_script("var s = document.querySelector('.hm-log-skip'); if (s) s.click();")
        page_screenshot(browser, shots / "manila-over.png")
        marked = [p for p, m in browser.execute_script(READ_MARKS) if m]
        assert sorted(set(marked)) == [waited]  # the one default of the game, nothing else

        with urllib.request.urlopen(f"{site}/api/v1/games/{game_id}/record/") as reply:
            record = json.load(reply)
        ranks = record["outcome"]["ranks"]
        notes = {seat["position"]: seat["rank_note"] for seat in record["seats"]}
        standings = browser.execute_script(READ_STANDINGS)
        assert [(s, r) for s, r, _ in standings] == sorted(
            enumerate(ranks), key=lambda pair: (pair[1], pair[0])
        )  # the panel's order and ranks are the record's
        assert {s: n for s, _, n in standings} == {
            s: (f"({notes[s]})" if notes[s] else None) for s in notes
        }
        assert not any(notes.values())  # one timeout: no one left the game
        assert [m["seat"] for m in record["moves"] if m["ply"] == waited] == [0]
        assert Seat.objects.filter(game=game, forfeited=True).count() == 0
        api = json.load(urllib.request.urlopen(f"{site}/api/v1/games/{game_id}/"))
        assert [s["rank"] for s in sorted(api["seats"], key=lambda s: s["position"])] == ranks
        assert console_errors(browser) == []

        browser.get(f"{site}/games/{game_id}/")
        listed = browser.execute_script(
            "return Array.from(document.querySelectorAll('[data-default]'), function (m) {"
            "  return [Number(m.closest('li.ply').getAttribute('data-ply')),"
            "          m.getAttribute('data-default'), m.textContent.trim()]; });"
        )
        assert listed == [[waited, "timeout", "timed out: the default action was played"]]
        mark = browser.find_element(By.CSS_SELECTOR, f"li.ply[data-ply='{waited}'] .default-mark")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", mark)
        page_screenshot(browser, shots / "manila-game-page-timeout.png")

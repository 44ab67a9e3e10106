"""People play games in a real browser (headless Chromium): from the lobby, by clicks, to the end.

A new person plays a whole Manila game by clicks; a person plays Grog Island
against a bot while another person watches, and resigns after a dozen moves,
so that the house bot plays the game out in front of both pages. Skipped
where Chromium or its driver is missing, and without PostgreSQL (the site runs
in another process, which cannot see an in-memory SQLite test database).
Screenshots of each board go to ``$HM_ARTEFACTS/people-play``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from games.models import Game, Move
from harbormaster.demo import example_bots
from ratings.models import Rating
from tests.browser.chromium import console_errors, needs_chromium, page_screenshot, start
from tests.browser.person import ENABLED_CONTROLS, open_table, play_by_clicks, sign_up
from tests.browser.site import served_site, sign_in, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, needs_chromium]
SHOTS = "people-play"


CLICKS_BEFORE_RESIGNING = 12
NOTICES = (
    "return Array.from(document.querySelectorAll(\".play-substitution[data-seat='0']\"),"
    " (p) => p.textContent);"
)


def outcome_shown(browser: WebDriver) -> bool:
    return browser.execute_script("return !document.getElementById('play-outcome').hidden")


def signed_in_as(browser: WebDriver, site: str, user) -> None:
    browser.get(site + "/healthz")
    sign_in(browser, user)


def test_a_new_person_signs_up_and_plays_manila_against_three_example_bots_to_the_end(
    shots: Path,
) -> None:
    with example_bots(), served_site() as site, start(1280, 1000) as browser:
        sign_up(browser, site, "ada", accepts_bots=True)
        browser.get(site + "/lobby/")
        page_screenshot(browser, shots / "lobby.png")
        bots = ["examples/greedy", "examples/random-1", "examples/random-2"]
        game_id = open_table(browser, site, "manila", bots, time_control="standard", rated=True)

        def shoot(clicks: int) -> None:
            if clicks in (1, 10):
                page_screenshot(browser, shots / f"manila-click-{clicks}.png")

        clicks = play_by_clicks(
            browser, game_id, rng=random.Random(1), max_clicks=200, on_click=shoot
        )
        wait_for(lambda: outcome_shown(browser), "the outcome on the page")
        page_screenshot(browser, shots / "manila-over.png")
        outcome = browser.execute_script(
            "return document.getElementById('play-outcome').textContent"
        )
        assert outcome.startswith("Game over")
        assert console_errors(browser) == []
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED and game.rated
    names = list(game.seats.order_by("position").values_list("competitor__name", flat=True))
    assert names == ["ada", *bots]
    mine = Move.objects.filter(game=game, seat=0)
    assert clicks > 5 and mine.count() == clicks
    assert set(mine.values_list("source", flat=True)) == {"person"}
    user = get_user_model().objects.get(username="ada")
    assert Rating.objects.filter(competitor__user=user, competitor__kind="person").exists()


def test_a_person_and_a_bot_play_grog_island_while_another_person_watches(
    shots: Path,
) -> None:
    """The watcher's board follows every move and has no controls; the person resigns
    (the page's button, confirmed), a house bot plays their seat to the end, and both pages
    say so and show the outcome.

    The person stops clicking after ``CLICKS_BEFORE_RESIGNING``: a whole game by clicks
    is the Manila test's, and every kind of Grog Island decision's controls are clicked
    in ``tests/browser/test_boards_cargo_noir_grog_island.py``.
    """
    users = get_user_model().objects
    player, watcher = users.create_user("bea", password="x"), users.create_user("cy", password="x")
    with (
        example_bots(),
        served_site() as site,
        start(1280, 1000) as seat_page,
        start(1280, 1000) as watch_page,
    ):
        signed_in_as(seat_page, site, player)
        game_id = open_table(
            seat_page, site, "grog_island", ["examples/greedy"], time_control="quick", rated=False
        )
        signed_in_as(watch_page, site, watcher)
        watch_page.get(site + "/lobby/")
        (watch,) = watch_page.find_elements(
            By.CSS_SELECTOR, f"a.lobby-watch[href='/games/{game_id}/play/']"
        )
        watch.click()
        wait_for(
            lambda: (
                "watching"
                in watch_page.execute_script(
                    "return document.getElementById('play-role').textContent"
                )
            ),
            "the watcher's frame",
        )
        watched_plies: set[str] = set()

        def watch_it(clicks: int) -> None:
            watched_plies.add(
                watch_page.execute_script(
                    "return document.getElementById('play').getAttribute('data-ply')"
                )
            )
            # a watcher has no controls
            assert watch_page.find_elements(By.CSS_SELECTOR, ENABLED_CONTROLS) == []
            if clicks == CLICKS_BEFORE_RESIGNING:
                page_screenshot(seat_page, shots / "grog-island-seat.png")
                page_screenshot(watch_page, shots / "grog-island-watcher.png")

        clicks = play_by_clicks(
            seat_page, game_id, rng=random.Random(2), max_clicks=600, on_click=watch_it,
            stop_after=CLICKS_BEFORE_RESIGNING,
        )  # fmt: skip
        assert clicks == CLICKS_BEFORE_RESIGNING
        assert len(watched_plies) > clicks // 2  # the watcher's board followed the game
        (resign,) = seat_page.find_elements(By.CSS_SELECTOR, "#play-resign")
        resign.click()
        seat_page.switch_to.alert.accept()  # "Resign? You rank last, ..."
        for browser in (seat_page, watch_page):
            wait_for(lambda b=browser: outcome_shown(b), "the outcome on both pages", 60)
            (notice,) = browser.execute_script(NOTICES)  # read at once: each frame redraws them
            assert "resigned: a house bot plays for it" in notice
        page_screenshot(watch_page, shots / "grog-island-over-watcher.png")
        for browser in (seat_page, watch_page):
            assert console_errors(browser) == []
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    mine = Move.objects.filter(game=game, seat=0).exclude(source="chance")
    assert mine.filter(source="person").count() == clicks
    assert mine.filter(source="house").exists()
    assert set(mine.values_list("source", flat=True)) == {"person", "house"}
    assert game.outcome.ranks[0] == 2  # a resigned seat ranks last

"""People play whole games in a real browser (headless Chromium), by clicking the board.

Skipped where Chromium or its driver is missing, and without PostgreSQL (the
site runs in another process, which cannot see an in-memory SQLite test
database). Screenshots of each board go to ``$HM_ARTEFACTS/people-play``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from harbormaster.demo import example_bots
from people.services import ensure_person
from tests.tournaments.boards.webdriver import MISSING, Browser
from tests.tournaments.play.test_play_in_browser import session_for
from tournaments.creation import create_game
from tournaments.models import Game, Move

from .browser_play import artefacts, play_by_clicks, served_site, wait_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
]


def test_a_person_plays_manila_against_three_example_bots_to_the_end(tmp_path: Path) -> None:
    shots = artefacts(tmp_path, "people-play")
    user = get_user_model().objects.create_user("ada", password="x")
    person = ensure_person(user).competitor
    with example_bots() as bots, served_site() as site:
        game = create_game(
            "manila", [person, *(b.competitor for b in bots[:3])], move_time_ms=60_000, rated=False
        )
        with Browser(1280, 1000) as browser:
            browser.get(site + "/healthz")
            cookie = {"name": "sessionid", "value": session_for(user), "path": "/"}
            browser.cmd("POST", "/cookie", {"cookie": cookie})
            browser.get(f"{site}/games/{game.pk}/play/")

            def shoot(clicks: int) -> None:
                if clicks in (1, 10):
                    browser.screenshot(shots / f"manila-click-{clicks}.png")

            clicks = play_by_clicks(
                browser, game.pk, rng=random.Random(1), max_clicks=200, on_click=shoot
            )
            wait_for(
                lambda: browser.run("return !document.getElementById('play-outcome').hidden"),
                "the outcome on the page",
            )
            browser.screenshot(shots / "manila-over.png")
            outcome = browser.run("return document.getElementById('play-outcome').textContent")
            assert outcome.startswith("Game over")
            assert [e for e in browser.console_errors() if "favicon" not in e] == []
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    mine = Move.objects.filter(game=game, seat=0)
    assert clicks > 5 and mine.count() == clicks
    assert set(mine.values_list("source", flat=True)) == {"person"}


def test_a_person_and_a_bot_play_grog_island_while_another_person_watches(
    tmp_path: Path,
) -> None:
    shots = artefacts(tmp_path, "people-play")
    users = get_user_model().objects
    player, watcher = users.create_user("bea", password="x"), users.create_user("cy", password="x")
    person = ensure_person(player).competitor
    with example_bots() as bots, served_site() as site:
        game = create_game(
            "grog_island", [person, bots[0].competitor], move_time_ms=60_000, rated=False
        )
        with Browser(1280, 1000) as seat_page, Browser(1280, 1000) as watch_page:
            for browser, user in ((seat_page, player), (watch_page, watcher)):
                browser.get(site + "/healthz")
                cookie = {"name": "sessionid", "value": session_for(user), "path": "/"}
                browser.cmd("POST", "/cookie", {"cookie": cookie})
                browser.get(f"{site}/games/{game.pk}/play/")
            wait_for(
                lambda: (
                    "watching"
                    in watch_page.run("return document.getElementById('play-role').textContent")
                ),
                "the watcher's frame",
            )
            watched_plies: set[str] = set()

            def watch(clicks: int) -> None:
                watched_plies.add(watch_page.run(
                    "return document.getElementById('play').getAttribute('data-ply')"
                ))  # fmt: skip
                assert (
                    watch_page.find_all("#board .hm-control[data-action-index]:not([disabled])")
                    == []
                )
                if clicks == 20:
                    seat_page.screenshot(shots / "grog-island-seat.png")
                    watch_page.screenshot(shots / "grog-island-watcher.png")

            clicks = play_by_clicks(
                seat_page, game.pk, rng=random.Random(2), max_clicks=600, on_click=watch
            )
            for browser in (seat_page, watch_page):
                wait_for(
                    lambda b=browser: b.run(
                        "return !document.getElementById('play-outcome').hidden"
                    ),
                    "the outcome on both pages",
                )
            watch_page.screenshot(shots / "grog-island-over-watcher.png")
            assert len(watched_plies) > clicks // 2  # the watcher's board followed the game
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert Move.objects.filter(game=game, seat=0, source="person").count() == clicks

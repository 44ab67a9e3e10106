"""The lobby in a real browser, against uvicorn on the test database (PostgreSQL, Chromium).

The host's table page follows the table without a reload: a person joining
appears, and when the last seat is filled the page goes to the game's play
page by itself. The lobby page at phone and desktop widths is photographed
(``$HM_ARTEFACTS/lobby``, else a temporary directory the test prints) and
must not scroll sideways.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lobby import services
from lobby.models import LobbyTable
from tests.browser_site import artefacts, server, session_for, wait_for
from tests.tournaments.boards.webdriver import MISSING, Browser

from .conftest import bot, person

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
]
__all__ = ["server"]  # the fixture, imported for its name


@pytest.fixture(autouse=True)
def games_stay_put() -> None:
    """Here the referee may start the game: nothing but people and a bot that never answers."""


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    return artefacts(tmp_path, "lobby")


def sign_in(browser: Browser, user) -> None:
    browser.cmd(
        "POST",
        "/cookie",
        {"cookie": {"name": "sessionid", "value": session_for(user), "path": "/"}},
    )


def test_the_host_sees_a_join_and_is_sent_to_the_game(server, shots) -> None:
    host, guest = person("hana"), person("gus")
    table = services.create_table(host, "cargo_noir", 3, "standard", False, [None, None])
    with Browser(1280, 900) as browser:
        browser.get(f"{server}/lobby/")
        sign_in(browser, host)
        browser.get(f"{server}/lobby/tables/{table.pk}/")
        assert "1 of 3 seats filled" in browser.run("return document.body.textContent")
        services.join(table, guest)
        wait_for(
            lambda: (
                "gus" in browser.run("return document.getElementById('lobby-table').textContent")
            ),
            "the join to appear",
        )
        browser.screenshot(shots / "table-host.png")
        services.join(table, person("tess"))
        table.refresh_from_db()
        wait_for(
            lambda: browser.run("return location.pathname") == f"/games/{table.game_id}/play/",
            "the play page",
        )
        console = [e for e in browser.console_errors() if "favicon.ico" not in e]
        assert console == []


@pytest.mark.parametrize("width", [390, 1280])
def test_the_lobby_page_fits_the_screen(server, shots, width) -> None:
    house = person("examples")
    greedy = bot(house, "greedy", engines=["manila", "batavia", "cargo_noir", "grog_island"])
    host = person("hana")
    bot(host, "harbour-pilot-with-a-long-name", engines=["manila"])
    services.create_table(host, "manila", 4, "quick", False, [greedy.pk, None, None])
    other = person("marguerite-of-the-long-name")
    services.create_table(other, "grog_island", 2, "relaxed", True, [None])
    with Browser(width, 900, phone=width < 500) as browser:
        browser.get(f"{server}/lobby/")
        browser.screenshot(shots / f"lobby-anonymous-{width}.png")
        sign_in(browser, host)
        browser.get(f"{server}/lobby/")
        wide = browser.run("return document.documentElement.scrollWidth")
        browser.screenshot(shots / f"lobby-{width}.png")
        culprits = browser.run(
            "return [...document.querySelectorAll('main *')].filter(e => "
            "e.getBoundingClientRect().right > arguments[0]).slice(0, 8)"
            ".map(e => e.tagName + '.' + e.className)",
            width,
        )
        assert wide <= width, f"the page scrolls sideways at {width}px ({wide}px): {culprits}"
        browser.get(f"{server}/lobby/tables/{LobbyTable.objects.order_by('pk').first().pk}/")
        browser.screenshot(shots / f"table-{width}.png")
        console = [e for e in browser.console_errors() if "favicon.ico" not in e]
        assert console == []

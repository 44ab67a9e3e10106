"""The lobby in a real browser, against uvicorn on the test database (PostgreSQL, Chromium).

The host's table page follows the table without a reload: a person joining
appears, and when the last seat is filled the page goes to the game's play
page by itself. The lobby page at phone and desktop widths is photographed
(``$HM_ARTEFACTS/lobby``, else a temporary directory the test prints) and
must not scroll sideways.
"""

from __future__ import annotations

import pytest

from lobby import services
from lobby.models import LobbyTable
from tests.browser.chromium import console_errors, needs_chromium, page_screenshot, start
from tests.browser.site import sign_in, wait_for
from tests.lobby.conftest import bot, person

# Unlike tests/lobby/, the referee may start the game here (no games_stay_put): nothing
# but people and a bot that never answers.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, needs_chromium]
SHOTS = "lobby"


def test_the_host_sees_a_join_and_is_sent_to_the_game(server, shots) -> None:
    host, guest = person("hana"), person("gus")
    table = services.create_table(host, "cargo_noir", 3, "standard", False, [None, None])
    with start(1280, 900) as browser:
        browser.get(f"{server}/lobby/")
        sign_in(browser, host)
        browser.get(f"{server}/lobby/tables/{table.pk}/")
        assert "1 of 3 seats filled" in browser.execute_script("return document.body.textContent")
        services.join(table, guest)
        wait_for(
            lambda: (
                "gus"
                in browser.execute_script(
                    "return document.getElementById('lobby-table').textContent"
                )
            ),
            "the join to appear",
        )
        page_screenshot(browser, shots / "table-host.png")
        services.join(table, person("tess"))
        table.refresh_from_db()
        wait_for(
            lambda: (
                browser.execute_script("return location.pathname")
                == f"/games/{table.game_id}/play/"
            ),
            "the play page",
        )
        assert console_errors(browser) == []


@pytest.mark.parametrize("width", [390, 1280])
def test_the_lobby_page_fits_the_screen(server, shots, width) -> None:
    house = person("examples")
    greedy = bot(house, "greedy", engines=["manila", "batavia", "cargo_noir", "grog_island"])
    host = person("hana")
    bot(host, "harbour-pilot-with-a-long-name", engines=["manila"])
    services.create_table(host, "manila", 4, "quick", False, [greedy.pk, None, None])
    other = person("marguerite-of-the-long-name")
    services.create_table(other, "grog_island", 2, "relaxed", True, [None])
    with start(width, 900, phone=width < 500) as browser:
        browser.get(f"{server}/lobby/")
        page_screenshot(browser, shots / f"lobby-anonymous-{width}.png")
        sign_in(browser, host)
        browser.get(f"{server}/lobby/")
        wide = browser.execute_script("return document.documentElement.scrollWidth")
        page_screenshot(browser, shots / f"lobby-{width}.png")
        culprits = browser.execute_script(
            "return [...document.querySelectorAll('main *')].filter(e => "
            "e.getBoundingClientRect().right > arguments[0]).slice(0, 8)"
            ".map(e => e.tagName + '.' + e.className)",
            width,
        )
        assert wide <= width, f"the page scrolls sideways at {width}px ({wide}px): {culprits}"
        browser.get(f"{server}/lobby/tables/{LobbyTable.objects.order_by('pk').first().pk}/")
        page_screenshot(browser, shots / f"table-{width}.png")
        assert console_errors(browser) == []

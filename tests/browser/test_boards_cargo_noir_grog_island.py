"""The Cargo Noir and Grog Island boards in a real browser (issue 15).

Headless Chromium, driven by Selenium through Debian's chromedriver, opens the board
preview page (``/boards/<engine>/``) of seeded games at their start, middle
and end, for the seat to move and for a spectator, and checks what a player
relies on: the page runs without a JavaScript error, there is exactly one
clickable control per legal action (and none for a spectator or a seat that is
not to move), every control sits on the board rather than in the fallback list,
and a click reports the index of the legal action it stands for. A seat's
secret cards appear only on its own board. Screenshots of each board at 1200
and 390 px are saved as test artefacts (``$HM_ARTEFACTS/boards``, else a
temporary directory the test prints). Skipped, saying why, without the browser.

These tests want every JavaScript error from the first line of a document on,
not only what reaches the browser log, so a script injected through the
DevTools protocol records ``window.onerror``, unhandled promise rejections and
``console.error`` into ``window.hmErrors``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from engines import CHANCE, Dealer
from games.boards import board_model, random_position
from tests.browser.chromium import needs_chromium, start

pytestmark = needs_chromium
SHOTS = "boards"

# (engine, players, seed, plies, seat): "mover" = the seat to move at the first ply from
# `plies` on where a seat (not chance) is to move; None = a spectator.
CASES = [
    ("cargo_noir", 3, 7, 0, "mover"),
    ("cargo_noir", 3, 7, 160, "mover"),
    ("cargo_noir", 3, 7, 160, None),
    ("cargo_noir", 4, 7, 5000, 0),
    ("grog_island", 2, 7, 30, "mover"),
    ("grog_island", 3, 7, 130, "mover"),
    ("grog_island", 3, 7, 130, None),
    ("grog_island", 2, 7, 5000, 1),
]


def position(engine: str, players: int, seed: int, plies: int, seat):
    """(plies, seat, state) of a case, moving on past chance when a mover is wanted."""
    state = random_position(engine, players, seed, plies)
    if seat == "mover":
        while state.to_move == [CHANCE]:
            plies += 1
            state = random_position(engine, players, seed, plies)
        seat = state.to_move[0]
    return plies, seat, state


CATCH_ERRORS = """
window.hmErrors = [];
window.addEventListener("error", function (e) { window.hmErrors.push("error: " + e.message); });
window.addEventListener("unhandledrejection", function (e) {
  window.hmErrors.push("rejection: " + e.reason);
});
(function () {
  var original = console.error;
  console.error = function () {
    window.hmErrors.push("console: " + Array.prototype.join.call(arguments, " "));
    return original.apply(console, arguments);
  };
})();
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    """One session for the module, recording each page's errors in ``window.hmErrors``."""
    with start(1200, 900) as session:
        session.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CATCH_ERRORS})
        yield session


def _metrics(browser: WebDriver, width: int, height: int) -> None:
    mobile = width < 500  # a headless window is never narrower than 500 px: emulate
    params = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", params)


def screenshot_at(browser: WebDriver, path: Path, width: int) -> Path:
    """The whole page as a PNG, laid out ``width`` px wide."""
    _metrics(browser, width, 900)
    try:
        height = browser.execute_script("return document.documentElement.scrollHeight;")
        _metrics(browser, width, min(height, 8000))
        png = browser.get_screenshot_as_png()
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    path.write_bytes(png)
    return path


CONTROLS = """
var board = document.getElementById("board");
var all = Array.from(board.querySelectorAll("button"));
return {
  buttons: all.length,
  clickable: all.filter(function (b) { return !b.disabled; })
    .map(function (b) { return b.getAttribute("data-action-index"); }),
  fallback: board.querySelectorAll(".hm-fallback button").length,
  drawn: !!board.querySelector(".hm-board-" + arguments[0]),
  missing: !!board.querySelector(".hm-error"),
  hands: board.querySelectorAll(".gi-hand:not(.gi-revealed)").length,
  errors: window.hmErrors || ["the error catcher did not run"],
};
"""


@pytest.mark.parametrize(("engine", "players", "seed", "plies", "seat"), CASES)
def test_board_in_the_browser(
    browser, live_server, shots, engine, players, seed, plies, seat
) -> None:
    plies, seat, state = position(engine, players, seed, plies, seat)
    legal = board_model(state, seat)["legal"]
    query = f"players={players}&seed={seed}&plies={plies}&seat={'' if seat is None else seat}"
    browser.get(f"{live_server.url}/boards/{engine}/?{query}")
    found = browser.execute_script(CONTROLS, engine)

    assert found["errors"] == [], found["errors"]
    assert found["drawn"] and not found["missing"]
    # One clickable control per legal action, each index once, all of them on the board.
    assert sorted(found["clickable"], key=int) == [str(entry["index"]) for entry in legal]
    assert found["buttons"] == len(legal)
    assert found["fallback"] == 0
    if seat is None or state.is_over:
        assert legal == []
    else:
        assert legal, "a seat to move has legal actions"
    if engine == "grog_island":
        # Secret cards: only on the seat's own board, never on a spectator's.
        assert found["hands"] == (0 if seat is None else 1)

    who = "spectator" if seat is None else f"seat{seat}"
    name = f"{engine}-{players}p-seed{seed}-ply{plies}-{who}"
    screenshot_at(browser, shots / f"{name}-1200.png", 1200)
    screenshot_at(browser, shots / f"{name}-390.png", 390)

    if legal:
        entry = legal[len(legal) // 2]
        (button,) = browser.find_elements(
            By.CSS_SELECTOR, f'#board button[data-action-index="{entry["index"]}"]'
        )
        button.click()
        chosen = browser.execute_script(
            'return document.getElementById("board-chosen").getAttribute("data-chosen-index");'
        )
        assert chosen == str(entry["index"])
        assert browser.execute_script("return window.hmErrors;") == []


def decision_models(engine: str, players: int, seed: int) -> list[dict]:
    """The mover's model at the first position of each kind of decision in a seeded game.

    A kind is the phase (or stage) with the set of legal action types, so every
    rarely seen decision (a raise, a black-market swap, keeping a drawn objective,
    a ghost crew member) is drawn once; the finished game's board is drawn too.
    """
    state = random_position(engine, players, seed, 0)
    dealer, chooser = Dealer(seed), random.Random(seed)
    seen, models = set(), []
    while not state.is_over:
        mover = state.to_move[0]
        if mover == CHANCE:
            state.apply(CHANCE, dealer.choose(state))
            continue
        legal = state.legal_actions(mover)
        view = state.view(mover)
        kind = (view.get("phase") or view.get("stage"), frozenset(a["type"] for a in legal))
        if kind not in seen:
            seen.add(kind)
            models.append(board_model(state, mover, playing=True))
        state.apply(mover, chooser.choice(legal))
    models.append(board_model(state, 0, playing=True))
    return models


RENDER_ALL = """
var results = [];
arguments[0].forEach(function (model) {
  var root = document.createElement("div");
  document.body.appendChild(root);
  var clicked = [];
  model.onAction = function (index) { clicked.push(index); };
  var before = window.hmErrors.length;
  try { HMBoards.render(root, model); } catch (e) { window.hmErrors.push("render: " + e); }
  var buttons = Array.from(root.querySelectorAll("button"));
  buttons.forEach(function (b) { b.click(); });
  results.push({
    buttons: buttons.length,
    indices: buttons.map(function (b) { return Number(b.getAttribute("data-action-index")); }),
    clicked: clicked,
    fallback: root.querySelectorAll(".hm-fallback button").length,
    errors: window.hmErrors.slice(before),
  });
  root.remove();
});
return results;
"""


@pytest.mark.parametrize(
    ("engine", "players"),
    [("cargo_noir", 3), ("cargo_noir", 5), ("grog_island", 2), ("grog_island", 4)],
)
def test_every_kind_of_decision_has_its_controls(browser, live_server, engine, players) -> None:
    models = decision_models(engine, players, seed=11)
    browser.get(f"{live_server.url}/boards/{engine}/?players={players}&seed=11")
    results = browser.execute_script(RENDER_ALL, models)
    assert len(results) == len(models) > 10
    for model, found in zip(models, results, strict=True):
        expected = [entry["index"] for entry in model["legal"]]
        where = (model["view"].get("phase") or model["view"].get("stage"), expected[:3])
        assert found["errors"] == [], (where, found["errors"])
        # Exactly one control per legal action, all on the board, each click its own index.
        assert sorted(found["indices"]) == expected, where
        assert found["buttons"] == len(expected), where
        assert found["fallback"] == 0, where
        assert found["clicked"] == found["indices"], where

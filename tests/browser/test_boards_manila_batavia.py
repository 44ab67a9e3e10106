"""The Manila and Batavia boards in a real browser (headless Chromium driven by Selenium).

For positions at the start, middle and end of seeded games, seen by the seat to
move, another seat and a spectator: the board draws without a JavaScript error,
there is exactly one clickable control per legal action (none when the seat may
not act), and clicking a control reports the index of that legal action. Every
page is saved as a screenshot (desktop, and phone for some) under the directory
the test prints, ``$HM_ARTEFACTS/boards`` when that is set. Skipped with the
reason where Chromium or its driver is missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

import engines
from engines import CHANCE, Dealer
from games.boards import board_model, random_position
from tests.browser.chromium import console_errors, needs_chromium, page_screenshot, start

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]
SHOTS = "boards"

# (engine, players, seed, plies before looking for the next decision)
GAMES = [("manila", 3, 5, 0), ("manila", 4, 8, 60), ("batavia", 4, 5, 0), ("batavia", 3, 7, 150)]


def decision(slug: str, players: int, seed: int, start: int) -> tuple[int, int]:
    """The first ply from ``start`` on where a seat (not chance) is to move, and that seat."""
    plies = start
    while True:
        state = random_position(slug, players, seed, plies)
        assert not state.is_over, f"{slug} seed {seed} ends before a decision after {start}"
        if state.to_move[0] >= 0:
            return plies, state.to_move[0]
        plies += 1


def check_board(browser: WebDriver, url: str, legal: int, shot: Path) -> None:
    browser.get(url)
    errors = browser.execute_script("return window.boardErrors;")
    console = console_errors(browser)
    assert errors == [] and console == [], f"{url}: {errors} {console}"
    drawn = browser.execute_script("return document.querySelector('#board .hm-board') !== null;")
    assert drawn, url
    indices = browser.execute_script(
        "return Array.from(document.querySelectorAll('#board .hm-control'))"
        ".filter(b => !b.disabled).map(b => Number(b.getAttribute('data-action-index')));"
    )
    assert sorted(indices) == list(range(legal)), f"{url}: controls {sorted(indices)}"
    page_screenshot(browser, shot)
    if not legal:
        return
    controls = browser.find_elements(By.CSS_SELECTOR, "#board .hm-control[data-action-index]")
    for element in {0: controls[0], 1: controls[-1]}.values():
        clicked = int(element.get_dom_attribute("data-action-index"))
        element.click()
        chosen = browser.execute_script(
            "return document.getElementById('board-chosen').getAttribute('data-chosen-index');"
        )
        assert int(chosen) == clicked
    still = browser.execute_script(
        "HMBoards.setBusy(document.getElementById('board'), true);"
        "return document.querySelectorAll('#board .hm-control:not(:disabled)').length;"
    )
    assert still == 0, "setBusy left controls clickable"


@pytest.mark.parametrize(("slug", "players", "seed", "first"), GAMES)
def test_board_positions(live_server, shots, slug, players, seed, first) -> None:
    plies, mover = decision(slug, players, seed, first)
    state = random_position(slug, players, seed, plies)
    legal = len(state.legal_actions(mover))
    other = (mover + 1) % players
    base = f"{live_server.url}/boards/{slug}/?players={players}&seed={seed}&plies={plies}"
    with start(1280, 1000) as browser:
        check_board(
            browser, f"{base}&seat={mover}", legal, shots / f"{slug}-{plies}-seat{mover}.png"
        )
        check_board(browser, f"{base}&seat={other}", 0, shots / f"{slug}-{plies}-seat{other}.png")
        check_board(browser, base, 0, shots / f"{slug}-{plies}-spectator.png")


@pytest.mark.parametrize("slug", ["manila", "batavia"])
def test_board_at_the_end_and_on_a_phone(live_server, shots, slug) -> None:
    """A finished game offers nothing to click; a 390 px phone draws every control."""
    plies, mover = decision(slug, 3, 2, 30)
    base = f"{live_server.url}/boards/{slug}/?players=3&seed=2"
    legal = len(random_position(slug, 3, 2, plies).legal_actions(mover))
    with start(phone=True) as phone:
        check_board(
            phone, f"{base}&plies={plies}&seat={mover}", legal, shots / f"{slug}-phone-{plies}.png"
        )
        width = phone.execute_script("return document.documentElement.scrollWidth;")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
        wide = phone.execute_script(
            "return Array.from(document.querySelectorAll('#board table'))"
            ".filter(t => t.scrollWidth > t.parentElement.clientWidth + 1).length;"
        )
        assert wide == 0, "a board table is wider than the phone"
        check_board(phone, f"{base}&plies=5000&seat=0", 0, shots / f"{slug}-phone-end.png")
    with start() as desktop:
        check_board(desktop, f"{base}&plies=5000&seat=0", 0, shots / f"{slug}-end-seat0.png")


def decision_models(slug: str, players: int, seed: int, every: int) -> list[dict]:
    """The model of every ``every``-th decision of a whole random game, for the seat to move."""
    rules = engines.get(slug)
    state = rules.new_game(players)
    dealer, rng = Dealer(seed), random.Random(seed)
    models, decisions = [], 0
    while not state.is_over:
        mover = state.to_move[0]
        if mover == CHANCE:
            state.apply(mover, dealer.choose(state))
            continue
        if decisions % every == 0:
            models.append(board_model(state, mover, playing=True))
        decisions += 1
        state.apply(mover, rng.choice(state.legal_actions(mover)))
    models.append(board_model(state, 0, playing=True))
    return models


RENDER_ALL = """
var models = arguments[0], out = [];
models.forEach(function (model) {
  var root = document.createElement("div");
  document.body.appendChild(root);
  var picked = [];
  model.onAction = function (index) { picked.push(index); };
  try {
    HMBoards.render(root, model);
  } catch (error) {
    out.push({error: String(error)});
    return;
  }
  var buttons = Array.from(root.querySelectorAll(".hm-control")).filter(b => !b.disabled);
  buttons.forEach(function (b) { b.click(); });
  out.push({
    indices: buttons.map(b => Number(b.getAttribute("data-action-index"))),
    picked: picked,
    fallback: root.querySelectorAll(".hm-fallback .hm-control").length,
  });
  root.remove();
});
return out;
"""


# Seeds whose game offers every action type of the engine at least once.
WHOLE_GAMES = [("manila", 5, 9, 1, 16), ("batavia", 5, 4, 2, 8)]


@pytest.mark.parametrize(("slug", "players", "seed", "every", "kinds"), WHOLE_GAMES)
def test_every_phase_of_a_whole_game_gets_its_controls(
    live_server, slug, players, seed, every, kinds
) -> None:
    """Across a whole game, each legal action has exactly one control, on the board itself."""
    models = decision_models(slug, players, seed, every)
    assert len({e["action"]["type"] for m in models for e in m["legal"]}) == kinds
    with start() as browser:
        browser.get(f"{live_server.url}/boards/{slug}/?players={players}")
        results = browser.execute_script(RENDER_ALL, models)
        assert browser.execute_script("return window.boardErrors;") == []
    for model, result in zip(models, results, strict=True):
        where = f"{slug} {model['view'].get('phase')}: {[e['text'] for e in model['legal']][:5]}"
        assert "error" not in result, f"{where}: {result.get('error')}"
        assert sorted(result["indices"]) == list(range(len(model["legal"]))), where
        assert result["picked"] == result["indices"], where
        assert result["fallback"] == 0, f"{where}: legal actions without a place on the board"

"""The pages read on a 390 px phone and a 1280 px screen: nothing is cut off (issue 14).

A real browser lays the pages out: headless Chromium loads each page (its HTML
from the test client, its CSS from the live server) in a frame of the width
under test, with a script that lists every element reaching past the frame's
right edge outside a box that scrolls on purpose (``.table-wrap``). A frame,
because a headless window is never narrower than 500 px. Skipped where
Chromium is not installed (Debian: ``apt-get install chromium``).
"""

from __future__ import annotations

import html as html_lib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client

from ratings.services.apply import apply_game_result
from tests.factories import CompetitorFactory
from tests.tournaments.played import played_game

CHROMIUM = next(
    (path for name in ("chromium", "chromium-browser") if (path := shutil.which(name))), None
)
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(CHROMIUM is None, reason="needs a headless Chromium"),
]

# Runs in each framed page once it has loaded; the result goes into an attribute of
# the outer page (data-layout-NAME), which --dump-dom prints.
MEASURE = """
<script>
window.addEventListener("load", function () {
  var width = document.documentElement.clientWidth, cut = [];
  document.querySelectorAll("body *").forEach(function (el) {
    if (el.closest(".table-wrap") || el.tagName === "SCRIPT") { return; }
    var box = el.getBoundingClientRect();
    if (box.width && box.right > width + 1) {
      cut.push(el.tagName.toLowerCase() + "." + el.className + " right=" + Math.round(box.right));
    }
  });
  var wraps = [];
  document.querySelectorAll(".table-wrap").forEach(function (el) {
    wraps.push(el.scrollWidth - el.clientWidth);
  });
  parent.document.body.setAttribute("data-layout-" + window.frameElement.name, JSON.stringify(
    {width: width, page: document.documentElement.scrollWidth, cut: cut, overflow: wraps}));
});
</script>
"""


def layout(pages: dict[str, str], base_url: str, width: int, tmp_path: Path) -> dict[str, dict]:
    """Chromium's measurements of each page (static files from ``base_url``) at ``width`` px."""
    frames = []
    for name, html in pages.items():
        html = html.replace("<head>", f'<head><base href="{base_url}/">', 1)
        framed = html_lib.escape(html.replace("</body>", MEASURE + "</body>", 1), quote=True)
        frames.append(
            f'<iframe name="{name}" width="{width}" height="900" style="border:0" '
            f'srcdoc="{framed}"></iframe>'
        )
    outer = tmp_path / f"pages-{width}.html"
    outer.write_text(
        f'<!DOCTYPE html><html><body style="margin:0">{"".join(frames)}</body></html>',
        encoding="utf-8",
    )
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--hide-scrollbars",  # as on a phone: a scroll bar takes no width
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1400,1000",
            "--virtual-time-budget=8000",
            "--dump-dom",
            outer.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    measured = {}
    for name in pages:
        found = re.search(rf'data-layout-{name}="([^"]*)"', done.stdout)
        assert found, (name, done.stderr[-2000:])
        measured[name] = json.loads(html_lib.unescape(found.group(1)))
    return measured


@pytest.fixture
def pages(client: Client) -> dict[str, str]:
    """The home page, a finished game's page and its verify page, and the leaderboards, with
    long-ish names."""
    players = [
        CompetitorFactory(kind="bot", name=f"examples/a-rather-long-bot-name-{n}") for n in range(4)
    ]
    game = played_game("manila", players, seed="narrow", rated=True)
    apply_game_result(game)
    urls = {
        "home": "/",
        "game": f"/games/{game.pk}/",
        "verify": f"/games/{game.pk}/verify/",
        "leaderboards": "/leaderboards/",
        "leaderboard": "/leaderboards/manila/",
    }
    return {name: client.get(url).content.decode() for name, url in urls.items()}


@pytest.mark.parametrize("width", [390, 1280])
def test_nothing_is_cut_off(pages, live_server, tmp_path: Path, width: int) -> None:
    for name, measured in layout(pages, live_server.url, width, tmp_path).items():
        assert measured["width"] == width
        assert measured["cut"] == [], (name, measured)
        assert measured["page"] <= measured["width"], (name, measured)
        if width == 390 and name not in ("leaderboards", "verify"):  # verify: no table
            # Scrolling inside a table box is the fallback, not the layout: the tables fit.
            assert measured["overflow"] and max(measured["overflow"]) <= 1, (name, measured)

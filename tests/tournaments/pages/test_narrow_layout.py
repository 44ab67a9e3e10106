"""The tournament and league pages read on a 390 px phone and a 1200 px screen.

Measured by headless Chromium exactly as ``tests/foundation/test_narrow_layout.py``
measures the game pages: nothing reaches past the right edge outside a box
that scrolls on purpose. On a phone the standings and entrants fit as they
are; only the crosstable (a column per entrant) may scroll inside its box.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from ratings.services.apply import apply_game_result
from tests.factories import LeagueFactory, UserFactory
from tests.foundation.test_narrow_layout import CHROMIUM, layout
from tests.tournaments.pages.builders import make_event, withdraw

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(CHROMIUM is None, reason="needs a headless Chromium"),
]

CROSSTABLE = 1
"""Index of the crosstable's box among a tournament page's .table-wrap boxes
(standings, crosstable, entrants)."""


NAMES = [
    "cautious-banker-v2", "shipping-magnate", "greedy-trader", "pirate-king-3000",
    "montecarlo-300", "lucky-dice", "harbour-master-v2", "slow-but-steady", "random", "x",
]  # fmt: skip
"""Bot names of realistic length; with the owner's name ``harbourclub/cautious-banker-v2``."""


@pytest.fixture
def pages(client: Client) -> dict[str, str]:
    league = LeagueFactory(name="The harbour club's long-named league", slug="club")
    owner = UserFactory(username="harbourclub", password=None)
    finished = make_event(
        name="Spring Manila Open of the harbour club",
        league=league,
        rated=True,
        owner=owner,
        bot_names=NAMES,
    )
    for game in finished.games:
        apply_game_result(game)
    running = make_event(
        entrants=10,
        played=1,
        under_way=True,
        name="Summer Swiss",
        owner=UserFactory(username="thursdayclub", password=None),
        bot_names=NAMES,
    )
    withdraw(running, 3, "its endpoint stopped answering in the middle of round two")
    urls = {
        "list": "/tournaments/",
        "finished": f"/tournaments/{finished.tournament.pk}/",
        "running": f"/tournaments/{running.tournament.pk}/",
        "league": "/leagues/club/",
    }
    return {name: client.get(url).content.decode() for name, url in urls.items()}


@pytest.mark.parametrize("width", [390, 1200])
def test_nothing_is_cut_off(pages, live_server, tmp_path: Path, width: int) -> None:
    for name, measured in layout(pages, live_server.url, width, tmp_path).items():
        assert measured["width"] == width
        assert measured["cut"] == [], (name, measured)
        assert measured["page"] <= measured["width"], (name, measured)
        boxes = measured["overflow"]
        if name in ("finished", "running"):
            assert len(boxes) == 3, (name, measured)
            boxes = [box for index, box in enumerate(boxes) if index != CROSSTABLE]
        assert boxes and max(boxes) <= 1, (name, measured)

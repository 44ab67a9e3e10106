"""The game page's ply list a window at a time (``web.games.ply_window``): a long game's page
renders one window, links the others (the board replay still covering every position is
``tests/browser/test_ply_window.py``)."""

from __future__ import annotations

import re

import pytest

from games import spectator
from tests.factories import CompetitorFactory
from tests.tournaments.played import played_game
from web.games import ply_window

pytestmark = pytest.mark.django_db(transaction=True)


def listed_plies(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'<li class="ply[^"]*" data-ply="(\d+)"', page)]


@pytest.mark.parametrize(
    "asked, start", [(None, 0), ("", 0), ("500", 500), ("1000", 1000), ("1500", 0), ("7", 0),
                     ("-500", 0), ("x", 0), ("9" * 40, 0)],
)  # fmt: skip
def test_the_window_asked_or_the_first(asked, start) -> None:
    window = ply_window.requested(1200, asked)
    assert (window.start, window.stop) == (start, min(start + ply_window.SIZE, 1200))


def test_a_short_game_is_one_window_without_links() -> None:
    assert ply_window.requested(ply_window.SIZE, None).windows == []
    windows = ply_window.requested(1200, "500").windows
    assert windows == [(0, 499, False), (500, 999, True), (1000, 1199, False)]


def test_a_long_games_page_lists_one_window_and_links_the_others(client, monkeypatch) -> None:
    monkeypatch.setattr(ply_window, "SIZE", 50)
    players = [CompetitorFactory(name=name, kind="person") for name in ("Ana", "Ben", "Cy")]
    game = played_game("manila", players, seed="windowed")
    assert game.next_ply > 100
    first = client.get(f"/games/{game.pk}/").content.decode()
    assert listed_plies(first) == list(range(50))
    assert f'max="{game.next_ply}"' in first, "the stepper still covers every position"
    assert f'data-positions="{game.next_ply + 1}"' in first
    assert 'href="?plies=50#replay"' in first and 'href="?plies=0#replay"' not in first
    second = client.get(f"/games/{game.pk}/?plies=50").content.decode()
    assert listed_plies(second) == list(range(50, 100)) and 'start="50"' in second
    last = (game.next_ply - 1) // 50 * 50
    tail = client.get(f"/games/{game.pk}/?plies={last}").content.decode()
    assert listed_plies(tail) == list(range(last, game.next_ply))
    whole = client.get(f"/games/{game.pk}/?plies=garbled").content.decode()
    assert listed_plies(whole) == list(range(50))


def test_only_the_windows_plies_are_made(monkeypatch) -> None:
    """A page's window is made from one read of the record, its plies alone."""
    monkeypatch.setattr(ply_window, "SIZE", 50)
    players = [CompetitorFactory(name=name, kind="person") for name in ("Ana", "Ben", "Cy")]
    game = played_game("manila", players, seed="windowed")
    every = spectator.public_plies(game)
    shown, window = spectator.public_plies_between(game, lambda total: range(40, 60))
    assert shown == every[40:60] and window == range(40, 60)
    tail, span = spectator.public_plies_between(
        game, lambda total: ply_window.requested(total, "50")
    )
    assert span.total == len(every) and tail == every[50:100]
    made = []
    ply = spectator.PublicPly
    monkeypatch.setattr(spectator, "PublicPly", lambda **fields: made.append(1) or ply(**fields))
    spectator.public_plies_between(game, lambda total: range(40, 60))
    assert len(made) == 20, "only the window's plies are made"

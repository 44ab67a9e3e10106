"""Public pages number seats from 1 and mark forfeited and substituted seats (issue #31, 9).

The API keeps its documented 0-based ``position`` (its schema says so); a
page a person reads says "seat 1" for position 0, on the event's tables and
on the game page alike. A seat that forfeited, or that the house bot played
to the end, is marked on the event's round tables once the table's result
is public.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game, Seat
from tests.tournaments.pages.builders import make_event

pytestmark = pytest.mark.django_db


def seat_cells(html: str) -> list[str]:
    """The first cell of every row of the rounds' seat tables."""
    rounds = html[html.index('id="rounds"') : html.index('id="crosstable"')]
    return re.findall(r"<tr[^>]*>\s*<td>(\d+)</td>", rounds)


def test_event_tables_number_seats_from_one_and_mark_forfeits() -> None:
    event = make_event(entrants=6, table_size=3, rounds=2, played=1, under_way=True)
    finished = Game.objects.filter(
        tournament=event.tournament, status=Game.Status.FINISHED
    ).order_by("pk")
    first, second = finished[0], finished[1]
    Seat.objects.filter(game=first, position=2).update(forfeited=True)
    Seat.objects.filter(game=second, position=1).update(forfeited=True, substituted=True)
    html = Client().get(f"/tournaments/{event.tournament.pk}/").content.decode()
    cells = seat_cells(html)
    assert cells and set(cells) == {"1", "2", "3"}, "seats count from 1 on the page"
    assert html.count('class="seat-mark forfeited"') == 1
    assert html.count('class="seat-mark substituted"') == 1
    running = Game.objects.filter(tournament=event.tournament, status=Game.Status.RUNNING)
    Seat.objects.filter(game__in=running, position=0).update(forfeited=True)
    again = Client().get(f"/tournaments/{event.tournament.pk}/").content.decode()
    assert again.count('class="seat-mark forfeited"') == 1, "an unfinished table shows no mark"


def test_the_game_page_numbers_seats_from_one_and_the_api_from_zero() -> None:
    event = make_event(entrants=3, table_size=3, rounds=1, played=1)
    game = Game.objects.filter(tournament=event.tournament).first()
    html = Client().get(f"/games/{game.pk}/").content.decode()
    positions = re.findall(r'<td class="position">(\d+)</td>', html)
    assert positions and sorted(positions) == ["1", "2", "3"]
    body = Client().get(f"/api/v1/games/{game.pk}/").json()
    assert sorted(seat["position"] for seat in body["seats"]) == [0, 1, 2]

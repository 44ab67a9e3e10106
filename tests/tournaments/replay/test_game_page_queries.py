"""A signed-in viewer of a running game costs the page a fixed few queries, not one per seat.

The page reads its seats as rows; which seats the viewer holds (``seats_held_by``)
walks the game's seats to their competitors, and unprefetched that was a query per
seat on every signed-in view of a live game (the page mix's most visited kind).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Seat
from people import services
from tests.factories import BotFactory, UserFactory
from tests.people.waiting_games import running_game

pytestmark = pytest.mark.django_db


def queries(client: Client, path: str) -> tuple[int, str]:
    client.get(path)  # the session, the user and the fragments' versions read once
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200
    return len(captured.captured_queries), response.content.decode()


def signed_in_queries(bots: int) -> tuple[int, str, int]:
    """Queries of a seated person's second view of a running game beside ``bots`` bots."""
    ana = services.ensure_person(UserFactory(password=None))
    others = [BotFactory(owner=UserFactory(password=None)) for _ in range(bots)]
    game = running_game([ana.competitor, *(b.competitor for b in others)], mover=0, seed="q")
    client = Client()
    client.force_login(ana.user)
    count, html = queries(client, f"/games/{game.pk}/")
    return count, html, Seat.objects.get(game=game, competitor=ana.competitor).position


def test_signed_in_view_of_a_running_game_does_not_grow_with_its_seats() -> None:
    three, _, _ = signed_in_queries(2)
    five, html, seat = signed_in_queries(4)
    assert five == three
    # Still shows the holder her own seat (and no other) in the switcher.
    assert html.count("(yours)") == 1
    assert f'<option value="{seat}">seat {seat + 1}: ' in html  # pages number seats from 1

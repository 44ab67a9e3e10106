"""Helpers for tests that create games through the game API as different users."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework.test import APIClient

from botapi.models import Bot
from games.models import Game, Move, Seat


def client_of(user: Any) -> APIClient:
    """An API client logged in as ``user``."""
    client = APIClient()
    client.force_authenticate(user)
    return client


def body(seats: Iterable[Bot], **fields: Any) -> dict[str, Any]:
    """A Manila game request seating ``seats`` in order."""
    return {"engine": "manila", "seats": [{"bot": bot.pk} for bot in seats], **fields}


def db_snapshot() -> tuple[int, int, int]:
    """Counts of games, seats and moves: a refused request changes none of them."""
    return Game.objects.count(), Seat.objects.count(), Move.objects.count()

"""The referee asks a seat through the players registered by competitor kind (``games.players``)."""

from __future__ import annotations

from typing import Any

import pytest

from botapi.seat_player import BOT_SEATS
from games import players
from games.models import Competitor, Seat
from games.referee import turns as asking
from games.referee.decisions import Decision
from people.seat_player import PERSON_SEATS
from tests.factories import CompetitorFactory, GameFactory


def test_the_bot_and_person_sides_register_their_players_at_startup() -> None:
    assert players.player_for(Competitor.Kind.BOT) is BOT_SEATS
    assert players.player_for(Competitor.Kind.PERSON) is PERSON_SEATS


def test_a_kind_takes_one_player_only() -> None:
    players.register(Competitor.Kind.BOT, BOT_SEATS)  # the same one again: nothing changes
    with pytest.raises(ValueError, match="already registered"):
        players.register(Competitor.Kind.BOT, PERSON_SEATS)
    assert players.player_for(Competitor.Kind.BOT) is BOT_SEATS


class _Answers:
    """A player that decides at once and notes what it was asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, int]] = []

    def ask(self, game: Any, seat: Any, state: Any, ply: int) -> Decision:
        self.asked.append((seat.position, ply))
        return Decision({"type": "pass"}, source="bot")

    def answers_at_once(self, seat: Any) -> bool:
        return True


@pytest.mark.django_db
def test_the_referee_asks_the_player_registered_for_the_seats_kind(monkeypatch) -> None:
    fake = _Answers()
    monkeypatch.setitem(players._players, Competitor.Kind.BOT, fake)
    game = GameFactory()
    seat = Seat.objects.create(
        game=game, position=1, competitor=CompetitorFactory(kind=Competitor.Kind.BOT)
    )
    decision = asking.ask(game, seat, state=None, ply=7)
    assert decision is not None and decision.action == {"type": "pass"}
    assert fake.asked == [(1, 7)]
    assert asking.answers_at_once(seat) is True


@pytest.mark.django_db
def test_a_kind_without_a_player_is_told_and_waits(monkeypatch) -> None:
    clocks: list[tuple[int, int]] = []
    monkeypatch.delitem(players._players, Competitor.Kind.BOT)
    monkeypatch.setattr(asking, "schedule_clock", lambda game, ply: clocks.append((game.pk, ply)))
    game = GameFactory()
    seat = Seat.objects.create(
        game=game, position=0, competitor=CompetitorFactory(kind=Competitor.Kind.BOT)
    )
    assert asking.ask(game, seat, state=None, ply=3) is None
    assert clocks == [(game.pk, 3)]
    assert asking.answers_at_once(seat) is False

"""An anchor sees only its seat: it is given ``view(seat)``, never the state.

The referee's side (``botapi.referee.ask_bot``) is handed a state that answers
only the seat's view, its legal actions, its own default action (chosen from
those legal actions; the request carries its index) and the public events, and fails the
test on any other read; and a state whose every other secret was changed
gets the same decision from every anchor, search included (it samples the
unseen from the view alone).
"""

from __future__ import annotations

import random

import pytest

import engines
from botapi import referee
from botapi.services.anchors import ensure_anchors
from engines import CHANCE
from games.models import Move
from tests.engines.helpers import perturb_secrets
from tests.factories import GameFactory, seat_bot

pytestmark = pytest.mark.django_db

ENGINES = ["manila", "batavia", "cargo_noir", "grog_island"]


class OnlyTheSeat:
    """A state that answers for one seat (view, legal actions) and its public events only."""

    def __init__(self, state: engines.State, seat: int) -> None:
        self._state, self._seat = state, seat
        self.asked: set[str] = set()

    def view(self, seat: int):
        assert seat == self._seat, f"the anchor's side asked for seat {seat}'s view"
        self.asked.add("view")
        return self._state.view(seat)

    def legal_actions(self, seat: int):
        assert seat == self._seat, f"the anchor's side asked for seat {seat}'s actions"
        self.asked.add("legal_actions")
        return self._state.legal_actions(seat)

    def default_action(self, seat: int):
        assert seat == self._seat, f"the anchor's side asked for seat {seat}'s default"
        self.asked.add("default_action")
        return self._state.default_action(seat)

    @property
    def events(self):
        return self._state.events

    def __getattr__(self, name: str):
        raise AssertionError(f"the anchor's side read state.{name}")


def a_running_state(slug: str, players: int, seed: str) -> tuple[engines.State, int]:
    """A state some plies into a game, at a seat's turn with a choice."""
    rules = engines.get(slug)
    state = rules.new_game(players, rules.check_setup(players, {}))
    dealer, rng = engines.Dealer(seed), random.Random(seed)
    for _ in range(10_000):
        seat = state.to_move[0]
        if seat != CHANCE and len(state.legal_actions(seat)) > 1 and rng.random() < 0.1:
            return state, seat
        state.apply(
            seat, dealer.choose(state) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        )
    raise AssertionError("no choice found")


@pytest.mark.parametrize("slug", ENGINES)
def test_every_anchor_reads_only_its_seats_view_and_ignores_other_secrets(slug) -> None:
    anchors = [item.bot for item in ensure_anchors()]
    players = max(3, engines.get(slug).min_players)
    game = GameFactory(engine=slug, num_players=players, move_time_ms=5000)
    for n in range(3):
        state, seat = a_running_state(slug, players, f"hidden-{slug}-{n}")
        for bot in anchors:
            row = seat_bot(game, bot, seat + 10 * (n * 4 + anchors.index(bot) + 1))
            row.position = seat  # the request's seat; the row is never saved again
            real = referee.ask_bot(game, row, state, 30 + n)
            assert real.source == Move.Source.BOT and not real.is_fault, real
            spy = OnlyTheSeat(state, seat)
            row.events_sent = 0
            assert referee.ask_bot(game, row, spy, 30 + n).action == real.action
            assert spy.asked == {"view", "legal_actions", "default_action"}
            other = perturb_secrets(state, seat, random.Random(n))
            assert other.view(seat) == state.view(seat)
            row.events_sent = 0
            assert referee.ask_bot(game, row, other, 30 + n).action == real.action, bot.anchor

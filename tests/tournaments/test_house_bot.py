"""House-bot substitution: a person who times out too often is replaced, a bot is not.

The people's clocks are run out the way ``test_referee.py`` does it (the turn
began a minute ago, then ``advance``); the other seats' people submit random
legal moves. The house bot's moves are checked against the greedy example bot
served over HTTP would answer to the same act request, and the adapter
against a state it must not look into.

A substituted game starts ``STRETCH`` person moves before its end: its
earlier moves are logged at once (``fast_forward``: random people, the seed's
chance, as the referee would log them), and the person to move there is the
one who stays away. The timeouts, the substitution and the house bot's moves
to the end (a dozen or more) are the referee's; what came before them is no
part of what these tests check, and whole games through the referee are
played by ``test_published_no_leak.py``.
"""

from __future__ import annotations

import logging
import random
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from harbormaster_bot.examples.greedy import CHOOSERS, GreedyBot
from harbormaster_bot.server import Turn

import engines
from botapi import protocol
from engines import CHANCE
from games.models import Game, Move, Seat
from games.records.verification import verify_game
from games.referee import house_bot
from games.referee import steps as referee
from games.referee.decisions import Decision
from games.referee.statecache import load_state
from games.services import create_game
from ratings.models import Rating, RatingChange
from tests.engines.helpers import perturb_secrets
from tests.factories import CompetitorFactory
from tests.tournaments.played import fast_forward

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]

ENGINES = ["manila", "batavia", "cargo_noir", "grog_island"]
STRETCH = 60
"""Person moves left, by the random people, when the absent person's first turn comes: in
simulations of every engine's game the house bot then still plays 9 or more of them."""


def players(slug: str) -> int:
    return max(3, engines.get(slug).min_players)


def expire_clock(game: Game) -> None:
    """The turn began a minute ago: past any move time, bank and grace here."""
    Game.objects.filter(pk=game.pk).update(last_progress_at=timezone.now() - timedelta(minutes=1))


def near_the_end(game: Game, rng: random.Random) -> int:
    """Log the game up to ``STRETCH`` person moves before its end; the seat to move there."""
    fast_forward(game, rng, leave=STRETCH)
    game.refresh_from_db()
    seat = load_state(game).to_move[0]
    assert seat != CHANCE
    return seat


def play_with_an_absent_person(game: Game, absent: int, rng: random.Random) -> list[int]:
    """Play the game to its end; ``absent`` never moves (their clock runs out each time).

    Returns the plies at which ``absent`` was waited for. Once the seat is
    substituted it must never be waited for again: the house bot plays it.
    """
    waited = []
    for _ in range(20_000):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return waited
        state = load_state(game)
        seat = state.to_move[0]
        assert seat != CHANCE, "advance plays chance itself"
        if seat == absent:
            assert not Seat.objects.get(game=game, position=absent).substituted, (
                f"the referee waited for a substituted seat at ply {game.next_ply}"
            )
            waited.append(game.next_ply)
            expire_clock(game)
            referee.advance(game.pk)
        else:
            action = rng.choice(state.legal_actions(seat))
            referee.submit(game.pk, game.next_ply, seat, Decision(action))
    raise AssertionError("the game did not end")


def greedy_over_http(game: Game, state: engines.State, seat: int, ply: int) -> int:
    """What the greedy example bot answers to the act request a push bot would get."""
    request = protocol.act_request_for_state(
        state, game_id=game.pk, seat=seat, ply=ply, deadline_ms=game.move_time_ms
    )
    return GreedyBot(game.engine).act(Turn(request, time.monotonic() + 5))


@pytest.mark.parametrize("slug", ENGINES)
def test_a_person_who_times_out_too_often_is_played_by_the_house_bot_to_the_end(
    slug, settings
) -> None:
    limit = settings.BOT_MAX_FAULTS_PER_GAME
    people = CompetitorFactory.create_batch(players(slug), kind="person")
    game = create_game(slug, people, seed=f"substitute-{slug}", move_time_ms=1000)
    rng = random.Random(5)
    absent = near_the_end(game, rng)

    waited = play_with_an_absent_person(game, absent, rng)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    row = Seat.objects.get(game=game, position=absent)
    assert row.forfeited and row.substituted and row.fault_count == limit
    assert not Seat.objects.exclude(pk=row.pk).filter(substituted=True).exists()
    mine = list(Move.objects.filter(game=game, seat=absent).order_by("ply"))
    timeouts = [m for m in mine if m.fault_kind == "timeout"]
    assert [m.ply for m in timeouts] == waited and len(waited) == limit
    assert all(m.source == "default" for m in timeouts)
    after = [m for m in mine if m.ply > waited[-1]]
    assert after, "the seat had moves left to play after it was substituted"
    assert all(m.source == "house" and m.fault_kind == "" for m in after)
    assert all(m.latency_ms is not None for m in after)

    # Each house move is what greedy picks from the seat's view (as over HTTP), and legal.
    state = engines.get(slug).new_game(game.num_players, game.options)
    house = {m.ply for m in after}
    for move in Move.objects.filter(game=game).order_by("ply"):
        if move.ply in house:
            legal = state.legal_actions(absent)
            index = house_bot.choose(slug, state.view(absent), legal, (game.pk, absent, move.ply))
            assert move.action == legal[index]
            assert index == greedy_over_http(game, state, absent, move.ply)
        state.apply(move.seat, move.action)
    assert state.is_over

    # Ranked last, as a forfeit; rated with that rank; the record verifies.
    assert game.outcome.ranks[absent] == game.num_players
    assert sorted(game.outcome.ranks).count(game.num_players) == 1
    elo = dict(
        RatingChange.objects.filter(game=game, system="elo").values_list("competitor_id", "rank")
    )
    assert elo[row.competitor_id] == game.num_players
    assert verify_game(game).ok, verify_game(game).problems


def test_live_and_recomputed_ratings_agree_on_a_game_with_a_substituted_seat(settings) -> None:
    people = CompetitorFactory.create_batch(3, kind="person")
    game = create_game("manila", people, seed="substitute-ratings", move_time_ms=1000)
    rng = random.Random(8)
    absent = near_the_end(game, rng)
    play_with_an_absent_person(game, absent, rng)
    live = sorted(
        RatingChange.objects.filter(game=game).values_list(
            "competitor_id", "system", "rank", "after_value", "after_sigma"
        )
    )
    assert live and all(rank == 3 for c, _, rank, _, _ in live if c == people[absent].pk)
    Rating.objects.update(value=0, sigma=1, score=0, games=0)
    call_command("recompute_ratings", "--no-progress")
    again = sorted(
        RatingChange.objects.filter(game=game).values_list(
            "competitor_id", "system", "rank", "after_value", "after_sigma"
        )
    )
    assert again == live


def test_a_bot_that_faults_as_often_is_forfeited_with_defaults_not_substituted(settings) -> None:
    """A competitor of kind bot with no bot registered faults (``no_bot``) at every turn."""
    limit = settings.BOT_MAX_FAULTS_PER_GAME
    broken = CompetitorFactory(kind="bot")
    people = CompetitorFactory.create_batch(2, kind="person")
    game = create_game(  # unrated: people without a profile never consented to rated bots
        "manila", [broken, *people], seed="bot-faults", move_time_ms=1000, rated=False
    )
    rng = random.Random(4)
    for _ in range(20_000):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        state = load_state(game)
        seat = state.to_move[0]
        assert seat != 0, "the bot's seat always answers at once (with its fault's default)"
        action = rng.choice(state.legal_actions(seat))
        referee.submit(game.pk, game.next_ply, seat, Decision(action))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    row = Seat.objects.get(game=game, position=0)
    assert row.forfeited and not row.substituted and row.fault_count == limit
    moves = Move.objects.filter(game=game, seat=0)
    assert moves.filter(fault_kind="no_bot").count() == limit
    assert not moves.filter(source="house").exists()
    rest = moves.exclude(fault_kind="no_bot")
    assert rest.exists() and all(m.source == "default" for m in rest)
    assert all(m.fault_kind == "forfeited" for m in rest)
    assert game.outcome.ranks[0] == 3


def a_running_state(slug: str, seed: str) -> tuple[engines.State, int]:
    """A state some plies into a game, at a seat's turn with a choice (for the adapter)."""
    rules = engines.get(slug)
    n = players(slug)
    state = rules.new_game(n, rules.check_setup(n, {}))
    dealer, rng = engines.Dealer(seed), random.Random(seed)
    for _ in range(10_000):
        seat = state.to_move[0]
        if seat != CHANCE and len(state.legal_actions(seat)) > 1 and rng.random() < 0.1:
            return state, seat
        state.apply(
            seat, dealer.choose(state) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        )
    raise AssertionError("no choice found")


class OnlyTheSeat:
    """A state that answers ``view`` and ``legal_actions`` for one seat and nothing else."""

    def __init__(self, state: engines.State, seat: int) -> None:
        self._state, self._seat = state, seat
        self.asked: list[str] = []

    def view(self, seat: int):
        assert seat == self._seat, f"the house bot asked for seat {seat}'s view"
        self.asked.append("view")
        return self._state.view(seat)

    def legal_actions(self, seat: int):
        assert seat == self._seat
        self.asked.append("legal_actions")
        return self._state.legal_actions(seat)

    def __getattr__(self, name: str):
        raise AssertionError(f"the house bot read state.{name}")


@pytest.mark.parametrize("slug", ENGINES)
def test_the_house_bot_reads_only_the_seats_view_and_ignores_other_secrets(slug) -> None:
    for n in range(5):
        state, seat = a_running_state(slug, f"hidden-{n}")
        real = house_bot.decide(slug, 7, seat, state, 40 + n)
        assert real.source == "house" and not real.is_fault
        spy = OnlyTheSeat(state, seat)
        assert house_bot.decide(slug, 7, seat, spy, 40 + n).action == real.action
        assert sorted(set(spy.asked)) == ["legal_actions", "view"]
        other = perturb_secrets(state, seat, random.Random(n))
        assert other.view(seat) == state.view(seat)
        assert house_bot.decide(slug, 7, seat, other, 40 + n).action == real.action


@pytest.mark.parametrize(
    "policy",
    [
        pytest.param(lambda view, legal, rng: 1 / 0, id="raises"),
        pytest.param(lambda view, legal, rng: len(legal), id="out-of-range"),
        pytest.param(lambda view, legal, rng: True, id="not-an-int"),
    ],
)
def test_a_failing_house_policy_falls_back_to_the_default_and_is_logged(
    policy, monkeypatch, caplog
) -> None:
    state, seat = a_running_state("manila", "broken-policy")
    monkeypatch.setitem(CHOOSERS, "manila", policy)
    with caplog.at_level(logging.ERROR, logger="games.referee.house_bot"):
        decision = house_bot.decide("manila", 1, seat, state, 3)
    assert decision.action == state.default_action(seat)
    assert (decision.source, decision.fault_kind) == ("default", "forfeited")
    assert "house bot" in decision.fault_detail
    assert any("house bot" in r.getMessage() for r in caplog.records)


def test_the_referee_plays_on_when_the_house_bot_fails_and_counts_no_fault(monkeypatch) -> None:
    people = CompetitorFactory.create_batch(3, kind="person")
    game = create_game("manila", people, seed="broken-house")
    game.refresh_from_db()
    seat = load_state(game).to_move[0]
    Seat.objects.filter(game=game, position=seat).update(forfeited=True, substituted=True)
    monkeypatch.setitem(CHOOSERS, "manila", lambda view, legal, rng: 1 / 0)
    ply = game.next_ply
    assert referee.advance(game.pk) == "house"
    move = Move.objects.get(game=game, ply=ply)
    assert (move.seat, move.source, move.fault_kind) == (seat, "default", "forfeited")
    assert Seat.objects.get(game=game, position=seat).fault_count == 0

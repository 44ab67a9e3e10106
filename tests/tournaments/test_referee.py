"""The referee's one door (submit) and its loop (advance), with people at the table.

Bots over HTTP and real workers are tested elsewhere; here the test plays the
people, so every rule of submit/advance/finish is checked directly. Celery is
eager (the in-thread trampoline), and on_commit callbacks run for real.
"""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

import engines
from games.models import Game, Move, Seat
from games.referee import steps as referee
from games.referee.decisions import Decision
from games.referee.statecache import load_state
from games.services import GameSetupError, create_game
from ratings.models import RatingChange
from tests.factories import CompetitorFactory
from tests.tournaments.played import play_as_people

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def people(n: int):
    return CompetitorFactory.create_batch(n, kind="person")


def test_a_full_game_ends_with_a_gap_free_replayable_log_and_ratings_once() -> None:
    game = create_game("manila", people(3), seed="fixed-seed")
    assert game.seed_commitment == engines.seed_commitment("fixed-seed")
    game.refresh_from_db()
    assert game.next_ply > 0, "chance dealt the shares on creation"
    play_as_people(game, random.Random(1))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at
    moves = list(game.moves.order_by("ply").values_list("ply", "seat", "action", "source"))
    assert [m[0] for m in moves] == list(range(len(moves)))
    replayed = engines.replay("manila", 3, game.options, [(s, a) for _, s, a, _ in moves])
    assert replayed.is_over
    assert replayed.outcome()["scores"] == game.outcome.scores
    chance = [(s, a) for _, s, a, src in moves if src == "chance"]
    assert chance and all(s == engines.CHANCE for s, _ in chance)
    assert RatingChange.objects.filter(game=game).count() == 3 * 3
    assert referee.advance(game.pk) == "idle"
    assert referee.finish(game.pk) is False
    assert RatingChange.objects.filter(game=game).count() == 3 * 3


def test_every_chance_move_is_the_one_the_seed_produces() -> None:
    game = create_game("manila", people(4), seed="audit-me")
    play_as_people(game, random.Random(2))
    dealer = engines.Dealer("audit-me")
    state = engines.get("manila").new_game(4, game.options)
    for move in game.moves.order_by("ply"):
        if move.seat == engines.CHANCE:
            assert move.action == dealer.choose(state)
        state.apply(move.seat, move.action)


def _nothing_written(game: Game, before: tuple) -> bool:
    game.refresh_from_db()
    return (game.next_ply, game.moves.count(), game.status) == before


def test_submit_refuses_bad_input_and_writes_nothing() -> None:
    game = create_game("manila", people(3))
    game.refresh_from_db()
    state = load_state(game)
    seat = state.to_move[0]
    legal = state.legal_actions(seat)
    before = (game.next_ply, game.moves.count(), game.status)
    other = (seat + 1) % 3
    cases = [
        ((game.pk, game.next_ply - 1, seat, Decision(legal[0])), "stale_ply"),
        ((game.pk, game.next_ply + 1, seat, Decision(legal[0])), "stale_ply"),
        ((game.pk, game.next_ply, other, Decision(legal[0])), "illegal_action"),
        ((game.pk, game.next_ply, seat, Decision({"type": "bid", "amount": 10**6})), "illegal"),
        ((game.pk, game.next_ply, seat, Decision({"nonsense": 1})), "illegal_action"),
        ((game.pk, game.next_ply, engines.CHANCE, Decision(legal[0])), "bad_source"),
        ((game.pk + 999, 0, seat, Decision(legal[0])), "no_game"),
    ]
    for args, code in cases:
        with pytest.raises(referee.RefereeError) as info:
            referee.submit(*args)
        assert info.value.code.startswith(code) and str(info.value)
        assert _nothing_written(game, before)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    with pytest.raises(referee.RefereeError, match="aborted"):
        referee.submit(game.pk, game.next_ply, seat, Decision(legal[0]))
    assert game.moves.count() == before[1]


def test_faults_forfeit_a_persons_seat_which_the_house_bot_then_plays_and_it_ranks_last() -> None:
    """(A bot's seat keeps the engine's defaults: ``test_house_bot.py``.)"""
    game = create_game("manila", people(3), seed="faulty")
    faulty = None
    for _ in range(3):
        game.refresh_from_db()
        state = load_state(game)
        seat = state.to_move[0]
        faulty = seat if faulty is None else faulty
        if seat != faulty:
            break
        legal = state.legal_actions(seat)
        referee.submit(
            game.pk, game.next_ply, seat,
            Decision(legal[0], source="default", fault_kind="timeout", fault_detail="slow"),
        )  # fmt: skip
    seat_row = Seat.objects.get(game=game, position=faulty)
    assert seat_row.fault_count >= 1
    Seat.objects.filter(pk=seat_row.pk).update(fault_count=2)
    game.refresh_from_db()
    state = load_state(game)
    seat = state.to_move[0]
    Seat.objects.filter(game=game, position=seat).update(fault_count=2)
    referee.submit(
        game.pk, game.next_ply, seat,
        Decision(state.legal_actions(seat)[0], source="default", fault_kind="timeout"),
    )  # fmt: skip
    row = Seat.objects.get(game=game, position=seat)
    assert row.forfeited and row.substituted
    play_as_people(game, random.Random(3), absent=seat)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.outcome.ranks[seat] == 3
    house_moves = game.moves.filter(seat=seat, source="house")
    assert house_moves.exists() and not house_moves.exclude(fault_kind="").exists()
    assert not game.moves.filter(seat=seat, fault_kind="forfeited").exists()


def test_an_expired_clock_plays_the_default_with_a_timeout_fault() -> None:
    game = create_game("manila", people(3), move_time_ms=1000)
    game.refresh_from_db()
    ply = game.next_ply
    assert referee.advance(game.pk) == "waiting"
    Game.objects.filter(pk=game.pk).update(last_progress_at=timezone.now() - timedelta(minutes=1))
    referee.advance(game.pk)
    move = Move.objects.get(game=game, ply=ply)
    assert (move.source, move.fault_kind) == ("default", "timeout")
    assert Seat.objects.get(game=game, position=move.seat).fault_count == 1


def test_bad_game_setups_are_refused_with_a_reason() -> None:
    with pytest.raises(GameSetupError, match="unknown engine"):
        create_game("chess", people(2))
    with pytest.raises(GameSetupError, match="3-5 players"):
        create_game("manila", people(2))
    with pytest.raises(GameSetupError, match="unknown option"):
        create_game("manila", people(3), options={"speed": 2})
    assert not Game.objects.exists()


@pytest.mark.postgres
def test_two_racing_submissions_for_one_ply_record_one_move() -> None:
    assert connection.vendor == "postgresql"
    game = create_game("manila", people(3))
    game.refresh_from_db()
    state = load_state(game)
    seat, ply = state.to_move[0], game.next_ply
    legal = state.legal_actions(seat)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def racer(action: dict) -> None:
        try:
            barrier.wait()
            referee.submit(game.pk, ply, seat, Decision(action))
            outcomes.append("ok")
        except referee.RefereeError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=racer, args=(a,)) for a in (legal[0], legal[-1])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["ok", "stale_ply"]
    assert Move.objects.filter(game=game, ply=ply).count() == 1

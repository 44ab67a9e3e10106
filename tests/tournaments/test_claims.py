"""Claims sent without waiting (PostgreSQL): they log once, lose cleanly and leave the
connection as they found it."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import Error, IntegrityError, connection, transaction

from games.models import Game, Move
from games.referee import claims
from games.referee.decisions import Decision
from games.services import create_game
from tests.factories import CompetitorFactory
from tests.tournaments import workers

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def game(settings) -> Game:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    people = CompetitorFactory.create_batch(3, kind="person")
    game = create_game("manila", people, seed="claims")
    game.refresh_from_db()  # the referee played the opening chance moves
    return game


def bot_move(**extra) -> Decision:
    return Decision({"kind": "test"}, source=Move.Source.BOT, latency_ms=3, **extra)


def test_a_sent_claim_logs_its_moves_and_moves_the_game_on(game) -> None:
    seat = game.seats.get(position=0)
    seat.events_sent, seat.bank_left_ms = 7, 1234
    ply = game.next_ply
    pending = claims.send_claim(game, ply, [(0, bot_move()), (-1, bot_move())], seat)
    moves = pending.result()
    assert [m.ply for m in moves] == [ply, ply + 1]
    assert all(m.pk for m in moves)
    game.refresh_from_db()
    seat.refresh_from_db()
    assert game.next_ply == ply + 2
    assert (seat.events_sent, seat.bank_left_ms) == (7, 1234)
    stored = Move.objects.get(pk=moves[0].pk)
    assert (stored.action, stored.latency_ms, stored.source) == ({"kind": "test"}, 3, "bot")
    assert pending.result() is moves  # read once, kept


def test_a_sent_claim_commits_before_its_answer_is_read(game) -> None:
    """The overlap: the claim is out and committed while the referee asks the next bot."""
    ply = game.next_ply
    pending = claims.send_claim(game, ply, [(0, bot_move())])
    url = workers.test_database_url().replace("postgres://", "postgresql://")
    try:
        with psycopg.connect(url, autocommit=True) as other:
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                query = "SELECT next_ply FROM tournaments_game WHERE id = %s"
                if other.execute(query, [game.pk]).fetchone() == (ply + 1,):
                    break
                time.sleep(0.01)
            else:
                pytest.fail("the claim was not committed before its answer was asked for")
    finally:
        assert pending.result() is not None


def prepared_claims() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            ['%INSERT INTO "tournaments_move"%'],
        )
        return cursor.fetchone()[0]


def test_the_claim_is_prepared_once_and_reused(game) -> None:
    """The claim is prepared on the connection once (parsed and planned once, not per move)."""
    ply = game.next_ply
    assert claims.claim_plies(game, ply, [(0, bot_move())]) is not None
    prepared = prepared_claims()
    assert prepared >= 1
    for offset in (1, 2):
        assert claims.send_claim(game, ply + offset, [(0, bot_move())]).result() is not None
    assert prepared_claims() == prepared


def test_small_and_large_numbers_share_the_prepared_claim(game) -> None:
    """One prepared statement per shape, whatever the numbers' sizes (not one per type list)."""
    seat = game.seats.get(position=0)
    ply = game.next_ply
    assert claims.send_claim(game, ply, [(0, bot_move())], seat).result() is not None
    prepared = prepared_claims()
    for offset, size in ((1, 40_000), (2, 2_000_000_000)):
        seat.events_sent, seat.bank_left_ms = size, size
        move = Decision({"kind": "test"}, source=Move.Source.BOT, latency_ms=size)
        assert claims.send_claim(game, ply + offset, [(0, move)], seat).result() is not None
    assert prepared_claims() == prepared
    seat.refresh_from_db()
    assert seat.bank_left_ms == 2_000_000_000


def test_a_claim_for_a_ply_already_taken_writes_nothing(game) -> None:
    seat = game.seats.get(position=0)
    ply = game.next_ply
    assert claims.claim_plies(game, ply, [(0, bot_move())]) is not None
    seat.events_sent = 99
    before = Move.objects.count()
    assert claims.send_claim(game, ply, [(0, bot_move())], seat).result() is None
    assert Move.objects.count() == before
    seat.refresh_from_db()
    assert seat.events_sent != 99, "the seat is written only with a successful claim"
    with connection.cursor() as cursor:  # the connection is free again
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_the_connection_is_usable_between_claims_and_after_an_error(game) -> None:
    ply = game.next_ply
    claims.send_claim(game, ply, [(0, bot_move())]).result()
    Game.objects.filter(pk=game.pk).update(next_ply=ply)  # the log now disagrees with next_ply
    with pytest.raises(IntegrityError):
        claims.send_claim(game, ply, [(0, bot_move())]).result()
    assert Move.objects.filter(game=game, ply=ply).count() == 1
    assert Game.objects.get(pk=game.pk).next_ply == ply, "the failed statement changed nothing"


def test_a_session_that_lost_its_prepared_statements_prepares_them_again(game) -> None:
    ply = game.next_ply
    claims.send_claim(game, ply, [(0, bot_move())]).result()
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    assert claims.send_claim(game, ply + 1, [(0, bot_move())]).result() is not None
    assert Game.objects.get(pk=game.pk).next_ply == ply + 2


def test_inside_a_transaction_the_claim_is_part_of_it(game) -> None:
    ply = game.next_ply
    with pytest.raises(RuntimeError), transaction.atomic():
        assert claims.send_claim(game, ply, [(0, bot_move())]).result() is not None
        raise RuntimeError("roll back")
    assert not Move.objects.filter(game=game, ply=ply).exists()
    assert Game.objects.get(pk=game.pk).next_ply == ply


def test_a_claim_on_a_broken_connection_raises_and_the_connection_is_replaced(game) -> None:
    ply = game.next_ply
    connection.ensure_connection()
    url = workers.test_database_url().replace("postgres://", "postgresql://")
    with psycopg.connect(url, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [connection.connection.info.backend_pid])
    with pytest.raises(Error):
        claims.send_claim(game, ply, [(0, bot_move())]).result()
    assert connection.errors_occurred
    connection.close_if_unusable_or_obsolete()  # as after every worker task
    assert claims.send_claim(game, ply, [(0, bot_move())]).result() is not None

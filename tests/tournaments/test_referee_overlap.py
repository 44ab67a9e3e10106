"""The referee asks the next bot while the previous move's claim is still on its way.

If that claim is lost (another writer took the ply first), the answer the next
bot gave is dropped: the log holds the other writer's move and nothing after
it, and the game goes on from there at the next ``advance``.
"""

from __future__ import annotations

import threading

import psycopg
import pytest

import engines
from games.models import Game, Move
from games.referee import steps as referee
from games.services import create_game
from tests.tournaments import workers

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_referee"),
]


class Thief:
    """Bot handlers that, at the ``steal_at``-th call, let another writer take the ply before.

    The call before it locks the game row (so the referee's claim of that call's
    move waits); the ``steal_at``-th call, made while that claim waits, logs a
    move of its own at that ply and commits, which releases the claim to find
    its ply taken.
    """

    def __init__(self, steal_at: int) -> None:
        self.steal_at = steal_at
        self.calls = 0
        self.lock = threading.Lock()
        url = workers.test_database_url().replace("postgres://", "postgresql://")
        self.writer = psycopg.connect(url)
        self.stolen: dict | None = None
        self.dropped_ply: int | None = None

    def act(self, turn) -> int:
        with self.lock:
            self.calls += 1
            call = self.calls
        if call == self.steal_at - 1:
            self.writer.execute(
                "SELECT id FROM tournaments_game WHERE id = %s FOR UPDATE", [turn.game["id"]]
            )
            self.stolen = {"ply": turn.ply, "seat": turn.seat, "action": turn.legal_actions[-1]}
            # A referee that waited for this claim before asking again would never ask:
            # give the lock up after a while so that such a referee fails, not hangs.
            threading.Timer(10, self._give_up).start()
            return 0
        if call == self.steal_at:
            stolen = self.stolen
            assert stolen is not None
            self.writer.execute(
                "UPDATE tournaments_game SET next_ply = %s WHERE id = %s",
                [stolen["ply"] + 1, turn.game["id"]],
            )
            self.writer.execute(
                "INSERT INTO tournaments_move (game_id, ply, seat, action, source, fault_kind,"
                " fault_detail, request_excerpt, reply_excerpt, created_at) VALUES"
                " (%s, %s, %s, %s, 'person', '', '', '', '', now())",
                [turn.game["id"], stolen["ply"], stolen["seat"], psycopg.types.json.Jsonb(
                    stolen["action"])],
            )  # fmt: skip
            self.writer.commit()
            self.dropped_ply = turn.ply
        return 0

    def _give_up(self) -> None:
        if self.dropped_ply is None:
            self.writer.rollback()

    def close(self) -> None:
        self.writer.close()


def test_an_answer_given_while_the_claim_before_it_is_lost_is_dropped(serve_bots) -> None:
    thief = Thief(steal_at=4)
    try:
        bots = serve_bots("manila", [thief, thief, thief])
        game = create_game("manila", [b.competitor for b in bots], seed="overlap")
    finally:
        thief.close()
    assert thief.stolen is not None and thief.dropped_ply is not None
    stolen_ply = thief.stolen["ply"]
    assert thief.dropped_ply > stolen_ply, "the next bot was asked while the claim was pending"

    game.refresh_from_db()
    assert game.next_ply == stolen_ply + 1, "nothing was logged after the other writer's move"
    taken = Move.objects.get(game=game, ply=stolen_ply)
    assert taken.source == Move.Source.PERSON and taken.action == thief.stolen["action"]
    assert not Move.objects.filter(game=game, ply__gt=stolen_ply).exists()

    assert referee.advance(game.pk) in referee.MOVED | {"finished"}  # the game goes on from there
    while game.status == Game.Status.RUNNING:
        referee.advance(game.pk)
        game.refresh_from_db()
    moves = list(game.moves.order_by("ply").values_list("ply", "seat", "action"))
    assert [ply for ply, _, _ in moves] == list(range(game.next_ply))
    state = engines.replay("manila", 3, game.options, [(s, a) for _, s, a in moves])
    assert state.is_over

"""The house anchors play a whole arena game through the referee, in-process.

Every decision goes through ``referee.submit`` once (one move row per ply,
none by default or fault), the outcome is recorded once and each anchor's
ratings change once per scope and system; the game verifies from its seed.
"""

from __future__ import annotations

import pytest

from botapi.models import Bot
from botapi.selectors.anchors import ANCHORS
from botapi.services.anchors import ensure_anchors
from games.models import Game, Move
from games.records.verification import verify_game
from ratings.models import Rating, RatingChange
from tests.factories import LeagueFactory
from tournaments.events import arena
from tournaments.models import ArenaEntry

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


@pytest.fixture
def league():
    return LeagueFactory(
        engine="manila",
        arena_enabled=True,
        arena_table_size=4,
        arena_min_table_size=4,
        arena_move_time_ms=5000,
        pool="bots",
    )


def test_the_four_anchors_play_an_arena_game_to_its_end_exactly_once(league) -> None:
    anchors = [item.bot for item in ensure_anchors()]
    assert [bot.anchor for bot in anchors] == [anchor.slug for anchor in ANCHORS]
    entries = arena.join_anchors(anchors)
    assert len(entries) == 4 and {e.league for e in entries} == {league}

    [game] = arena.arena_pass(league, seed="anchors")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, game.status
    assert sorted(game.seats.values_list("competitor_id", flat=True)) == sorted(
        bot.competitor_id for bot in anchors
    )

    moves = list(game.moves.order_by("ply"))
    assert [move.ply for move in moves] == list(range(len(moves))), "one move per ply"
    played = [move for move in moves if move.seat >= 0]
    assert played and {move.source for move in played} == {Move.Source.BOT}
    assert not [move for move in played if move.fault_kind], "no fault, no default"
    assert set(game.seats.values_list("fault_count", flat=True)) == {0}
    assert {move.seat for move in played} == {0, 1, 2, 3}
    assert verify_game(game).ok

    changes = RatingChange.objects.filter(game=game)
    per_key = {(c.competitor_id, c.scope_id, c.system) for c in changes}
    assert len(per_key) == changes.count(), "one change per competitor, scope and system"
    assert {c.competitor_id for c in changes} == {bot.competitor_id for bot in anchors}
    scopes = {c.scope_id for c in changes}
    assert len(scopes) == 2, "the engine's global ladder and the league's"
    assert Rating.objects.filter(competitor__bot__anchor="search-32").exists()

    for bot in Bot.objects.filter(anchor__gt=""):
        assert bot.is_active and bot.consecutive_faulty_games == 0
    assert ArenaEntry.objects.get(league=league, competitor=anchors[0].competitor).games_played == 1


def test_join_anchors_is_idempotent_and_leaves_a_removed_entry_out(league) -> None:
    anchors = [item.bot for item in ensure_anchors()]
    first = arena.join_anchors(anchors)
    arena.leave(first[0])
    assert arena.join_anchors(anchors) == []
    assert not ArenaEntry.objects.get(pk=first[0].pk).active

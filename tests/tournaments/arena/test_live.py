"""An arena game on the real referee: example bots over loopback HTTP, played to the end."""

from __future__ import annotations

import pytest
from harbormaster_bot.examples.random_bot import RandomBot

from games.models import Game
from ratings.models import Rating, RatingChange, RatingScope
from tests.factories import LeagueFactory
from tournaments.events import arena
from tournaments.models import ArenaEntry

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def test_an_arena_game_is_rated_in_the_league_and_its_bots_come_back(serve_bots) -> None:
    league = LeagueFactory(
        arena_enabled=True, arena_table_size=3, arena_min_table_size=3, pool="bots"
    )
    bots = serve_bots("manila", [RandomBot(seed=n) for n in range(3)])
    for bot in bots:
        arena.join(league, bot.competitor, by=bot.owner)
    [game] = arena.arena_pass(league, seed="live")  # the eager referee plays it on commit
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, f"stopped at ply {game.next_ply}"
    for kind in (RatingScope.Kind.LEAGUE, RatingScope.Kind.GLOBAL):
        scope = RatingScope.objects.get(kind=kind, engine="manila")
        assert RatingChange.objects.filter(game=game, scope=scope).count() == 3 * 3
    assert Rating.objects.filter(scope__league=league, system="trueskill").count() == 3
    entries = ArenaEntry.objects.filter(league=league)
    assert [(e.games_played, e.waiting_since is not None) for e in entries] == [(1, True)] * 3
    [second] = arena.arena_pass(league, seed="live-2")
    assert second.pk != game.pk
    assert set(second.seats.values_list("competitor_id", flat=True)) == {
        bot.competitor_id for bot in bots
    }

"""``game_page_reads``: the game page's seats and rating changes by SQL equal the ORM's rows.

The oracle is the ORM query each read replaced (the seats' prefetch in
``listings.games_with_seats`` and ``rating_effects``' ``RatingChange`` query
with its scope and league), over a league game with forfeited, withdrawn and
substituted seats, names to escape, and an unrated game.
"""

from __future__ import annotations

import pytest
from django.db.models import Q

from games import listings, spectator
from games.models import Game, Seat
from ratings.models import RatingChange, RatingScope
from ratings.services import apply_game_result
from tests.factories import CompetitorFactory, LeagueFactory
from tests.tournaments.played import played_game
from web.games import page_reads as game_page_reads

pytestmark = pytest.mark.django_db


def league_game() -> Game:
    """A rated league game of four seats: one withdrew (and was substituted), one forfeited."""
    competitors = CompetitorFactory.create_batch(4)
    competitors[0].name = "<b>Ann & 'Bo'</b>"
    competitors[0].save()
    game = played_game("manila", competitors, seed="reads", rated=True)
    Game.objects.filter(pk=game.pk).update(league=LeagueFactory(name="Quay", engine="manila"))
    Seat.objects.filter(game=game, position=1).update(
        forfeited=True, withdrawn=True, substituted=True
    )
    Seat.objects.filter(game=game, position=3).update(forfeited=True)
    game.refresh_from_db()
    assert apply_game_result(game) > 0
    return game


def orm_seats(game: Game) -> list[tuple]:
    loaded = listings.games_with_seats().get(pk=game.pk)
    return [
        (s.position, s.competitor_id, s.competitor.name, s.competitor.kind, s.forfeited,
         s.substituted, s.withdrawn)
        for s in loaded.seats.all()
    ]  # fmt: skip


def orm_changes(game: Game) -> list[tuple]:
    """The query ``rating_effects`` made before, its rows as the fields the table reads."""
    scopes = Q(scope__kind=RatingScope.Kind.GLOBAL, scope__engine=game.engine)
    if game.league_id is not None:
        scopes |= Q(scope__kind=RatingScope.Kind.LEAGUE, scope__league_id=game.league_id)
    changes = (
        RatingChange.objects.filter(scopes, game_id=game.pk)
        .select_related("scope__league")
        .order_by("scope__kind", "scope_id", "id")
    )
    return [
        (c.scope_id, c.scope.kind, c.scope.league.name if c.scope.league else None,
         c.competitor_id, c.system, c.before_value, c.after_value, c.before_sigma, c.after_sigma)
        for c in changes
    ]  # fmt: skip


def test_seats_and_changes_of_a_league_game_are_the_orm_rows() -> None:
    game = league_game()
    seats = game_page_reads.seat_rows(game.pk)
    assert [tuple(row) for row in seats] == orm_seats(game)
    assert [row.withdrawn for row in seats] == [False, True, False, False]
    changes = game_page_reads.change_rows(game.pk, game.engine, game.league_id)
    assert [tuple(row) for row in changes] == orm_changes(game)
    assert {row.scope_kind for row in changes} == {"global", "league"}
    assert len(changes) == 3 * 3 * 2, "three rated seats, three systems, two scopes"


def test_attached_seats_give_the_public_seats_of_the_prefetch() -> None:
    game = league_game()
    loaded = listings.games_with_results().get(pk=game.pk)
    withdrawn = game_page_reads.attach_seats(loaded)
    assert withdrawn == frozenset({1})
    prefetched = listings.games_with_seats().get(pk=game.pk)
    assert spectator.public_seats(loaded) == spectator.public_seats(prefetched)


def test_an_unrated_game_without_a_league_has_no_change_rows() -> None:
    game = played_game("manila", CompetitorFactory.create_batch(3), seed="no-changes")
    assert game_page_reads.change_rows(game.pk, game.engine, None) == []
    assert [tuple(row) for row in game_page_reads.seat_rows(game.pk)] == orm_seats(game)

"""The tallies equal a fresh aggregate over the games (``tests/stats/reference.py``), exactly once.

The world of ``fixtures.py`` (a shared first place, a four-player game, an
unrated game, a duplicate set still open, an unlisted and a running game) plus
forfeits, a substituted seat, a competitor in two seats and a missing score;
then the ways the counted set changes: the open duplicate set's twin aborted,
the same game settled again, a rebuild from scratch.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Competitor, Game, Seat
from games.referee import steps as referee
from games.services import create_game
from games.signals import games_settled
from ratings.models import RatingScope
from ratings.services.apply import apply_game_result
from ratings.services.recompute import recompute_scope
from stats.models import CountedGame, OpponentTally, SeatTally
from stats.selectors import competitor as stats
from stats.services import rebuild, settle
from tests.factories import CompetitorFactory, finished_game
from tests.tournaments.played import play_as_people
from tournaments.events.lifecycle import abort_unfinished_games

from . import reference
from .fixtures import World

pytestmark = pytest.mark.django_db


def rounded(rows: list) -> list:
    """Rows as tuples (no id), floats rounded (sums and averages may differ in the last bit);
    a row is a dataclass, a model or a named tuple."""
    return [
        tuple(
            round(v, 9) if isinstance(v, float) else v
            for k, v in (row._asdict() if hasattr(row, "_asdict") else vars(row)).items()
            if k not in ("_state", "id")
        )
        for row in rows
    ]


def assert_as_reference() -> None:
    """Every competitor's sections, and the chart's games, equal the reference aggregates."""
    for competitor in Competitor.objects.all():
        assert rounded(stats.results_by_seat(competitor)) == rounded(
            reference.results_by_seat(competitor)
        ), competitor.name
        assert rounded(stats.head_to_head(competitor)) == rounded(
            reference.head_to_head(competitor)
        ), competitor.name
        charted = sorted(
            (ladder.scope_id, system, point.game_id)
            for ladder in stats.rating_history(competitor)
            for system, points in ladder.systems.items()
            for point in points
        )
        assert charted == reference.rated_games(competitor), competitor.name


def more_games(world: World) -> list[Game]:
    """Forfeits, a substituted seat, one competitor in two seats, a score missing."""
    echo = CompetitorFactory(name="echo")
    forfeit = finished_game(
        [world.alpha, echo, world.bravo],
        [3, 1, 2],
        scores=[7, 9, 8],
        forfeited=[True, False, False],
    )
    apply_game_result(forfeit)
    substituted = finished_game([echo, world.alpha, world.delta], [3, 1, 2], scores=[1, 30, 20],
                                forfeited=[True, False, False])  # fmt: skip
    Seat.objects.filter(game=substituted, position=0).update(substituted=True)
    apply_game_result(substituted)
    twice = finished_game(
        [world.alpha, echo, world.alpha], [1, 2, 1], scores=[5, 4, 5], rated=False
    )
    missing = finished_game([echo, world.charlie], [1, 2], scores=[12, None], engine="batavia")
    return [forfeit, substituted, twice, missing]


def test_the_tallies_equal_the_reference_aggregates(world: World) -> None:
    more_games(world)
    assert SeatTally.objects.exists() and OpponentTally.objects.exists()
    assert_as_reference()
    # Games outside the count left no mark.
    marked = set(CountedGame.objects.values_list("game_id", flat=True))
    assert {world.set_open.pk, world.unlisted.pk, world.running.pk}.isdisjoint(marked)


def test_the_tallies_keep_the_hand_computed_numbers(world: World) -> None:
    """alpha's seat 1 of three-player Manila: g2 only, a shared first place (rank 1, score 25)."""
    seat = SeatTally.objects.get(competitor=world.alpha, engine="manila", players=3, position=1)
    assert (seat.games, seat.firsts, seat.rank_sum, seat.score_sum) == (1, 1, 1.0, 25.0)
    versus = OpponentTally.objects.get(
        competitor=world.alpha, opponent=world.bravo, engine="manila"
    )
    # g1 ahead, g2 level, g3 behind, g4 behind (alpha 2nd, bravo 1st).
    assert (versus.games, versus.ahead, versus.level, versus.behind) == (4, 1, 1, 2)


def test_a_duplicate_set_counts_once_its_last_game_is_over(world: World) -> None:
    assert not CountedGame.objects.filter(game=world.set_open).exists()
    aborted = abort_unfinished_games(world.set_open.tournament)  # the twin, still running
    assert aborted
    assert CountedGame.objects.filter(game=world.set_open).exists()
    assert_as_reference()


def test_settling_the_same_games_again_counts_nothing_twice(world: World) -> None:
    games = more_games(world)
    before = rounded(list(SeatTally.objects.order_by("pk"))) + rounded(
        list(OpponentTally.objects.order_by("pk"))
    )
    ids = [g.pk for g in [*world.counted, *games]]
    assert settle(ids) == []
    games_settled.send(sender=Game, game_ids=ids)
    after = rounded(list(SeatTally.objects.order_by("pk"))) + rounded(
        list(OpponentTally.objects.order_by("pk"))
    )
    assert after == before
    assert_as_reference()


def test_a_rebuild_gives_the_same_tallies(world: World) -> None:
    more_games(world)

    def snapshot() -> tuple[list, list, list]:
        seats = SeatTally.objects.order_by("competitor", "engine", "players", "position")
        opponents = OpponentTally.objects.order_by("competitor", "opponent", "engine")
        return (
            sorted(CountedGame.objects.values_list("game_id", flat=True)),
            rounded(list(seats)),
            rounded(list(opponents)),
        )

    incremental = snapshot()
    written = rebuild()
    assert written["games"] == len(incremental[0])
    assert snapshot() == incremental
    assert_as_reference()


def test_a_rating_recompute_leaves_the_tallies_right(world: World) -> None:
    """Ratings are rewritten, outcomes are not: the tallies need nothing from a recompute."""
    more_games(world)
    for scope in RatingScope.objects.all():
        recompute_scope(scope)
    assert_as_reference()


def test_the_page_reads_no_aggregate_over_the_competitors_games(world: World) -> None:
    """Results by seat and head to head come from the tallies: no GROUP BY over seats."""
    with CaptureQueriesContext(connection) as queries:
        response = Client().get("/bots/ann/alpha/")
    assert response.status_code == 200
    sql = [q["sql"] for q in queries.captured_queries]
    assert not [s for s in sql if "GROUP BY" in s and '"tournaments_seat"' in s]
    tallies = [s for s in sql if '"stats_opponenttally"' in s]
    assert len(tallies) == 1 and "LIMIT 200" in tallies[0]
    assert len([s for s in sql if '"stats_seattally"' in s]) == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_referee")
def test_a_game_finished_by_the_referee_is_tallied_once() -> None:
    """The real path: ``referee.finish`` sends ``games_settled`` in its transaction."""
    players = CompetitorFactory.create_batch(3, kind="person")
    game = create_game("manila", players, seed="tally-seed")
    play_as_people(game, random.Random(2))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert CountedGame.objects.filter(game=game).exists()
    assert referee.finish(game.pk) is False
    assert settle([game.pk]) == []
    assert SeatTally.objects.filter(competitor__in=players).count() == 3
    assert sum(SeatTally.objects.values_list("games", flat=True)) == 3
    assert OpponentTally.objects.filter(competitor__in=players).count() == 6
    assert_as_reference()

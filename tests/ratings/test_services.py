"""Ratings persisted: applied once per game, forfeits last, recompute == incremental."""

from __future__ import annotations

import random
import threading

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games.selectors.ranks import final_ranks
from ratings.models import Rating, RatingChange, RatingScope
from ratings.services.apply import apply_game_result
from tests.factories import CompetitorFactory, LeagueFactory, finished_game


def _elo(competitor, engine="manila"):
    return Rating.objects.get(
        competitor=competitor, system="elo", scope__kind="global", scope__engine=engine
    )


def _snapshot():
    ratings = {
        (r.competitor_id, r.scope_id, r.system): (
            r.value,
            r.sigma,
            r.score,
            r.games,
            r.last_game_id,
        )
        for r in Rating.objects.all()
    }
    changes = {
        (c.game_id, c.competitor_id, c.scope_id, c.system): (
            c.rank, c.before_value, c.before_sigma, c.after_value, c.after_sigma
        )
        for c in RatingChange.objects.all()
    }  # fmt: skip
    return ratings, changes


def test_final_ranks_put_forfeits_last_tied() -> None:
    assert final_ranks([1, 2, 3, 4], [False] * 4) == [1, 2, 3, 4]
    assert final_ranks([1, 2, 3, 4], [True, False, False, False]) == [4, 1, 2, 3]
    assert final_ranks([1, 2, 2, 4], [False, False, False, True]) == [1, 2, 2, 4]
    assert final_ranks([2, 1, 3, 4], [False, True, True, False]) == [1, 3, 3, 2]
    assert final_ranks([4, 3, 2, 1], [True, True, True, True]) == [1, 1, 1, 1]
    with pytest.raises(ValueError, match="forfeit"):
        final_ranks([1, 2], [False])


@pytest.mark.django_db
def test_a_game_updates_every_system_in_every_scope_once() -> None:
    players = CompetitorFactory.create_batch(4)
    league = LeagueFactory(engine="manila")
    game = finished_game(players, [1, 2, 3, 4], league=league)

    assert apply_game_result(game) == 4 * 3 * 2  # competitors x systems x scopes
    assert [round(_elo(p).value, 3) for p in players] == [1516.0, 1505.333, 1494.667, 1484.0]
    trueskill = Rating.objects.get(competitor=players[0], system="trueskill", scope__kind="global")
    assert (round(trueskill.value, 3), round(trueskill.sigma, 3)) == (33.207, 6.348)
    assert trueskill.score == pytest.approx(trueskill.value - 3 * trueskill.sigma)
    assert RatingScope.objects.get(kind="league").ratings.count() == 12
    assert all(r.games == 1 and r.last_game_id == game.pk for r in Rating.objects.all())

    before = _snapshot()
    assert apply_game_result(game) == 0
    assert _snapshot() == before


@pytest.mark.django_db
def test_unrated_and_self_play_games_change_nothing() -> None:
    players = CompetitorFactory.create_batch(3)
    assert apply_game_result(finished_game(players, [1, 2, 3], rated=False)) == 0
    assert apply_game_result(finished_game([players[0], players[0], players[1]], [1, 2, 3])) == 0
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


@pytest.mark.django_db
def test_a_forfeited_winner_is_rated_last() -> None:
    players = CompetitorFactory.create_batch(4)
    game = finished_game(players, [1, 2, 3, 4], forfeited=[True, False, False, False])
    apply_game_result(game)
    # Seat 0 scored best but forfeited: it is rated as 4th, the others move up.
    assert [round(_elo(p).value, 3) for p in players] == [1484.0, 1516.0, 1505.333, 1494.667]
    ranks = dict(RatingChange.objects.filter(system="elo").values_list("competitor_id", "rank"))
    assert [ranks[p.pk] for p in players] == [4, 1, 2, 3]


@pytest.mark.django_db
def test_a_substituted_seat_is_rated_exactly_as_a_forfeit() -> None:
    """A house bot played seat 0 for its person (``Seat.substituted``): rated 4th all the same."""
    from games.models import Seat

    players = CompetitorFactory.create_batch(4)
    game = finished_game(players, [1, 2, 3, 4], forfeited=[True, False, False, False])
    Seat.objects.filter(game=game, position=0).update(substituted=True)
    apply_game_result(game)
    assert [round(_elo(p).value, 3) for p in players] == [1484.0, 1516.0, 1505.333, 1494.667]
    live = _snapshot()
    Rating.objects.update(value=0, sigma=1, score=0, games=0)
    call_command("recompute_ratings", "--no-progress")
    assert _snapshot() == live


@pytest.mark.django_db
def test_scopes_record_parameters_and_library_versions() -> None:
    players = CompetitorFactory.create_batch(2)
    apply_game_result(finished_game(players, [1, 2]))
    scope = RatingScope.objects.get(kind="global", engine="manila")
    assert scope.systems["elo"]["params"] == {"k": 32.0}
    assert scope.systems["trueskill"]["library"] == "trueskill==0.4.5"
    assert scope.systems["openskill"]["library"] == "openskill==6.2.0"
    assert scope.systems["trueskill"]["params"]["draw_probability"] == 0.1


def _random_season(players, league, games: int, seed: int) -> list:
    rng = random.Random(seed)
    played = []
    for _ in range(games):
        table = rng.sample(players, rng.choice([2, 3, 4]))
        ranks = [rng.randint(1, len(table)) for _ in table]
        ranks = [1 + sum(1 for o in ranks if o < r) for r in ranks]
        forfeited = [rng.random() < 0.1 for _ in table]
        game = finished_game(
            table, ranks, forfeited=forfeited, league=league if rng.random() < 0.6 else None
        )
        apply_game_result(game)
        played.append(game)
    return played


@pytest.mark.django_db
def test_recompute_reproduces_incremental_ratings_exactly(capsys) -> None:
    players = CompetitorFactory.create_batch(6)
    league = LeagueFactory(engine="manila")
    _random_season(players, league, games=40, seed=7)
    incremental = _snapshot()
    assert len(incremental[1]) > 300

    Rating.objects.update(value=0, sigma=1, score=0, games=0)  # damage, then rebuild
    call_command("recompute_ratings", "--no-progress")
    assert _snapshot() == incremental
    out = capsys.readouterr().out
    assert "manila global ladder: rebuilt (elo: 40 games, openskill: 40 games, trueskill: 40" in out

    call_command("recompute_ratings", "--scope", league.slug, "--system", "elo", "--no-progress")
    assert _snapshot() == incremental


@pytest.mark.django_db
def test_recompute_refuses_unknown_scopes_and_changed_libraries() -> None:
    players = CompetitorFactory.create_batch(2)
    apply_game_result(finished_game(players, [1, 2]))
    with pytest.raises(CommandError, match="no rating scope 'chess'"):
        call_command("recompute_ratings", "--scope", "chess")
    scope = RatingScope.objects.get()
    scope.systems["trueskill"]["library"] = "trueskill==0.4.4"
    scope.save()
    with pytest.raises(CommandError, match="library versions"):
        call_command("recompute_ratings", "--no-progress")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_finishes_lose_no_update() -> None:
    """Games sharing all four competitors, applied from four threads at once."""
    assert connection.vendor == "postgresql"
    players = CompetitorFactory.create_batch(4)
    rng = random.Random(3)
    games = [
        finished_game(players, rng.sample([1, 2, 3, 4], 4)) for _ in range(24)
    ]  # fmt: skip
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def worker(mine: list) -> None:
        try:
            barrier.wait()
            for game in mine:
                apply_game_result(game)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(games[i::4],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert RatingChange.objects.count() == 24 * 4 * 3
    assert all(r.games == 24 for r in Rating.objects.all())
    live = _snapshot()
    call_command("recompute_ratings", "--no-progress")
    assert _snapshot() == live, "finish order and application order disagree"

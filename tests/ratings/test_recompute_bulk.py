"""The bulk recompute: same ratings as the live path, still exactly once, on both databases.

PostgreSQL writes through COPY, SQLite through batched multi-row INSERTs
(``ratings.services.bulk``); each test that writes checks which path it went through,
so running this file on both databases covers both.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter

import pytest
from django.db import IntegrityError, connection, transaction

from games.models import Game, Seat
from ratings.models import Rating, RatingChange, RatingScope
from ratings.services import bulk
from ratings.services.apply import apply_game_result
from ratings.services.recompute import CHANGE_FIELDS, recompute_scope
from tests.factories import CompetitorFactory, LeagueFactory, finished_game

from .test_services import _snapshot

pytestmark = pytest.mark.slow

SYSTEMS = ("elo", "trueskill", "openskill")


@pytest.fixture
def write_path(monkeypatch) -> list[tuple[str, int]]:
    """Which bulk path each write took, and how many statements the INSERT path used."""
    taken: list[tuple[str, int]] = []
    copy, insert = bulk._copy, bulk._insert

    def spy_copy(*args):
        taken.append(("copy", 1))
        return copy(*args)

    def spy_insert(*args):
        statements = []
        with connection.execute_wrapper(lambda execute, *a: statements.append(1) or execute(*a)):
            count = insert(*args)
        taken.append(("insert", len(statements)))
        return count

    monkeypatch.setattr(bulk, "_copy", spy_copy)
    monkeypatch.setattr(bulk, "_insert", spy_insert)
    return taken


def _season(players, league, games: int, seed: int) -> list:
    """Live-applied games of 2 to 4 players with ties, forfeits and withdrawn seats."""
    rng = random.Random(seed)
    played = []
    for _ in range(games):
        table = rng.sample(players, rng.choice([2, 3, 4, 4]))
        raw = [rng.randint(1, len(table)) for _ in table]
        ranks = [1 + sum(1 for o in raw if o < r) for r in raw]
        forfeited = [rng.random() < 0.1 for _ in table]
        game = finished_game(
            table, ranks, forfeited=forfeited, league=league if rng.random() < 0.5 else None
        )
        if rng.random() < 0.15:  # an entrant left its event during the game
            position = rng.randrange(len(table))
            Seat.objects.filter(game=game, position=position).update(withdrawn=True, forfeited=True)
        apply_game_result(game)
        played.append(game)
    return played


def _rebuild_everything() -> None:
    for scope in RatingScope.objects.all():
        recompute_scope(scope)


@pytest.mark.django_db
def test_bulk_recompute_gives_the_incremental_ratings_bit_for_bit(write_path, monkeypatch) -> None:
    monkeypatch.setattr(bulk, "COPY_ROWS_PER_STATEMENT", 7)  # many COPY statements per write
    players = CompetitorFactory.create_batch(8)
    _season(players, LeagueFactory(engine="manila"), games=90, seed=11)
    live = _snapshot()
    places = Counter(RatingChange.objects.filter(system="elo").values_list("game_id", "rank"))
    assert max(places.values()) > 1, "the season has ties"
    assert (
        Seat.objects.filter(withdrawn=True).exists()
        and Seat.objects.filter(forfeited=True, withdrawn=False).exists()
    ), "and forfeits, and withdrawn seats"

    RatingChange.objects.all().delete()
    Rating.objects.update(value=0, sigma=1, score=0, games=0)  # lose everything, then rebuild
    _rebuild_everything()
    assert _snapshot() == live
    assert sorted(set(name for scope in RatingScope.objects.all() for name in scope.systems)) == [
        "elo", "openskill", "trueskill",
    ]  # fmt: skip

    paths = {path for path, _ in write_path}
    if connection.vendor == "postgresql":
        assert paths == {"copy"}
    else:
        assert paths == {"insert"}
        # ~300 change rows per system in the global scope, 9 columns: many rows per statement
        assert max(n for _, n in write_path) <= 3


@pytest.mark.django_db
def test_applying_a_game_after_a_recompute_changes_nothing() -> None:
    players = CompetitorFactory.create_batch(5)
    games = _season(players, LeagueFactory(engine="manila"), games=20, seed=5)
    _rebuild_everything()
    rebuilt = _snapshot()
    for game in games:
        assert apply_game_result(game) == 0
    assert _snapshot() == rebuilt

    columns = [f"{f}_id" if f in ("game", "competitor", "scope") else f for f in CHANGE_FIELDS]
    row = RatingChange.objects.values_list(*columns).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        bulk.write_rows(RatingChange, CHANGE_FIELDS, [row])  # the same change twice
    assert _snapshot() == rebuilt


@pytest.mark.django_db
def test_a_recompute_counts_only_ratable_games() -> None:
    players = CompetitorFactory.create_batch(3)
    apply_game_result(finished_game(players, [1, 2, 3]))
    finished_game([players[0], players[0], players[1]], [1, 2, 3])  # self-play: never rated
    finished_game(players, [1, 2, 3], rated=False)  # not in the log at all
    scope = RatingScope.objects.get()
    assert recompute_scope(scope) == dict.fromkeys(SYSTEMS, 1)
    assert RatingChange.objects.count() == 3 * 3


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("first", ["recompute", "live game"])
def test_a_recompute_racing_live_games_ends_as_the_incremental_path(first: str) -> None:
    """A game finishing while its scope is rebuilt is rated once, on top of the rebuild.

    Whichever takes the scope first, the other waits (``scopes.lock_for_apply``):
    the end state is the one a rebuild of everything gives.
    """
    assert connection.vendor == "postgresql"
    players = CompetitorFactory.create_batch(6)
    _season(players, None, games=30, seed=3)
    scope = RatingScope.objects.get()
    holding = threading.Event()
    release = threading.Event()
    errors: list[BaseException] = []
    finished: list[int] = []

    def hold(items):
        if not holding.is_set():
            holding.set()
            release.wait(10)
        return items

    def rebuild() -> None:
        try:
            recompute_scope(scope, progress=hold if first == "recompute" else lambda it: it)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    def finish_one() -> None:
        try:
            with transaction.atomic():  # as referee.finish: the outcome and ratings together
                game = finished_game(players[:4], [2, 1, 4, 3])
                finished.append(game.pk)
                apply_game_result(game)
                if first == "live game":
                    holding.set()
                    release.wait(10)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    leader, follower = (rebuild, finish_one) if first == "recompute" else (finish_one, rebuild)
    threads = [threading.Thread(target=leader), threading.Thread(target=follower)]
    threads[0].start()
    assert holding.wait(10)
    threads[1].start()
    time.sleep(0.5)
    assert threads[1].is_alive(), "the second one waits for the scope"
    release.set()
    for thread in threads:
        thread.join(20)
    assert not errors

    assert RatingChange.objects.filter(game_id=finished[0]).count() == 4 * 3
    counted = {(r.competitor_id, r.system): r.games for r in Rating.objects.all()}
    logged = {}
    for competitor, system in RatingChange.objects.values_list("competitor_id", "system"):
        logged[(competitor, system)] = logged.get((competitor, system), 0) + 1
    assert counted == logged, "every game counted once in every rating"
    live = _snapshot()
    recompute_scope(scope)
    assert _snapshot() == live


def _change_row(**changed) -> tuple:
    """A RatingChange row (CHANGE_FIELDS order) copied from an existing change."""
    columns = [f"{f}_id" if f in ("game", "competitor", "scope") else f for f in CHANGE_FIELDS]
    row = dict(zip(CHANGE_FIELDS, RatingChange.objects.values_list(*columns).first(), strict=True))
    row.update(changed)
    return tuple(row[f] for f in CHANGE_FIELDS)


@pytest.mark.postgres
@pytest.mark.django_db
def test_copy_checks_foreign_keys_per_statement_then_defers_them_again(monkeypatch) -> None:
    """The COPY path checks each statement's foreign keys at once, and leaves them deferred.

    ``bulk._copy`` makes the table's deferred foreign keys IMMEDIATE while it
    writes (so the server checks each chunk while the caller computes the
    next); a row pointing at no game is refused right there, and afterwards
    the keys are checked at commit again, as Django declares them.
    """
    monkeypatch.setattr(bulk, "COPY_ROWS_PER_STATEMENT", 1)
    players = CompetitorFactory.create_batch(3)
    apply_game_result(finished_game(players, [1, 2, 3]))
    missing = Game.objects.order_by("-pk").values_list("pk", flat=True).first() + 1000
    dangling = _change_row(game=missing)
    system = CHANGE_FIELDS.index("system")
    produced = []

    def rows():  # no queries in here: the connection is the writer's while it writes
        for i in range(50):
            produced.append(i)
            yield (*dangling[:system], f"bench{i}", *dangling[system + 1 :])

    with pytest.raises(IntegrityError, match="foreign key"), transaction.atomic():
        bulk.write_rows(RatingChange, CHANGE_FIELDS, rows())
    assert len(produced) < 50, "the producer stops once a statement failed"

    with transaction.atomic():
        bulk.write_rows(RatingChange, CHANGE_FIELDS, [_change_row(system="again")])
        # deferred again: a dangling row is accepted until the constraints are checked
        RatingChange.objects.create(**dict(zip(
            [f"{f}_id" if f in ("game", "competitor", "scope") else f for f in CHANGE_FIELDS],
            _change_row(game=missing, system="later"),
            strict=True,
        )))  # fmt: skip
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        transaction.set_rollback(True)


@pytest.mark.django_db
def test_an_error_while_producing_rows_reaches_the_caller() -> None:
    """A failing producer is not swallowed by the writing machinery (nor does it hang)."""
    players = CompetitorFactory.create_batch(3)
    apply_game_result(finished_game(players, [1, 2, 3]))
    row = _change_row(system="new")

    def rows():
        yield row
        raise RuntimeError("the rating math failed")

    with pytest.raises(RuntimeError, match="math failed"), transaction.atomic():
        bulk.write_rows(RatingChange, CHANGE_FIELDS, rows())
    assert not RatingChange.objects.filter(system="new").exists()

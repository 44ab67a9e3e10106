"""A duplicate set's ratings wait for the set: no rating tells a result while its deal plays.

The event runs through the services (entries, start, the referee's finish,
the abort paths): its one table plays three rotations of one deal. While the
set is open, a finished game has no rating change, and the Rating rows, the
leaderboard (API and page) and the competitors' rating history are what
they were before it; a game outside the set is rated at its finish. The
finish or abort that closes the set applies each finished game once, in
finish order, after every game rated before, and a recompute gives the same
ratings.
"""

from __future__ import annotations

import contextlib
import re
import threading

import pytest
from django.db import connection
from django.test import Client

from games.models import Game
from games.referee import step_failures
from games.referee import steps as referee
from ratings.models import Rating, RatingChange
from ratings.services import apply as services
from ratings.services.apply import apply_game_result
from ratings.services.recompute import recompute_scope
from ratings.services.scopes import global_scope
from stats.selectors import competitor as stats
from tests.factories import finished_game
from tests.ratings.test_services import _snapshot
from tests.stats.test_pages import chart_blob
from tournaments import events

from .conftest import complete_log, finish_games, make_event, pull_bots, running_games

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_referee")]

PER_GAME = 3 * 3  # three competitors, three systems, one scope (the engine's ladder)


def start_set():
    """A rated duplicate event of three pull bots already on the ladder: bots, its three games."""
    bots = pull_bots(3)
    competitors = [bot.competitor for bot in bots]
    assert apply_game_result(finished_game(competitors, [1, 2, 3])) == PER_GAME
    event = make_event(duplicate=True, rounds=1)
    events.open_entries(event)
    for bot in bots:
        events.enter(event, bot.competitor, by=bot.owner)
    events.start(event)
    games = running_games(event)
    assert len(games) == 3 and len({g.table_id for g in games}) == 1
    assert all(g.rated for g in games) and len({g.seed for g in games}) == 1
    return bots, games


def ladder_table(page: str) -> str:
    """The leaderboard page's ladder (its list of recent games shows the game finished)."""
    found = re.search(r'<table class="leaderboard">.*?</table>', page, flags=re.S)
    assert found, "no ladder on the page"
    return found.group(0)


def surfaces(client: Client, bots) -> dict[str, object]:
    """What the ladder and the competitors show of ratings (the page cache is off in tests)."""
    seen: dict[str, object] = {
        "rows": _snapshot()[0],
        "api": client.get("/api/v1/leaderboards/manila/?system=elo").json(),
        "page": ladder_table(client.get("/leaderboards/manila/").content.decode()),
    }
    for bot in bots:
        history = stats.rating_history(bot.competitor)
        seen[f"history {bot.pk}"] = [
            (system, [(p.number, p.game_id, p.value) for p in points])
            for ladder in history
            for system, points in ladder.systems.items()
        ]
        page = client.get(f"/competitors/{bot.competitor.pk}/", follow=True).content.decode()
        seen[f"chart {bot.pk}"] = chart_blob(page)
    return seen


def assert_each_game_rated_once(games: list[Game]) -> None:
    """Every finished game of the set has its changes once, applied in finish order."""
    finished = [g for g in games if Game.objects.get(pk=g.pk).status == Game.Status.FINISHED]
    counts = [RatingChange.objects.filter(game=g).count() for g in finished]
    assert counts == [PER_GAME] * len(finished)
    order = list(Game.objects.filter(pk__in=[g.pk for g in finished]).order_by("finished_at", "pk"))
    first_ids = [RatingChange.objects.filter(game=g).order_by("pk")[0].pk for g in order]
    assert first_ids == sorted(first_ids), "changes written in the order recompute replays"


def assert_recompute_agrees() -> None:
    online = _snapshot()
    recompute_scope(global_scope("manila"))
    assert _snapshot() == online


def test_a_finished_game_moves_no_rating_until_its_set_is_over(client: Client) -> None:
    bots, (first, *others) = start_set()
    before = surfaces(client, bots)

    finish_games([first])
    assert Game.objects.get(pk=first.pk).status == Game.Status.FINISHED
    assert not RatingChange.objects.filter(game=first).exists()
    assert surfaces(client, bots) == before, "a rating tells the open set's result"
    recompute_scope(global_scope("manila"))  # a recompute leaves the open set out too
    assert not RatingChange.objects.filter(game=first).exists()
    assert surfaces(client, bots) == before

    # Meanwhile the same bots finish a game outside the set: it is rated at once, and the
    # set's games, rated later, come after it in the ladders and in a recompute's replay.
    outside = finished_game([b.competitor for b in bots], [3, 1, 2])
    assert apply_game_result(outside) == PER_GAME
    finish_games(others[:1])
    assert not RatingChange.objects.filter(game__in=[first, others[0]]).exists()
    finish_games(others[1:])  # the set is over: all three rated, each once
    assert_each_game_rated_once([first, *others])
    rows = Rating.objects.filter(competitor__in=[b.competitor for b in bots], system="elo")
    assert {row.games for row in rows} == {5}
    assert {row.last_game_id for row in rows} == {others[-1].pk}
    assert surfaces(client, bots)["rows"] != before["rows"]
    assert_recompute_agrees()


def abort_by_the_referee(game: Game) -> None:
    assert step_failures.abort(game.pk, "the referee failed three times")


def abort_by_cancelling(game: Game) -> None:
    events.cancel(game.tournament, reason="the venue closed")  # by the system: no organiser


@pytest.mark.parametrize("abort", [abort_by_the_referee, abort_by_cancelling])
def test_an_abort_that_closes_the_set_applies_its_finished_games(abort) -> None:
    _, (first, second, last) = start_set()
    finish_games([first, second])
    assert not RatingChange.objects.filter(game__in=[first, second]).exists()

    abort(last)
    assert Game.objects.get(pk=last.pk).status == Game.Status.ABORTED
    assert_each_game_rated_once([first, second, last])
    assert not RatingChange.objects.filter(game=last).exists()
    assert_recompute_agrees()


@pytest.mark.django_db(transaction=True)
def test_the_last_two_games_finishing_at_once_close_the_set(monkeypatch) -> None:
    """Each finish would see the other still running; the set's table lock orders them.

    Both finishes are held, where they ask whether the set still plays, until
    the other arrives there too or a second has passed: the one that waits for
    the lock instead arrives only once the first has committed, sees its game
    finished and rates the set.
    """
    assert connection.vendor == "postgresql"
    _, (first, second, last) = start_set()
    finish_games([first])
    assert not RatingChange.objects.filter(game=first).exists()
    for game in (second, last):
        complete_log(game)
    both_asking = threading.Barrier(2)
    asks = services._set_still_playing

    def held(table_id: int) -> bool:
        with contextlib.suppress(threading.BrokenBarrierError):
            both_asking.wait(timeout=1)
        return asks(table_id)

    monkeypatch.setattr(services, "_set_still_playing", held)
    errors: list[BaseException] = []

    def finish(game: Game) -> None:
        try:
            assert referee.finish(game.pk)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=(g,)) for g in (second, last)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors
    assert_each_game_rated_once([first, second, last])
    assert_recompute_agrees()

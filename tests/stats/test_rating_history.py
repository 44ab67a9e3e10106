"""The rating chart reads the latest points of each ladder, not the history.

``stats.selectors.history`` reads them.

The same query and the same rows read for 8 games as for 30 (a window of 5
points, rows counted as the query returns them); each point numbered by its
place among the competitor's rated games of the ladder, a duplicate set's
game only once its set is over; the order the ratings were applied kept across a
recompute that rewrites the changes.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Competitor, Game, Outcome
from ratings.models import Rating, RatingChange
from ratings.services.apply import apply_game_result
from ratings.services.recompute import recompute_scope
from ratings.services.scopes import global_scope
from stats.selectors import competitor as stats
from stats.selectors import history
from stats.services import settle
from tests.factories import BotFactory, CompetitorFactory, UserFactory, finished_game

from .fixtures import World
from .test_pages import chart_blob

pytestmark = pytest.mark.django_db

SYSTEMS = 3  # elo, trueskill, openskill


def play(me: Competitor, rivals: list[Competitor], games: int) -> list[Game]:
    """``games`` rated Manila games of ``me`` against two of ``rivals``, applied as they finish."""
    played = []
    for n in range(games):
        ranks = [1 + (n + i) % 3 for i in range(3)]
        game = finished_game([me, rivals[n % 2], rivals[2]], ranks, scores=[9 - r for r in ranks])
        apply_game_result(game)
        played.append(game)
    return played


def applied(competitor: Competitor, system: str = "elo") -> list[tuple[int, float]]:
    """(game, rating after) of its counted changes in the order ratings apply them."""
    return list(
        RatingChange.objects.filter(
            competitor=competitor, system=system, game__stats_counted__isnull=False
        )
        .order_by("game__finished_at", "game_id")
        .values_list("game_id", "after_value")
    )


def drawn(competitor: Competitor, limit: int, system: str = "elo") -> list[tuple[int, int, float]]:
    """(number, game, rating after) of the chart's points in one system (one ladder)."""
    [ladder] = stats.rating_history(competitor, limit=limit)
    return [(p.number, p.game_id, p.value) for p in ladder.systems[system]]


def test_the_same_query_reads_the_same_rows_for_8_and_30_games(monkeypatch) -> None:
    fetched: list[int] = []
    read = history.latest_changes

    def counting(competitor_id: int, limit: int) -> list[history.ChangeRow]:
        rows = read(competitor_id, limit)
        fetched.append(len(rows))
        return rows

    monkeypatch.setattr(history, "latest_changes", counting)
    me, rivals = CompetitorFactory(), [CompetitorFactory() for _ in range(3)]
    seen = {}
    for games, more in ((8, 8), (30, 22)):  # the same competitor, its history grown
        play(me, rivals, more)
        with CaptureQueriesContext(connection) as queries:
            [ladder] = stats.rating_history(me, limit=5)
        seen[games] = (len(queries), fetched[-1])
        for system, points in ladder.systems.items():
            assert [p.number for p in points] == list(range(games - 4, games + 1)), system
            assert [(p.game_id, p.value) for p in points] == applied(me, system)[-5:]
        assert ladder.rated == games and ladder.cut
    assert seen[8] == seen[30] == (1, 5 * SYSTEMS)


def test_the_page_draws_the_window_and_says_it_is_cut(client: Client, monkeypatch) -> None:
    monkeypatch.setattr(stats, "HISTORY_POINTS", 5)
    bot = BotFactory(name="long", owner=UserFactory(username="liz", password=None))
    play(bot.competitor, [CompetitorFactory() for _ in range(3)], 8)
    page = client.get("/bots/liz/long/").content.decode()
    chart = chart_blob(page)[0]
    elo = next(s for s in chart["systems"] if s["system"] == "elo")
    assert chart["number"] == [4, 5, 6, 7, 8]
    assert elo["value"] == [round(value, 2) for _, value in applied(bot.competitor)[-5:]]
    assert "The latest 5 of 8 rated games" in page


def test_a_short_history_is_not_said_to_be_cut(client: Client, world: World) -> None:
    page = client.get("/bots/ann/alpha/").content.decode()
    assert "rated games;" not in page
    assert f"the latest {stats.HISTORY_POINTS} of each ladder at most" in page


def test_a_hidden_game_is_numbered_once_public(world: World) -> None:
    """alpha: g1-g4 counted, the open set's game waiting for its set, then two more counted."""
    g1, g2, g3, g4 = world.counted[:4]
    later = play(world.alpha, [world.bravo, world.charlie, world.delta], 2)
    shown = [g1, g2, g3, g4, *later]
    assert [g for _, g, _ in drawn(world.alpha, 10)] == [g.pk for g in shown]
    assert [n for n, _, _ in drawn(world.alpha, 10)] == [1, 2, 3, 4, 5, 6]
    assert [(n, g) for n, g, _ in drawn(world.alpha, 3)] == [(4, g4.pk), (5, later[0].pk),
                                                              (6, later[1].pk)]  # fmt: skip

    # The set's other game finishes: the set is over, both its games are rated and count,
    # after the games rated while the set was open.
    twin = world.set_open.table.games.exclude(pk=world.set_open.pk).get()
    Game.objects.filter(pk=twin.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    Outcome.objects.create(game=twin, scores=[3, 2, 1], ranks=[1, 2, 3])
    apply_game_result(twin)
    assert settle([twin.pk]) == sorted([world.set_open.pk, twin.pk])
    points = drawn(world.alpha, 10)
    assert [n for n, _, _ in points] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [(g, v) for _, g, v in points] == applied(world.alpha)
    assert [g for _, g, _ in points[6:]] == [world.set_open.pk, twin.pk]
    assert [n for n, _, _ in drawn(world.alpha, 4)] == [5, 6, 7, 8]
    rating = Rating.objects.get(competitor=world.alpha, scope__engine="manila", system="elo")
    assert rating.games == 8


def test_the_order_ratings_were_applied_survives_a_recompute() -> None:
    """A recompute rewrites the changes in finish order; the chart follows, numbers and all."""
    me = CompetitorFactory()
    rivals = [CompetitorFactory() for _ in range(3)]
    games = play(me, rivals, 6)
    # The log says the last game finished first (a corrected clock, an imported game): a
    # recompute replays it first, and its new change ids come first.
    first = games[0].finished_at
    Game.objects.filter(pk=games[-1].pk).update(finished_at=first - timedelta(minutes=1))
    scope = global_scope("manila")
    recompute_scope(scope)
    order = [games[-1].pk] + [g.pk for g in games[:-1]]
    assert [g for g, _ in applied(me)] == order
    for system in ("elo", "trueskill", "openskill"):
        points = drawn(me, 10, system)
        assert [(g, v) for _, g, v in points] == applied(me, system), system
        assert [n for n, _, _ in points] == [1, 2, 3, 4, 5, 6]
        rating = Rating.objects.get(competitor=me, scope=scope, system=system)
        assert (
            rating.games
            == RatingChange.objects.filter(competitor=me, scope=scope, system=system).count()
        )
    # A live game after the recompute comes after it, in ids as in time.
    [live] = play(me, rivals, 1)
    points = drawn(me, 3)
    assert [(n, g) for n, g, _ in points] == [(5, games[3].pk), (6, games[4].pk), (7, live.pk)]
    assert [(g, v) for _, g, v in points] == applied(me)[-3:]


def test_each_point_carries_its_games_finished_at_to_the_microsecond() -> None:
    """The query writes ``finished_at`` as ``isoformat()`` of the ORM's (UTC) datetime would:
    microseconds when there are some, whole seconds without a fraction, None kept."""
    me = CompetitorFactory()
    rivals = [CompetitorFactory() for _ in range(3)]
    games = play(me, rivals, 4)
    settle([game.pk for game in games])
    now = timezone.now().replace(microsecond=0)
    moments = [now - timedelta(days=400, microseconds=123_457), None, now - timedelta(days=3)]
    for game, moment in zip(games, moments, strict=False):
        Game.objects.filter(pk=game.pk).update(finished_at=moment)
    expected = {
        pk: None if moment is None else moment.isoformat()
        for pk, moment in Game.objects.filter(pk__in=[g.pk for g in games]).values_list(
            "pk", "finished_at"
        )
    }
    rows = history.latest_changes(me.pk, 10)
    assert {row.game_id: row.finished for row in rows} == expected
    assert expected[games[0].pk].endswith(".876543+00:00")  # a whole second - 0.123457 s
    assert expected[games[1].pk] is None
    assert expected[games[2].pk].endswith("+00:00") and "." not in expected[games[2].pk]
    [ladder] = stats.rating_history(me, limit=10)
    chart = ladder.as_chart()
    days = {pk: None if moment is None else moment[:10] for pk, moment in expected.items()}
    assert dict(zip(chart["game"], chart["day"], strict=True)) == days

"""The statistics against the hand-computed world of ``fixtures.py`` (ties and hidden games)."""

from __future__ import annotations

import pytest

from ratings.models import RatingChange
from stats.selectors import competitor as stats
from stats.selectors.filters import GameFilters

pytestmark = pytest.mark.django_db


def test_results_by_seat_per_engine_table_size_and_seat(world) -> None:
    rows = [
        (r.engine, r.players, r.position, r.games, r.firsts, r.average_rank, r.average_score)
        for r in stats.results_by_seat(world.alpha)
    ]
    assert rows == [
        ("batavia", 3, 1, 1, 1, 1.0, 9.0),
        ("manila", 3, 0, 1, 1, 1.0, 30.0),  # g1
        ("manila", 3, 1, 1, 1, 1.0, 25.0),  # g2: a shared first place is a first place
        ("manila", 3, 2, 1, 0, 3.0, 20.0),  # g3
        ("manila", 4, 0, 1, 0, 2.0, 15.0),  # g4
    ]


def test_head_to_head_against_every_opponent(world) -> None:
    rows = [
        (h.opponent, h.engine, h.games, h.my_average_rank, h.their_average_rank,
         h.ahead, h.level, h.behind, h.score_difference)
        for h in stats.head_to_head(world.alpha)
    ]  # fmt: skip
    assert rows == [
        # my ranks 1, 1, 3, 2; bravo's 2, 1, 2, 1; scores 30-20, 25-25, 20-30, 15-18
        ("bravo", "manila", 4, 1.75, 1.5, 1, 1, 2, -0.75),
        # charlie's 3, 3, 1, 3; scores 30-10, 25-5, 20-40, 15-12
        ("charlie", "manila", 4, 1.75, 2.5, 3, 0, 1, 5.75),
        ("bravo", "batavia", 1, 1.0, 2.0, 1, 0, 0, 4.0),
        ("charlie", "batavia", 1, 1.0, 3.0, 1, 0, 0, 8.0),
        ("delta", "manila", 1, 2.0, 4.0, 1, 0, 0, 12.0),
    ]
    # the other side sees the mirror image
    bravo = {(h.opponent, h.engine): h for h in stats.head_to_head(world.bravo)}
    mirror = bravo[("ann/alpha", "manila")]
    assert (mirror.games, mirror.ahead, mirror.level, mirror.behind) == (4, 2, 1, 1)
    assert mirror.score_difference == 0.75


def test_rating_history_is_the_rating_changes_of_counted_games(world) -> None:
    ladders = stats.rating_history(world.alpha)
    assert [ladder.title for ladder in ladders] == ["Manila — global ladder"]
    ladder = ladders[0]
    counted = [g.pk for g in world.counted[:4]]
    assert set(ladder.systems) == {"elo", "trueskill", "openskill"}
    for system, points in ladder.systems.items():
        changes = RatingChange.objects.filter(
            competitor=world.alpha, system=system, game_id__in=counted
        ).order_by("game__finished_at", "game_id")
        assert [(p.game_id, p.value, p.sigma) for p in points] == [
            (c.game_id, c.after_value, c.after_sigma) for c in changes
        ]
        assert [p.number for p in points] == [1, 2, 3, 4]
    # the open duplicate set's game waits for its set: not rated yet, so nothing to show
    assert not RatingChange.objects.filter(game=world.set_open, competitor=world.alpha).exists()
    chart = ladder.as_chart()
    assert chart["game"] == counted and chart["number"] == [1, 2, 3, 4]
    trueskill = next(s for s in chart["systems"] if s["system"] == "trueskill")
    points = ladder.systems["trueskill"]
    assert trueskill["value"] == [round(p.value, 2) for p in points]
    assert trueskill["score"] == [round(p.value - 3 * p.sigma, 2) for p in points]
    elo = next(s for s in chart["systems"] if s["system"] == "elo")
    assert elo["value"] == [round(p.value, 2) for p in ladder.systems["elo"]]
    assert elo["score"] is None


def test_history_keeps_the_latest_points_with_their_numbers(world) -> None:
    ladder = stats.rating_history(world.alpha, limit=2)[0]
    assert [p.number for p in ladder.systems["elo"]] == [3, 4]
    assert [p.game_id for p in ladder.systems["elo"]] == [g.pk for g in world.counted[2:4]]


def test_a_competitor_without_games_has_empty_statistics(db) -> None:
    from tests.factories import CompetitorFactory

    nobody = CompetitorFactory()
    assert stats.rating_history(nobody) == []
    assert stats.results_by_seat(nobody) == []
    assert stats.head_to_head(nobody) == []
    assert stats.games_page(nobody, GameFilters()).rows == []


def ids(page: stats.GamesPage) -> list[int]:
    return [row.game.pk for row in page.rows]


def test_game_list_filters_and_cursor(world) -> None:
    g1, g2, g3, g4, g8 = world.counted
    twin = world.set_open.table.games.exclude(pk=world.set_open.pk).get()
    everything = [world.running.pk, world.set_open.pk, twin.pk, g8.pk, g4.pk, g3.pk, g2.pk, g1.pk]
    assert ids(stats.games_page(world.alpha, GameFilters())) == everything  # unlisted left out
    assert ids(stats.games_page(world.alpha, GameFilters(engine="batavia"))) == [g8.pk]
    assert ids(stats.games_page(world.alpha, GameFilters(tournament=world.tournament.pk))) == [
        g1.pk
    ]
    assert ids(stats.games_page(world.alpha, GameFilters(rated=False))) == [g8.pk]
    assert ids(stats.games_page(world.alpha, GameFilters(opponent=world.delta.pk))) == [
        world.running.pk,
        g4.pk,
    ]
    first = stats.games_page(world.alpha, GameFilters(), size=3)
    assert ids(first) == everything[:3] and first.next_before == everything[2]
    second = stats.games_page(world.alpha, GameFilters(before=first.next_before), size=3)
    assert ids(second) == everything[3:6]
    last = stats.games_page(world.alpha, GameFilters(before=everything[5]), size=3)
    assert ids(last) == everything[6:] and last.next_before is None


def test_results_in_the_list_follow_the_spectator_rules(world) -> None:
    rows = {row.game.pk: row for row in stats.games_page(world.alpha, GameFilters()).rows}
    assert rows[world.set_open.pk].seat.rank is None  # its twin is still being played
    assert rows[world.running.pk].seat.rank is None
    assert rows[world.counted[1].pk].seat.rank == 1


def test_filter_choices(world) -> None:
    choices = stats.filter_choices(world.alpha)
    assert choices.engines == [("batavia", "Batavia"), ("manila", "Manila")]
    assert [name for _, name in choices.tournaments] == ["Duplicate cup", "Spring cup"]


def test_filter_choices_list_events_newest_first_then_by_id(db) -> None:
    """The one query's pairs give the order the tournaments' own query gave: created_at
    descending, id on a tie; each event once however many of its games were played, an
    unlisted game's event left out, games outside events add their engine only."""
    from datetime import UTC, datetime

    from django.db.models import Exists, OuterRef

    from games.models import Game, Seat
    from tests.factories import CompetitorFactory, finished_game
    from tournaments.models import Tournament

    me, rival = CompetitorFactory(), CompetitorFactory()
    moments = [datetime(2026, 1, d, tzinfo=UTC) for d in (5, 9, 9, 1)]
    events = [
        Tournament.objects.create(name=f"cup {n}", engine="manila", status="finished")
        for n in range(len(moments))
    ]
    for event, moment in zip(events, moments, strict=True):
        Tournament.objects.filter(pk=event.pk).update(created_at=moment)
        finished_game([me, rival], [1, 2], tournament=event)
        finished_game([rival, me], [1, 2], tournament=event)
    hidden = Tournament.objects.create(name="unlisted", engine="manila", status="finished")
    finished_game([me, rival], [1, 2], tournament=hidden, listed=False)
    finished_game([me, rival], [1, 2], engine="batavia")
    choices = stats.filter_choices(me)
    holds = Seat.objects.filter(game=OuterRef("pk"), competitor=me)
    played = Game.objects.filter(Exists(holds), listed=True)
    expected = Tournament.objects.filter(Exists(played.filter(tournament=OuterRef("pk"))))
    assert choices.tournaments == list(
        expected.order_by("-created_at", "id").values_list("pk", "name")
    )
    assert [name for _, name in choices.tournaments] == ["cup 1", "cup 2", "cup 0", "cup 3"]
    assert choices.engines == [("batavia", "Batavia"), ("manila", "Manila")]


def test_is_public_q_agrees_with_is_public(world) -> None:
    from games.models import Game
    from games.selectors import spectator

    games = list(Game.objects.all())
    shown = set(Game.objects.filter(spectator.is_public_q()).values_list("pk", flat=True))
    assert shown == {game.pk for game in games if spectator.is_public(game)}
    assert world.set_open.pk not in shown and world.counted[0].pk in shown


def test_the_chart_writes_the_games_once_and_aligns_a_system_missing_one() -> None:
    """A ladder whose systems disagree (one being recomputed) keeps every game, ``null`` where
    a system has none; values keep two decimals and timestamps their day."""
    point = stats.HistoryPoint
    ladder = stats.LadderHistory(
        scope_id=7,
        engine="manila",
        engine_name="Manila",
        title="Manila — global ladder",
        is_global=True,
        systems={
            "elo": [point(1, 10, "2026-01-02T03:04:05+00:00", 1512.3456, None)],
            "trueskill": [
                point(1, 10, "2026-01-02T03:04:05+00:00", 26.123456, 7.0),
                point(2, 11, None, 27.5, 6.5),
            ],
        },
        games={"elo": 1, "trueskill": 2},
        limit=500,
    )
    chart = ladder.as_chart()
    assert (chart["number"], chart["game"], chart["day"]) == (
        [1, 2],
        [10, 11],
        ["2026-01-02", None],
    )
    elo, trueskill = chart["systems"]
    assert (elo["value"], elo["score"]) == ([1512.35, None], None)
    assert trueskill["value"] == [26.12, 27.5]
    assert trueskill["score"] == [round(26.123456 - 21.0, 2), round(27.5 - 19.5, 2)]

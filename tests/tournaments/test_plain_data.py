"""``web.api.toolkit.plain_data.representer`` writes what the serializer's ``data`` held.

Over the games API's records of every kind (finished with whole, fractional
and missing scores, a forfeit, running, scheduled, unrated with a reason,
options set) and in two time zones (DRF writes dates in the current one),
compared as the JSON the API renders.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.utils import timezone
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

from games import spectator
from games.models import Game, Seat
from tests.factories import CompetitorFactory, GameFactory, finished_game
from web.api.games.serializers import GameSerializer
from web.api.games.views import games_queryset
from web.api.toolkit.plain_data import representer

pytestmark = pytest.mark.django_db


def _records() -> list[dict]:
    a, b, c = (CompetitorFactory(name=name) for name in ("ann", "bo/bot", "<c & d>"))
    start = datetime(2026, 3, 1, 23, 59, 30, 123456, tzinfo=UTC)
    finished_game([a, b, c], [1, 2, 3], scores=[10, 7.5, 2.675], started_at=start)
    finished_game([c, a], [2, 1], scores=[-0.004, None], forfeited=[True, False])
    finished_game([a, b], [1, 1], rated=False, unrated_reason="same_owner", options={"x": 1})
    running = GameFactory(num_players=2, status=Game.Status.RUNNING, started_at=start)
    Seat.objects.create(game=running, position=0, competitor=a)
    Seat.objects.create(game=running, position=1, competitor=b, substituted=True)
    GameFactory(num_players=2, status=Game.Status.SCHEDULED, rated=False, unrated_reason="")
    games = games_queryset().order_by("-created_at", "-id")
    return [spectator.game_record(game, with_moves=False) for game in games]


@pytest.mark.parametrize("zone", ["UTC", "America/St_Johns"])
def test_the_representer_writes_what_the_serializer_wrote(zone: str) -> None:
    records = _records()
    assert len(records) == 5
    write = representer(GameSerializer)
    with timezone.override(zone):
        expected = GameSerializer(records, many=True).data
        written = [write(record) for record in records]
    assert written == expected
    assert JSONRenderer().render(written) == JSONRenderer().render(expected)


def test_a_field_reading_another_key_is_refused() -> None:
    class Renamed(serializers.Serializer):
        name = serializers.CharField(source="title")

    with pytest.raises(ValueError, match=r"Renamed\.name"):
        representer(Renamed)


def test_the_leaderboard_rows_are_what_the_serializer_wrote() -> None:
    from ratings.scopes import global_scope
    from tests.tournaments.ladders import ladder
    from web.api.games.leaderboards import LeaderboardRowSerializer
    from web.leaderboards import export as leaderboard_export
    from web.leaderboards import ranking as leaderboards

    ladder("manila", [10.0, 2.5, -0.004, 0.0], games=3)
    write = representer(LeaderboardRowSerializer)
    for system in ("trueskill", "elo"):
        rows = leaderboards.every_row(global_scope("manila"), leaderboards.Ladder(system))
        records = [leaderboard_export.record(row) for row in rows]
        expected = LeaderboardRowSerializer(records, many=True).data
        assert [write(record) for record in records] == expected
        assert len(expected) == 4

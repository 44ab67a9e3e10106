"""The aggregate queries the competitor page ran before the tallies: the tallies' test oracle.

Each reads every counted game of the competitor (``stats.competitor.counted``)
and computes the section in SQL; ``stats.tallies`` must give the same rows
(``tests/stats/test_tallies.py``).
"""

from __future__ import annotations

from django.db.models import Avg, Count, FilteredRelation, Q
from django.db.models.lookups import Exact, GreaterThan, LessThan

from games import listings
from games.models import Competitor, Seat
from ratings.models import RatingChange
from stats.competitor import OPPONENTS, HeadToHead, SeatResults, counted
from stats.sql import JsonArrayItem

MY_RANK = JsonArrayItem("game__outcome__ranks", "position")
MY_SCORE = JsonArrayItem("game__outcome__scores", "position")


def results_by_seat(competitor: Competitor) -> list[SeatResults]:
    """Games, first places (shared ones count) and average rank per engine, table size and seat.

    Seat 0 moves first; whether that helps depends on the game and on how
    many sit at the table, hence the grouping. One query.
    """
    rows = (
        Seat.objects.filter(counted("game__"), competitor=competitor)
        .values("game__engine", "game__num_players", "position")
        .annotate(
            games=Count("id"),
            firsts=Count("id", filter=Exact(MY_RANK, 1)),
            average_rank=Avg(MY_RANK),
            average_score=Avg(MY_SCORE),
        )
        .order_by("game__engine", "game__num_players", "position")
    )
    return [
        SeatResults(
            engine=row["game__engine"],
            engine_name=listings.engine_name(row["game__engine"]),
            players=row["game__num_players"],
            position=row["position"],
            games=row["games"],
            firsts=row["firsts"],
            average_rank=row["average_rank"],
            average_score=row["average_score"],
        )
        for row in rows
    ]


def head_to_head(competitor: Competitor, limit: int = OPPONENTS) -> list[HeadToHead]:
    """Every opponent met in a counted game, most games first (one query).

    Each row compares the two seats of a game: "ahead" when the competitor
    ranked better, "level" on a shared rank. A game where either holds two
    seats compares every pair of seats, but counts once in ``games``.
    """
    their_rank = JsonArrayItem("game__outcome__ranks", "position")
    their_score = JsonArrayItem("game__outcome__scores", "position")
    my_rank = JsonArrayItem("game__outcome__ranks", "mine__position")
    my_score = JsonArrayItem("game__outcome__scores", "mine__position")
    rows = (
        Seat.objects.annotate(
            mine=FilteredRelation("game__seats", condition=Q(game__seats__competitor=competitor))
        )
        .filter(counted("game__"), mine__id__isnull=False)
        .exclude(competitor=competitor)
        .values("competitor_id", "competitor__name", "competitor__kind", "game__engine")
        .annotate(
            games=Count("game_id", distinct=True),
            my_average_rank=Avg(my_rank),
            their_average_rank=Avg(their_rank),
            ahead=Count("id", filter=LessThan(my_rank, their_rank)),
            level=Count("id", filter=Exact(my_rank, their_rank)),
            behind=Count("id", filter=GreaterThan(my_rank, their_rank)),
            score_difference=Avg(my_score - their_score),
        )
        .order_by("-games", "competitor__name", "competitor_id", "game__engine")[:limit]
    )
    return [
        HeadToHead(
            opponent_id=row["competitor_id"],
            opponent=row["competitor__name"],
            kind=row["competitor__kind"],
            engine=row["game__engine"],
            engine_name=listings.engine_name(row["game__engine"]),
            games=row["games"],
            my_average_rank=row["my_average_rank"],
            their_average_rank=row["their_average_rank"],
            ahead=row["ahead"],
            level=row["level"],
            behind=row["behind"],
            score_difference=row["score_difference"],
        )
        for row in rows
    ]


# -------------------------------------------------------------------- games


def rated_games(competitor: Competitor) -> list[tuple[int, str, int]]:
    """(scope, system, game) of every counted rating change: what the chart's points must be."""
    return sorted(
        RatingChange.objects.filter(counted("game__"), competitor=competitor).values_list(
            "scope_id", "system", "game_id"
        )
    )

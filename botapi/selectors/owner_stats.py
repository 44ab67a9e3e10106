"""A bot's latency percentiles and fault rate per day, for its owner page's chart.

Counted over the bot's *decisions*: the moves of its seats the bot made or
failed to make (source ``bot``, or ``default`` after its fault), without the
defaults played for a seat that had already forfeited (fault ``forfeited``:
not a new failure of the bot). Days are UTC days; the window is the last
:data:`WINDOW_DAYS` days, today included, and every day of it is returned
(zero moves and no percentiles on a day without games).

Computed in the database in one query. PostgreSQL gives the percentiles
itself (``percentile_cont``, the continuous percentile: linear interpolation
between the two nearest latencies). SQLite has no such aggregate, so there
the counts still come from the database and the percentiles are computed in
Python, the same way, over a bounded sample: the newest
:data:`SQLITE_SAMPLE` latencies of the window (a second query). SQLite is
the demo's database; a bot busier than that on it would show percentiles
only for its most recent days.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db import connection
from django.db.models import Aggregate, Count, FloatField, Q, QuerySet
from django.db.models.functions import TruncDate
from django.utils import timezone

from botapi.models import Bot
from botapi.selectors.owner_log import bot_moves
from games.models import Move
from games.referee.decisions import FORFEITED

WINDOW_DAYS = 30
SQLITE_SAMPLE = 20_000


class PercentileCont(Aggregate):
    """PostgreSQL's ``percentile_cont(fraction) WITHIN GROUP (ORDER BY expression)``."""

    function = "PERCENTILE_CONT"
    template = "%(function)s(%(fraction)s) WITHIN GROUP (ORDER BY %(expressions)s)"
    output_field = FloatField()

    def __init__(self, fraction: float, expression: Any, **extra: Any) -> None:
        if not 0 <= fraction <= 1:
            raise ValueError("a percentile is a fraction between 0 and 1")
        super().__init__(expression, fraction=repr(float(fraction)), **extra)


@dataclass(frozen=True)
class DayStats:
    day: date
    moves: int
    faults: int
    p50_ms: float | None
    p95_ms: float | None

    @property
    def fault_rate(self) -> float | None:
        """Faulty decisions / decisions that day; None on a day without any."""
        return self.faults / self.moves if self.moves else None


def percentile_cont(ordered: list[float], fraction: float) -> float | None:
    """``percentile_cont`` of PostgreSQL over ``ordered`` (sorted ascending); None if empty."""
    if not ordered:
        return None
    position = fraction * (len(ordered) - 1)
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def decisions(bot: Bot, since: datetime) -> QuerySet[Move]:
    """The bot's decisions since ``since`` (see the module's doc)."""
    return (
        bot_moves(bot)
        .filter(created_at__gte=since, source__in=[Move.Source.BOT, Move.Source.DEFAULT])
        .exclude(fault_kind=FORFEITED)
    )


def window_start(now: datetime | None = None) -> datetime:
    """Midnight (current time zone, UTC) of the first day of the window."""
    today = timezone.localdate(now or timezone.now())
    first = today - timedelta(days=WINDOW_DAYS - 1)
    return timezone.make_aware(datetime.combine(first, time.min))


def daily_stats(bot: Bot, now: datetime | None = None) -> list[DayStats]:
    """Every day of the window, oldest first: decisions, faults, latency p50 and p95."""
    since = window_start(now)
    on_postgres = connection.vendor == "postgresql"
    aggregates: dict[str, Any] = {
        "moves": Count("id"),
        "faults": Count("id", filter=~Q(fault_kind="")),
    }
    if on_postgres:
        aggregates["p50"] = PercentileCont(0.5, "latency_ms")
        aggregates["p95"] = PercentileCont(0.95, "latency_ms")
    rows = (
        decisions(bot, since)
        .annotate(day=TruncDate("created_at"))
        .order_by()
        .values("day")
        .annotate(**aggregates)
    )
    by_day = {row["day"]: row for row in rows}
    if not on_postgres:
        for day, (p50, p95) in _sampled_percentiles(bot, since).items():
            if day in by_day:
                by_day[day].update(p50=p50, p95=p95)
    first = since.date()
    days = []
    for offset in range(WINDOW_DAYS):
        day = first + timedelta(days=offset)
        row = by_day.get(day, {})
        days.append(
            DayStats(
                day=day,
                moves=row.get("moves", 0),
                faults=row.get("faults", 0),
                p50_ms=row.get("p50"),
                p95_ms=row.get("p95"),
            )
        )
    return days


def _sampled_percentiles(bot: Bot, since: datetime) -> dict[date, tuple[float, float]]:
    """SQLite: p50 and p95 per day over the newest ``SQLITE_SAMPLE`` latencies of the window."""
    sample = (
        decisions(bot, since)
        .filter(latency_ms__isnull=False)
        .order_by("-created_at")
        .values_list("created_at", "latency_ms")[:SQLITE_SAMPLE]
    )
    latencies: dict[date, list[float]] = defaultdict(list)
    for created_at, latency in sample:
        latencies[timezone.localdate(created_at)].append(float(latency))
    result = {}
    for day, values in latencies.items():
        values.sort()
        result[day] = (percentile_cont(values, 0.5), percentile_cont(values, 0.95))
    return result


def chart_data(days: list[DayStats]) -> dict[str, list[Any]]:
    """The chart's series (``static/bots/owner.js``): x in Unix seconds, y per series."""
    return {
        "x": [
            int(timezone.make_aware(datetime.combine(d.day, time.min)).timestamp()) for d in days
        ],
        "p50": [None if d.p50_ms is None else round(d.p50_ms, 1) for d in days],
        "p95": [None if d.p95_ms is None else round(d.p95_ms, 1) for d in days],
        "fault_rate": [
            None if d.fault_rate is None else round(100 * d.fault_rate, 2) for d in days
        ],
        "moves": [d.moves for d in days],
    }

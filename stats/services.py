"""Adding counted games to the competitor tallies (``stats.models``), exactly once each.

:func:`settle` runs inside the transaction that finished or aborted games (the
``games.signals.games_settled`` receiver, connected in
``StatsConfig.ready``): among those games and the other games of their
duplicate sets, each that is now counted and not yet marked gets a
:class:`~stats.models.CountedGame` mark and is added to the tallies. The
mark's insert (``ON CONFLICT DO NOTHING RETURNING``) says which games this
call added, so a second call, or a second worker finishing the same game,
adds nothing. A duplicate set's table row is locked first: two of its games
finishing at once are settled one after the other, and the second sees the
first finished (otherwise each would see the other still running and neither
would count the set).

:func:`rebuild` (``manage.py build_competitor_stats``) recomputes all of it
from the games with three bulk statements.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q

from games.models import Game, Outcome, Seat
from stats.models import OPPONENT_SUMS, SEAT_SUMS, CountedGame, OpponentTally, SeatTally
from stats.selectors.competitor import counted
from tournaments.models import Table


def on_games_settled(sender: Any, game_ids: Sequence[int], **kwargs: Any) -> None:
    """The ``games_settled`` receiver."""
    settle(game_ids)


def on_outcome_saved(sender: Any, instance: Outcome, created: bool, **kwargs: Any) -> None:
    """An outcome recorded for a game already finished (tools, imports, test factories).

    The referee records the outcome while the game still runs and sends
    ``games_settled`` once it is finished; this catches every other path
    without a query when the game in hand is not finished.
    """
    if created and instance.game.status == Game.Status.FINISHED:
        settle([instance.game_id])


@transaction.atomic
def settle(game_ids: Iterable[int]) -> list[int]:
    """Add the games now counted among ``game_ids`` and their duplicate sets; return those added."""
    game_ids = sorted(set(game_ids))
    if not game_ids:
        return []
    tables = sorted(
        set(
            Game.objects.filter(pk__in=game_ids, table__isnull=False).values_list(
                "table_id", flat=True
            )
        )
    )
    if tables:
        # Locked in id order; every later statement sees the set's games as committed.
        list(Table.objects.select_for_update().filter(pk__in=tables).order_by("pk").values("pk"))
    marked = CountedGame.objects.filter(game=OuterRef("pk"))
    candidates = list(
        Game.objects.filter(Q(pk__in=game_ids) | Q(table_id__in=tables))
        .filter(counted())
        .filter(~Exists(marked))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    added = _mark(candidates)
    if added:
        add_games(added)
    return added


def _mark(game_ids: list[int]) -> list[int]:
    """Insert the marks; the ids whose mark this call inserted (none already there)."""
    if not game_ids:
        return []
    table = CountedGame._meta.db_table
    values = ", ".join(["(%s)"] * len(game_ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (game_id) VALUES {values} "
            "ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
            game_ids,
        )
        return sorted(row[0] for row in cursor.fetchall())


def _item(values: Any, index: int) -> float | None:
    """``values[index]`` as a float, None when missing or null (as ``stats.sql.JsonArrayItem``)."""
    if not isinstance(values, list) or index >= len(values) or values[index] is None:
        return None
    return float(values[index])


def add_games(game_ids: list[int]) -> None:
    """Add these games (marked, counted, never added before) to both tallies (two upserts)."""
    seats: dict[int, list[tuple[int, int]]] = defaultdict(list)
    games: dict[int, tuple[str, int]] = {}
    rows = Seat.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "position", "competitor_id", "game__engine", "game__num_players"
    )
    for game_id, position, competitor_id, engine, players in rows:
        seats[game_id].append((position, competitor_id))
        games[game_id] = (engine, players)
    outcomes = dict(
        (game_id, (scores, ranks))
        for game_id, scores, ranks in Outcome.objects.filter(game_id__in=game_ids).values_list(
            "game_id", "scores", "ranks"
        )
    )
    by_seat: dict[tuple, list[float]] = defaultdict(lambda: [0.0] * len(SEAT_SUMS))
    by_opponent: dict[tuple, list[float]] = defaultdict(lambda: [0.0] * len(OPPONENT_SUMS))
    for game_id, game_seats in seats.items():
        engine, players = games[game_id]
        scores, ranks = outcomes.get(game_id, (None, None))
        rank = {p: _item(ranks, p) for p, _ in game_seats}
        score = {p: _item(scores, p) for p, _ in game_seats}
        for position, competitor in game_seats:
            r, s = rank[position], score[position]
            sums = by_seat[(competitor, engine, players, position)]
            sums[0] += 1
            sums[1] += r == 1
            if r is not None:
                sums[2] += r
                sums[3] += 1
            if s is not None:
                sums[4] += s
                sums[5] += 1
        met: set[tuple[int, int]] = set()
        for mine, me in game_seats:
            for theirs, them in game_seats:
                if them == me:
                    continue
                sums = by_opponent[(me, them, engine)]
                if (me, them) not in met:
                    met.add((me, them))
                    sums[0] += 1
                _add_pair(sums, rank[mine], rank[theirs], score[mine], score[theirs])
    _upsert(SeatTally, ("competitor_id", "engine", "players", "position"), SEAT_SUMS, by_seat)
    _upsert(OpponentTally, ("competitor_id", "opponent_id", "engine"), OPPONENT_SUMS, by_opponent)


def _add_pair(
    sums: list[float], mine: float | None, theirs: float | None, my_score: Any, their_score: Any
) -> None:
    """One of my seats beside one of theirs, as the aggregate query's pair row counted it."""
    if mine is not None:
        sums[1] += mine
        sums[2] += 1
    if theirs is not None:
        sums[3] += theirs
        sums[4] += 1
    if mine is not None and theirs is not None:
        sums[5] += mine < theirs
        sums[6] += mine == theirs
        sums[7] += mine > theirs
    if my_score is not None and their_score is not None:
        sums[8] += my_score - their_score
        sums[9] += 1


def _upsert(
    model: Any, keys: tuple[str, ...], fields: tuple[str, ...], rows: dict[tuple, list[float]]
) -> None:
    """``INSERT ... ON CONFLICT DO UPDATE SET f = f + excluded.f``, in key order (no deadlock)."""
    if not rows:
        return
    table = model._meta.db_table
    columns = (*keys, *fields)
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    params: list[Any] = []
    for key in sorted(rows):
        params.extend(key)
        params.extend(rows[key])
    increments = ", ".join(f"{f} = {table}.{f} + excluded.{f}" for f in fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join([one] * len(rows))} "
            f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {increments}",
            params,
        )


# ------------------------------------------------------------------ rebuild
def _json_item(array: str, index: str) -> str:
    """SQL for ``array[index]`` as a float, as ``stats.sql.JsonArrayItem`` writes it."""
    if connection.vendor == "postgresql":
        return f"(({array}) ->> ({index})::integer)::double precision"
    return f"CAST(json_extract({array}, '$[' || ({index}) || ']') AS REAL)"


@transaction.atomic
def rebuild() -> dict[str, int]:
    """Empty the tallies and recompute them from every counted game; the row counts written."""
    marks, seats, opponents = (m._meta.db_table for m in (CountedGame, SeatTally, OpponentTally))
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Games settled meanwhile wait for the rebuild (their marks' insert), then add up.
            cursor.execute(f"LOCK TABLE {marks}, {seats}, {opponents} IN EXCLUSIVE MODE")
        for table in (opponents, seats, marks):
            cursor.execute(f"DELETE FROM {table}")
        sql, params = Game.objects.filter(counted()).order_by().values("pk").query.sql_with_params()
        cursor.execute(f"INSERT INTO {marks} (game_id) {sql}", params)
        written = {"games": cursor.rowcount}
        rank = _json_item("o.ranks", "s.position")
        score = _json_item("o.scores", "s.position")
        played = (
            f"SELECT s.game_id, s.competitor_id, s.position, g.engine, g.num_players, "
            f"{rank} AS r, {score} AS sc "
            f"FROM {marks} c JOIN {Seat._meta.db_table} s ON s.game_id = c.game_id "
            f"JOIN {Game._meta.db_table} g ON g.id = c.game_id "
            f"LEFT JOIN {Outcome._meta.db_table} o ON o.game_id = c.game_id"
        )
        cursor.execute(
            f"INSERT INTO {seats} (competitor_id, engine, players, position, "
            f"{', '.join(SEAT_SUMS)}) "
            "SELECT competitor_id, engine, num_players, position, COUNT(*), "
            "SUM(CASE WHEN r = 1 THEN 1 ELSE 0 END), COALESCE(SUM(r), 0), COUNT(r), "
            "COALESCE(SUM(sc), 0), COUNT(sc) "
            f"FROM ({played}) x GROUP BY competitor_id, engine, num_players, position"
        )
        written["seat rows"] = cursor.rowcount
        cursor.execute(
            f"INSERT INTO {opponents} (competitor_id, opponent_id, engine, "
            f"{', '.join(OPPONENT_SUMS)}) "
            "SELECT me.competitor_id, them.competitor_id, me.engine, COUNT(DISTINCT me.game_id), "
            "COALESCE(SUM(me.r), 0), COUNT(me.r), COALESCE(SUM(them.r), 0), COUNT(them.r), "
            "SUM(CASE WHEN me.r < them.r THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN me.r = them.r THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN me.r > them.r THEN 1 ELSE 0 END), "
            "COALESCE(SUM(me.sc - them.sc), 0), COUNT(me.sc - them.sc) "
            f"FROM ({played}) me JOIN ({played}) them "
            "ON them.game_id = me.game_id AND them.competitor_id <> me.competitor_id "
            "GROUP BY me.competitor_id, them.competitor_id, me.engine"
        )
        written["opponent rows"] = cursor.rowcount
    return written

"""Database rows -> the formats' types: the one adapter between the two.

The formats (``tournaments.formats``) are pure; they know entrants by key
(the Entrant row's primary key) and results as seat orders and ranks. This
module reads what they need, and nothing writes through it.

* :func:`settings_of`: the event's format settings;
* :func:`active_entrants`: the active entrants, each with its seed order, its
  seeding rating and its owner (None for the service's house bots, which,
  as in the arena, never count as one owner's entrants at a table);
* :func:`entrants_of`, :func:`standings_of`: everyone who took part, and the
  standings now (for pages and the admin);
* :func:`history_of`: every finished table as a ``Result`` (a duplicate
  table only once every rotation has finished, aggregated by
  ``formats.duplicate.aggregate``; an adjudicated game counts with the
  organiser's result), and the byes of every round.
  Withdrawn entrants' past results stay in it: their opponents' scores and
  tie-breaks depend on them.
"""

from __future__ import annotations

from collections import defaultdict

from botapi.selectors.seating import example_bots_username
from games.models import Game, Seat
from tournaments import formats
from tournaments.events.seed_order import rating_scores
from tournaments.formats import duplicate
from tournaments.formats.standings import standings
from tournaments.models import Entrant, Round, Table, Tournament


def settings_of(tournament: Tournament) -> formats.Settings:
    """The format settings of an event."""
    return formats.Settings(
        table_size=tournament.table_size,
        min_table_size=tournament.min_table_size,
        rounds=tournament.rounds,
        bye_points=tournament.bye_points,
        advance=tournament.advance_per_table,
        separate_owners=not tournament.allow_same_owner_tables,
        tie_breaks=tuple(tournament.tie_breaks or ()),
    )


def _owner(row: Entrant, house: str) -> int | None:
    """The entrant's owner for the formats; None for the house bots (nobody's, as in the arena)."""
    user = row.competitor.user
    if user is None or user.get_username() == house:
        return None
    return user.pk


def active_entrants(tournament: Tournament) -> list[formats.Entrant]:
    """The event's active entrants as the formats see them, in seed order."""
    rows = list(
        tournament.entrants.filter(status=Entrant.Status.ACTIVE)
        .select_related("competitor__user")
        .order_by("seed_order", "pk")
    )
    scores = rating_scores(tournament, [row.competitor_id for row in rows])
    house = example_bots_username()
    return [
        formats.Entrant(
            key=row.pk,
            seed=row.seed_order,
            rating=scores[row.competitor_id],
            owner=_owner(row, house),
        )
        for row in rows
    ]


def entrants_of(tournament: Tournament) -> tuple[list[formats.Entrant], set[int]]:
    """Everyone who took part (active, withdrawn, disqualified) and the keys no longer active.

    What a standings page lists (``formats.standings.standings(..., inactive=...)``);
    pending entries are left out (they never played).
    """
    took_part = (Entrant.Status.ACTIVE, Entrant.Status.WITHDRAWN, Entrant.Status.DISQUALIFIED)
    rows = list(
        tournament.entrants.filter(status__in=took_part)
        .select_related("competitor")
        .order_by("seed_order", "pk")
    )
    scores = rating_scores(tournament, [row.competitor_id for row in rows])
    entrants = [
        formats.Entrant(
            key=row.pk,
            seed=row.seed_order,
            rating=scores[row.competitor_id],
            owner=row.competitor.user_id,
        )
        for row in rows
    ]
    return entrants, {row.pk for row in rows if row.status != Entrant.Status.ACTIVE}


def standings_of(tournament: Tournament) -> list:
    """The event's standings now (``formats.standings.Standing`` rows, best first).

    Live while the event runs (finished tables count, a duplicate set once
    complete), final once it is finished; withdrawn and disqualified
    entrants are listed with ``active=False``.
    """
    entrants, inactive = entrants_of(tournament)
    return standings(entrants, history_of(tournament), settings_of(tournament), inactive)


FINISHED = Game.Status.FINISHED


def history_of(tournament: Tournament) -> formats.History:
    """Every finished table's result and every bye so far, for the format.

    Rows are read as tuples (tables, games with their outcomes, seats): every
    page of an event and every pairing reads the whole history, and model
    instances of its games would cost more than the rest of the work.
    """
    tables = list(
        Table.objects.filter(round__tournament=tournament).values_list(
            "pk", "round__number", "seats"
        )
    )
    games_by_table: dict[int, list[tuple[int, str, list, list]]] = defaultdict(list)
    for row in Game.objects.filter(tournament=tournament, table__isnull=False).values_list(
        "table_id", "pk", "status", "outcome__ranks", "outcome__scores",
        "adjudication__ranks", "adjudication__scores",
    ):  # fmt: skip
        games_by_table[row[0]].append(_as_played(*row[1:]))
    keys = _entrant_keys(tournament)
    seat_orders = _seat_orders(
        [pk for gs in games_by_table.values() for pk, status, *_ in gs if status == FINISHED],
        keys,
    )
    results = []
    for table_id, round_number, seats in tables:
        played = sorted(games_by_table.get(table_id, []))
        if not played or any(status != FINISHED for _, status, *_ in played):
            continue
        per_game = [
            formats.Result(
                round=round_number,
                seats=seat_orders[pk],
                ranks=tuple(ranks),
                scores=tuple(float(s) for s in scores),
            )
            for pk, _, ranks, scores in played
        ]
        if tournament.duplicate:
            results.append(_aggregate(round_number, seats, per_game))
        else:
            results.extend(per_game)
    byes = [
        formats.Bye(round=number, key=key)
        for number, keys_out in Round.objects.filter(tournament=tournament).values_list(
            "number", "byes"
        )
        for key in keys_out or ()
    ]
    return formats.History(results=tuple(results), byes=tuple(byes))


def _as_played(
    pk: int, status: str, ranks: list, scores: list, judged_ranks: list | None, judged: list | None
) -> tuple[int, str, list, list]:
    """A game as its table's result counts it: an aborted game the organiser adjudicated
    counts with the adjudication's ranks and scores (``events.adjudication``)."""
    if status == Game.Status.ABORTED and judged_ranks is not None:
        return pk, FINISHED, judged_ranks, judged or [0.0] * len(judged_ranks)
    return pk, status, ranks, scores


def _aggregate(round_number: int, seats: list, per_game: list[formats.Result]) -> formats.Result:
    """One Result for a duplicate table's set of rotations (``formats.duplicate``)."""
    return duplicate.aggregate(round_number, tuple(seats), tuple(per_game))


def _entrant_keys(tournament: Tournament) -> dict[int, int]:
    """Competitor id -> entrant key, for every entrant of the event (any status)."""
    return dict(tournament.entrants.values_list("competitor_id", "pk"))


def _seat_orders(game_ids: list[int], keys: dict[int, int]) -> dict[int, tuple[int, ...]]:
    """Game id -> entrant keys in seat order."""
    seats: dict[int, list[tuple[int, int]]] = defaultdict(list)
    rows = Seat.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "position", "competitor_id"
    )
    for game_id, position, competitor_id in rows:
        seats[game_id].append((position, keys[competitor_id]))
    return {game_id: tuple(key for _, key in sorted(seated)) for game_id, seated in seats.items()}

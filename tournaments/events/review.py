"""The draw under the organiser's control: a proposed round is reviewed, changed, released.

An event with ``review_rounds`` on stops each pairing at a *proposed* round
(``rounds.pair_round``): its tables are saved, its games are not created,
and nothing starts until the organiser acts:

* :func:`swap` exchanges two entrants of the proposed round (between two
  tables, or a table and the byes); the format's rules are checked first
  (:func:`swap_refusal`) and a refused swap changes nothing;
* :func:`repair` throws the proposed tables away and pairs the round again
  from the entrants active now (after a withdrawal, say), from a seed of its
  own so a format with random choices may choose otherwise;
* :func:`release` creates the round's games (as an unreviewed round's are
  created at pairing) and the round runs.

Each takes ``by`` (the user acting), locks the tournament first (the order
``events.locks`` documents), and raises ``EventError`` with a sentence that
names what to fix, having changed nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.events.eligibility import why_cannot_play
from tournaments.events.errors import EventError
from tournaments.events.history import history_of
from tournaments.events.locks import lock_tournament
from tournaments.events.roles import require_organiser
from tournaments.events.rounds import (
    PairingError,
    create_table_games,
    end_empty_round,
    pair_round,
)
from tournaments.models import Entrant, Round, Table, Tournament

S = Tournament.Status
BYE = 0
"""The "table number" of the byes, where a swap finds an entrant sitting out."""


@dataclass(frozen=True)
class Place:
    """Where an entrant is in a proposed round: a table and seat (0-based), or the byes."""

    table: int
    seat: int

    @property
    def is_bye(self) -> bool:
        return self.table == BYE

    def words(self) -> str:
        return "sits out (bye)" if self.is_bye else f"table {self.table}, seat {self.seat + 1}"


def proposed_round(event: Tournament, number: int, doing: str) -> Round:
    """The event's round ``number`` if it is proposed; otherwise the sentence why not."""
    if event.status != S.RUNNING:
        raise EventError(
            f"{event.name} is {event.get_status_display()}; rounds are {doing} only while it "
            "runs" + (" (resume it first)" if event.status == S.PAUSED else "")
        )
    found = Round.objects.select_for_update(no_key=True).filter(tournament=event, number=number)
    round_row = found.first()
    if round_row is None:
        raise EventError(f"{event.name} has no round {number}")
    if round_row.status != Round.Status.PROPOSED:
        raise EventError(
            f"round {number} of {event.name} is {round_row.get_status_display()}: only a "
            f"proposed round (one not started yet) can be {doing}"
        )
    return round_row


def places_of(round_row: Round, tables: list[Table]) -> dict[int, Place]:
    """Entrant id -> where it is in the round."""
    places = {int(key): Place(BYE, 0) for key in round_row.byes}
    for table in tables:
        for seat, key in enumerate(table.seats):
            places[int(key)] = Place(table.number, seat)
    return places


# ----------------------------------------------------------------- swapping
def swap(tournament: Tournament, number: int, first: int, second: int, *, by: Any = None) -> Round:
    """Exchange entrants ``first`` and ``second`` (entrant ids) in proposed round ``number``."""
    with transaction.atomic():
        event = lock_tournament(tournament)
        require_organiser(event, by, "change its rounds")
        round_row = proposed_round(event, number, "changed")
        tables = list(Table.objects.filter(round=round_row).order_by("number"))
        names = dict(Entrant.objects.filter(tournament=event).values_list("pk", "competitor__name"))
        places = places_of(round_row, tables)
        refusal = swap_refusal(event, round_row, tables, places, names, first, second)
        if refusal:
            raise EventError(f"{refusal}; nothing was changed")
        _exchange(round_row, tables, places[first], places[second], first, second)
    return round_row


def swap_refusal(
    event: Tournament,
    round_row: Round,
    tables: list[Table],
    places: dict[int, Place],
    names: dict[int, str],
    first: int,
    second: int,
) -> str:
    """Why swapping ``first`` and ``second`` is refused, or "" when the format allows it."""
    for key in (first, second):
        if key not in places:
            who = names.get(key, f"entrant {key}")
            return f"{who} is not in round {round_row.number}: choose two entrants of the round"
    if first == second:
        return "choose two different entrants"
    a, b = places[first], places[second]
    if a.table == b.table:
        where = "both sit out" if a.is_bye else f"both are at table {a.table}"
        return (
            f"{names[first]} and {names[second]} {where}: a swap exchanges entrants of two "
            "different tables (or a table and the byes)"
        )
    if a.is_bye or b.is_bye:
        to_bye, from_bye = (second, first) if a.is_bye else (first, second)
        return _bye_refusal(event, round_row, names, to_bye, from_bye)
    if refusal := _same_owner_refusal(event, tables, places, names, first, second):
        return refusal
    if event.format == Tournament.Format.ROUND_ROBIN:
        return _rematch_refusal(event, round_row, tables, places, names, first, second)
    return ""


def _same_owner_refusal(
    event: Tournament,
    tables: list[Table],
    places: dict[int, Place],
    names: dict[int, str],
    first: int,
    second: int,
) -> str:
    """Entrants of one owner are kept apart (#31, point 3) unless the event allows it.

    Only a pair the swap *makes* is refused: one the format had to make
    (too few owners for the tables) does not block other swaps.
    ``allow_same_owner_tables`` is the event's setting of point 3; an event
    without it keeps owners apart.
    """
    if event.allow_same_owner_tables:
        return ""
    owners = dict(Entrant.objects.filter(tournament=event).values_list("pk", "competitor__user_id"))
    seats = {table.number: [int(key) for key in table.seats] for table in tables}
    for moving, other in ((first, second), (second, first)):
        table = places[other].table
        for key in seats[table]:
            if key != other and owners.get(key) is not None and owners[key] == owners[moving]:
                return (
                    f"{names[moving]} and {names[key]} have the same owner, and this event "
                    f"keeps one owner's entrants apart: table {table} would seat both; choose "
                    "another pair"
                )
    return ""


def _bye_refusal(
    event: Tournament, round_row: Round, names: dict[int, str], to_bye: int, from_bye: int
) -> str:
    """The seated entrant would sit out instead: the format's rule on byes.

    The formats give a bye to whoever has sat out least (``formats.meetings``);
    a swap may not give it to someone who has sat out more than the one it
    comes from.
    """
    if event.format == Tournament.Format.KNOCKOUT:
        return (
            "in a knockout a bye goes through to the next round without playing and the format "
            "gives it by seed; swap entrants of two tables instead"
        )
    counts = dict.fromkeys((to_bye, from_bye), 0)
    earlier = Round.objects.filter(tournament=event, number__lt=round_row.number)
    for byes in earlier.values_list("byes", flat=True):
        for key in byes or ():
            if int(key) in counts:
                counts[int(key)] += 1
    if counts[to_bye] > counts[from_bye]:
        return (
            f"{names[to_bye]} has sat out {counts[to_bye]} round(s) and {names[from_bye]} "
            f"{counts[from_bye]}: the bye goes to whoever has sat out least, so give it to "
            "someone who has not sat out more"
        )
    return ""


def _rematch_refusal(
    event: Tournament,
    round_row: Round,
    tables: list[Table],
    places: dict[int, Place],
    names: dict[int, str],
    first: int,
    second: int,
) -> str:
    """A round robin promises that every pair meets once: a swap may not make a pair meet again."""
    met: set[frozenset[int]] = set()
    for result in history_of(event).results:
        met.update(frozenset(pair) for pair in combinations(result.seats, 2))
    seats = {table.number: [int(key) for key in table.seats] for table in tables}
    for moving, other in ((first, second), (second, first)):
        table = places[other].table
        for key in seats[table]:
            if key != other and frozenset((moving, key)) in met:
                return (
                    f"{names[moving]} has already met {names[key]} (at table {table} now): in a "
                    "round robin every pair meets once, so this swap is refused; choose "
                    "another pair, or re-pair the round"
                )
    return ""


def _exchange(
    round_row: Round, tables: list[Table], a: Place, b: Place, first: int, second: int
) -> None:
    """Write the swap: each entrant takes the other's seat (or bye)."""
    by_number = {table.number: table for table in tables}
    for place, leaving, arriving in ((a, first, second), (b, second, first)):
        if place.is_bye:
            round_row.byes = [arriving if int(k) == leaving else k for k in round_row.byes]
            round_row.save(update_fields=["byes"])
        else:
            table = by_number[place.table]
            table.seats = [arriving if int(k) == leaving else k for k in table.seats]
            table.save(update_fields=["seats"])


# ------------------------------------------------------------- re-pairing
def repair(tournament: Tournament, number: int, *, by: Any = None) -> Round | None:
    """Pair proposed round ``number`` again from the entrants active now; still proposed.

    None if the format now says the event is over (it is then finished).
    """
    with transaction.atomic():
        event = lock_tournament(tournament)
        require_organiser(event, by, "re-pair its rounds")
        round_row = proposed_round(event, number, "re-paired")
        repairs = round_row.repairs + 1
        absent = list(round_row.absent)
        round_row.delete()  # its tables go with it; it has no game
        try:
            return pair_round(event, number, absent, repairs=repairs)
        except PairingError as exc:
            raise EventError(f"round {number} cannot be re-paired: {exc}") from None


# -------------------------------------------------------------- releasing
def release(tournament: Tournament, number: int, *, by: Any = None) -> Round:
    """Create the games of proposed round ``number``: the round runs."""
    with transaction.atomic():
        event = lock_tournament(tournament)
        require_organiser(event, by, "release its rounds")
        round_row = proposed_round(event, number, "released")
        tables = list(Table.objects.filter(round=round_row).order_by("number"))
        seated = {int(key) for table in tables for key in table.seats}
        rows = Entrant.objects.filter(tournament=event, pk__in=seated).select_related("competitor")
        entrants = {row.pk: row for row in rows}
        _check_seated(event, tables, entrants)
        competitors = {pk: row.competitor for pk, row in entrants.items()}
        for table in tables:
            try:
                create_table_games(event, table, competitors)
            except PairingError as exc:
                raise EventError(f"round {number} cannot be released: {exc}") from None
        round_row.status = Round.Status.RUNNING
        round_row.started_at = timezone.now()
        round_row.save(update_fields=["status", "started_at"])
        if not tables:
            end_empty_round(event, round_row)
    return round_row


def _check_seated(event: Tournament, tables: list[Table], entrants: dict[int, Entrant]) -> None:
    """Everyone seated is still active and can play, or the sentence naming who is not."""
    problems = []
    for table in tables:
        for key in table.seats:
            row = entrants.get(int(key))
            if row is None or row.status != Entrant.Status.ACTIVE:
                name = row.competitor.name if row else f"entrant {key}"
                status = row.get_status_display() if row else "gone"
                problems.append(f"{name} at table {table.number} is {status}")
            elif why := why_cannot_play(event, row.competitor):
                problems.append(f"table {table.number}: {why}")
    if problems:
        raise EventError(
            f"round cannot be released: {'; '.join(problems)}. Re-pair the round, or swap "
            "them out, first"
        )

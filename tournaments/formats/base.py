"""The types every format speaks: entrants, settings, history in; a round out.

Entrants are known by ``key`` (the database adapter uses the Entrant row's
primary key); a table is the tuple of keys in seat order, seat 0 moving first.
All types are frozen so a format cannot change its caller's history.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol


class FormatError(ValueError):
    """An event a format cannot pair (too few entrants, impossible table sizes…).

    The message is shown to the organiser as it is: it says what to change.
    """


@dataclass(frozen=True)
class Entrant:
    """An active entrant as a format sees it.

    ``seed`` is the seed order (1 is the top seed, unique within an event);
    ``rating`` a conservative rating used where a format wants strength
    (arena); ``owner`` the owning user's id, for formats that keep one
    owner's bots apart.
    """

    key: int
    seed: int
    rating: float = 0.0
    owner: int | None = None


@dataclass(frozen=True)
class Settings:
    """How an event is played, as far as pairing cares.

    ``table_size`` is the number of seats a table has when the entrants divide
    evenly; ``min_table_size`` the smallest table allowed otherwise.
    ``rounds`` is the number of rounds where the format needs one (Swiss;
    None lets the format choose). ``bye_points`` are the placement points of a
    bye (None: the format's default). ``advance`` is knockout's "top m of
    each table go through". ``separate_owners`` keeps two entrants of one
    owner apart wherever the format can (Swiss, knockout; a round robin meets
    everyone by design). ``tie_breaks`` names the tie-breaks after points, in
    order (:mod:`.tiebreaks`; empty: its default order).
    """

    table_size: int
    min_table_size: int
    rounds: int | None = None
    bye_points: float | None = None
    advance: int = 1
    separate_owners: bool = True
    tie_breaks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Result:
    """A finished table: who sat where, and how they placed.

    ``ranks`` are 1 for the best, ties share a rank (forfeits already ranked
    last by the referee); ``scores`` the game scores in seat order. A
    duplicate set is reported as one Result whose ranks and scores aggregate
    the set (``formats.duplicate``).
    """

    round: int
    seats: tuple[int, ...]
    ranks: tuple[int, ...]
    scores: tuple[float, ...]


@dataclass(frozen=True)
class Bye:
    """An entrant left without a table in a round."""

    round: int
    key: int


@dataclass(frozen=True)
class History:
    """Everything played so far: finished tables and byes, in any order."""

    results: tuple[Result, ...] = ()
    byes: tuple[Bye, ...] = ()


@dataclass(frozen=True)
class Table:
    """One table of a round: entrant keys in seat order (seat 0 moves first)."""

    seats: tuple[int, ...]


@dataclass(frozen=True)
class Round:
    """A round a format made: its tables in table order, and who sits out."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = field(default=())


class Format(Protocol):
    """What every format module provides (module-level functions)."""

    name: str

    def check(self, entrant_count: int, settings: Settings) -> None:
        """Raise FormatError when an event of this size cannot be played."""

    def total_rounds(self, entrant_count: int, settings: Settings) -> int | None:
        """Rounds the event will have, when known before it starts."""

    def next_round(
        self,
        entrants: Sequence[Entrant],
        history: History,
        settings: Settings,
        round_number: int,
        seed: str,
    ) -> Round | None:
        """The tables of ``round_number`` (1-based), or None when the event is over.

        ``entrants`` are the active ones only (withdrawn entrants are left
        out by the caller); ``seed`` makes every random choice repeatable.
        """

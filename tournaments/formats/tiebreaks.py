"""Tie-breaks: small metric functions the standings apply in the order an event chooses.

Points always come first; an event lists the tie-breaks after them
(``Settings.tie_breaks``; empty: :data:`DEFAULT`). Each metric is one
function from what was played (a :class:`Tally`) to a value per listed
entrant, higher is better — the way Tabbycat's standings annotators each add
one metric to a ranking. The documented list (docs/formats.md, "Tie-breaks"):

* ``tablemates_points`` — the sum of the final points of everyone the
  entrant sat with, once per meeting (Buchholz for tables);
* ``game_score`` — the entrant's total game score;
* ``head_to_head`` — among the entrants still tied on everything before it
  in the event's order: 1 for each time placed above one of them at a
  table, 1/2 for a shared place;
* ``wins`` — tables won (first place, shared or not);
* ``beaten_points`` — the final points of every tablemate the entrant
  placed above (Sonneborn-Berger for tables): beating strong entrants counts
  more.

Pure: no Django. Unknown or repeated names are refused (:func:`check`) with a
sentence that lists the valid ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from tournaments.formats.base import FormatError, Result


@dataclass(frozen=True)
class Tally:
    """What the metrics read: the listed keys, everyone's points, and the results."""

    keys: tuple[int, ...]
    points: dict[int, float]
    results: tuple[Result, ...]


Ties = dict[int, tuple[float, ...]]
"""Per listed key, its values so far (points, then the tie-breaks before this one)."""

Metric = Callable[[Tally, Ties], dict[int, float]]


def tablemates_points(tally: Tally, ties: Ties) -> dict[int, float]:
    """Sum of tablemates' final points, once per meeting."""
    value = dict.fromkeys(tally.keys, 0.0)
    for result in tally.results:
        at_table = sum(tally.points.get(key, 0.0) for key in result.seats)
        for key in result.seats:
            if key in value:
                value[key] += at_table - tally.points.get(key, 0.0)
    return value


def game_score(tally: Tally, ties: Ties) -> dict[int, float]:
    """Total game score over the tables played."""
    value = dict.fromkeys(tally.keys, 0.0)
    for result in tally.results:
        for key, score in zip(result.seats, result.scores, strict=True):
            if key in value:
                value[key] += score
    return value


def head_to_head(tally: Tally, ties: Ties) -> dict[int, float]:
    """Score against the entrants sharing all values so far: 1 placed above, 1/2 level."""
    value = dict.fromkeys(tally.keys, 0.0)
    for result in tally.results:
        seated = zip(result.seats, result.ranks, strict=True)
        for (a, rank_a), (b, rank_b) in combinations(seated, 2):
            if a not in ties or b not in ties or ties[a] != ties[b]:
                continue
            if rank_a < rank_b:
                value[a] += 1.0
            elif rank_b < rank_a:
                value[b] += 1.0
            else:
                value[a] += 0.5
                value[b] += 0.5
    return value


def wins(tally: Tally, ties: Ties) -> dict[int, float]:
    """Tables won (placed first, alone or shared)."""
    value = dict.fromkeys(tally.keys, 0.0)
    for result in tally.results:
        best = min(result.ranks)
        for key, rank in zip(result.seats, result.ranks, strict=True):
            if key in value and rank == best:
                value[key] += 1.0
    return value


def beaten_points(tally: Tally, ties: Ties) -> dict[int, float]:
    """Final points of every tablemate placed below the entrant (half for a shared place)."""
    value = dict.fromkeys(tally.keys, 0.0)
    for result in tally.results:
        seated = zip(result.seats, result.ranks, strict=True)
        for (a, rank_a), (b, rank_b) in combinations(seated, 2):
            share_a = 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0
            if a in value:
                value[a] += share_a * tally.points.get(b, 0.0)
            if b in value:
                value[b] += (1.0 - share_a) * tally.points.get(a, 0.0)
    return value


TIE_BREAKS: dict[str, Metric] = {
    "tablemates_points": tablemates_points,
    "game_score": game_score,
    "head_to_head": head_to_head,
    "wins": wins,
    "beaten_points": beaten_points,
}
"""Every tie-break an event may choose, by the name the admin and the API use."""

DEFAULT: tuple[str, ...] = ("tablemates_points", "game_score", "head_to_head")
"""The order when an event chooses none (the order standings always had)."""

LABELS: dict[str, str] = {
    "tablemates_points": "tablemates' points",
    "game_score": "game score",
    "head_to_head": "head-to-head",
    "wins": "tables won",
    "beaten_points": "points of those beaten",
}
"""How pages name each tie-break."""

HEADINGS: dict[str, tuple[str, str]] = {
    "tablemates_points": ("Tablemates", "Mates"),
    "game_score": ("Game score", "Score"),
    "head_to_head": ("H2H", "H2H"),
    "wins": ("Wins", "Wins"),
    "beaten_points": ("Beaten", "Beat"),
}
"""A standings column's heading for each tie-break: (wide screens, narrow ones)."""


def check(names: Sequence[str]) -> tuple[str, ...]:
    """The chosen order as a tuple (empty: :data:`DEFAULT`); FormatError for a bad list."""
    names = tuple(names)
    unknown = [name for name in names if name not in TIE_BREAKS]
    if unknown:
        raise FormatError(
            f"unknown tie-break {', '.join(map(repr, unknown))}: choose from "
            f"{', '.join(TIE_BREAKS)}"
        )
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise FormatError(f"the tie-break {', '.join(repeated)} is listed twice: list it once")
    return names or DEFAULT

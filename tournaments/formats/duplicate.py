"""Duplicate play: a table's deal is played once per seat rotation, and the set scored as one.

Not a pairing format: any format's table can be played in duplicate. A
table of k entrants becomes a *set* of k games on the same deal (the same
game seed, so the same dice, cards and bags wherever play reaches the same
chance event), one per rotation of the seats, so every entrant plays every
seat once with the same luck as everybody else. Luck and seat advantage
then cancel out of the comparison between tablemates, which is what makes
a set a fairer (lower-variance) measure than one game.

* :func:`rotations` gives the k seat orders: rotation j moves everyone j
  seats towards the start (cyclically), so the order around the table, who
  plays after whom, is the same in every game of the set.
* :func:`deal_key` names the deal of a set. The database side derives each
  game's seed from the event seed and this key, so every game of a set
  shares a seed and different tables and rounds do not.
* :func:`aggregate` turns the k games into the table's one :class:`Result`:
  each entrant's **ranks are summed over the set** (lower is better); equal
  sums are split by the **total game score** over the set (higher is
  better), and entrants equal in both share the rank. The Result's scores
  are those totals, its seats the set's first order (rotation 0). Summing
  ranks weighs every game of the set the same whatever its score scale.

Seat balance is automatic within a set (every seat once each), so the
seat counts the other formats balance are unaffected by duplicate play.
A caveat for the organiser: an entrant sees the same deal several times,
so the games of a set should start together; a bot that remembers the
chance outcomes of one game of its set could use them in another.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.formats.base import FormatError, Result


def rotations(seats: Sequence[int]) -> list[tuple[int, ...]]:
    """The k seat orders of a set: rotation j seats ``seats[(i + j) % k]`` at seat i."""
    k = len(seats)
    if k == 0 or len(set(seats)) != k:
        raise FormatError("a duplicate set needs a table of distinct entrants")
    return [tuple(seats[(i + j) % k] for i in range(k)) for j in range(k)]


def deal_key(round_number: int, table_number: int, rotation: int = 0) -> str:
    """The deal a set's game plays: the same for every ``rotation`` of one table and round.

    ``table_number`` is the table's number within its round (1-based, as the
    Round lists them). The key contains nothing secret; the game seed is the
    event seed's derivation from it, made on the database side.
    """
    if round_number < 1 or table_number < 1 or rotation < 0:
        raise FormatError("rounds and tables are numbered from 1, rotations from 0")
    return f"round-{round_number}/table-{table_number}"


def aggregate(round_number: int, seats: Sequence[int], games: Sequence[Result]) -> Result:
    """One Result for a finished set: summed ranks, ties split by total score (module docstring).

    ``games`` are the set's games as played (each: its seat order, ranks and
    scores in that order). Every entrant of ``seats`` must have played every
    seat exactly once, or FormatError says what is missing.
    """
    seats = tuple(seats)
    k = len(seats)
    if len(games) != k:
        raise FormatError(f"a duplicate set of {k} entrants has {k} games, not {len(games)}")
    rank_sum = dict.fromkeys(seats, 0)
    score_sum = dict.fromkeys(seats, 0.0)
    sat: dict[int, set[int]] = {key: set() for key in seats}
    for game in games:
        if sorted(game.seats) != sorted(seats):
            raise FormatError(f"game seats {game.seats} are not the set's entrants {seats}")
        if len(game.ranks) != k or len(game.scores) != k:
            raise FormatError("every game of a set needs a rank and a score for every seat")
        for position, (key, rank, score) in enumerate(
            zip(game.seats, game.ranks, game.scores, strict=True)
        ):
            rank_sum[key] += rank
            score_sum[key] += score
            sat[key].add(position)
    missing = [key for key in seats if len(sat[key]) != k]
    if missing:
        raise FormatError(f"entrants {missing} did not play every seat of the set once")
    standing = {key: (rank_sum[key], -score_sum[key]) for key in seats}
    ranks = tuple(1 + sum(1 for other in seats if standing[other] < standing[key]) for key in seats)
    return Result(
        round=round_number,
        seats=seats,
        ranks=ranks,
        scores=tuple(score_sum[key] for key in seats),
    )

"""From a game's outcome to the ranks that ratings use (pure)."""

from __future__ import annotations

from collections.abc import Sequence


def final_ranks(ranks: Sequence[int], forfeited: Sequence[bool]) -> list[int]:
    """Ranks with every forfeited seat last, forfeits tied among themselves.

    Non-forfeited seats keep their order and ties, renumbered as competition
    ranks among themselves (``[1, 2, 2, 4]``); idempotent, so applying it to
    ranks that already have forfeits last changes nothing.

    >>> final_ranks([1, 2, 3, 4], [True, False, False, False])
    [4, 1, 2, 3]
    >>> final_ranks([2, 1, 3, 4], [False, True, True, False])
    [1, 3, 3, 2]
    """
    if len(ranks) != len(forfeited):
        raise ValueError(f"{len(ranks)} ranks but {len(forfeited)} forfeit flags")
    playing = [r for r, gone in zip(ranks, forfeited, strict=True) if not gone]
    last = len(playing) + 1
    return [
        last if gone else 1 + sum(1 for other in playing if other < r)
        for r, gone in zip(ranks, forfeited, strict=True)
    ]


def rated_seats(
    ranks: Sequence[int], forfeited: Sequence[bool], withdrawn: Sequence[bool]
) -> tuple[list[int], list[int]]:
    """The seat positions a rating counts, and their ranks among themselves.

    A *withdrawn* seat (its entrant left the event during the game, so the
    seat forfeited: ``Seat.withdrawn``) changes no rating: the entrant chose
    to stop, it did not lose to the table, and the others did not beat it.
    The other seats are rated among themselves, ranks renumbered
    (:func:`final_ranks` on what is left). Live application and recompute
    both call this, so they agree.

    >>> rated_seats([1, 2, 3, 4], [False, True, False, False], [False, True, False, False])
    ([0, 2, 3], [1, 2, 3])
    """
    if not len(ranks) == len(forfeited) == len(withdrawn):
        raise ValueError(f"{len(ranks)} ranks, {len(forfeited)} forfeits, {len(withdrawn)} flags")
    positions = [i for i, gone in enumerate(withdrawn) if not gone]
    kept = final_ranks([ranks[i] for i in positions], [forfeited[i] for i in positions])
    return positions, kept

"""From a game's outcome to the ranks that ratings use (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from games.selectors.ranks import final_ranks


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

"""The final ranks of a game: its outcome's ranks with forfeited seats moved last.

A rule of the games themselves (the recorded outcome, verification and the
export all apply it), so it lives here; ratings use it to rate the seats.
Pure Python: no Django.
"""

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

"""Which bids are still possible: the arithmetic behind die-by-die bidding.

A bid is built one die at a time (see ``docs/engines/grog_island.md``), so every
partial choice must still lead to a legal complete bid. Sets of reachable bid
sums are kept as bit masks (bit ``s`` set = sum ``s`` reachable): five dice of
at most six pips make the masks tiny and the checks cheap.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from .data import DIE_FACES

_ANY_FACE_SHIFTS = tuple(range(1, DIE_FACES + 1))


def window(lo: int, hi: int) -> int:
    """Mask of the sums ``lo..hi`` (empty when ``hi < lo``)."""
    if hi < lo:
        return 0
    return ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)


def subset_sums(values: Iterable[int]) -> int:
    """Mask of every sum of a subset of ``values`` (the empty subset gives bit 0)."""
    mask = 1
    for value in values:
        mask |= mask << value
    return mask


@lru_cache(maxsize=1 << 12)
def following_sums(faces: tuple[int, ...]) -> dict[int, int]:
    """Face ``v`` -> the mask of sums the dice that may follow a die showing ``v`` can add.

    Values on the track must not increase, so after a die of value ``v`` come
    only the other dice of at most ``v``: the subset sums of ``faces`` (the free
    dice, sorted) without one die of ``v`` and without those above ``v``. Sums
    do not depend on which die shows which face, so the sorted faces are the
    key: a few hundred in play (at most five dice of six faces), remembered.
    """
    return {
        value: subset_sums(
            [v for j, v in enumerate(faces) if v <= value and j != faces.index(value)]
        )
        for value in faces
    }


def any_face(mask: int) -> int:
    """``mask`` plus one more die that may show any face or stay off the bid (adds 0..6).

    Minkowski sums commute, so a die whose face a parrot card may still set
    can be added after all the fixed ones: see ``LegalMixin._parrot_options``.
    """
    if DIE_FACES == 6:  # any of 0..6 added, by doubling: {0,1}, {0..3}, {0..6}
        mask |= mask << 1
        mask |= mask << 2
        return mask | mask << 3
    grown = mask
    for shift in _ANY_FACE_SHIFTS:
        grown |= mask << shift
    return grown


def bid_window(current: int, capital: int, holding: bool) -> int:
    """Sums a new bid may have.

    Opening (``current == 0``): 1..capital. Raising: current+1..capital. With a
    played "hold" parrot: exactly ``current`` (if affordable).
    """
    if holding:
        return window(current, min(current, capital))
    return window(current + 1, capital)


def can_bid_fixed(dice: list[int], target: int) -> bool:
    """Is any legal arrangement of the dice as they lie possible?"""
    return bool(subset_sums(dice) & target & ~1)

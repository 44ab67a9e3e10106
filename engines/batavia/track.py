"""The trading-post track: revealing posts and finding a merchant's next post.

Face-down posts are not fixed until revealed. A reveal is a chance event
whose outcomes are exactly the posts the physical setup could have put there:
each block of five holds every company once, and each company's seven posts
are one of each good (a company's pile is shuffled, then its top post goes to
each block in turn). So a reveal of a space in block ``b`` after ``k`` spaces
of that block were revealed picks a company not yet in the block (1 in 5-k)
and one of that company's goods not yet on the track (1 in 7-b) -- the same
distribution as shuffling the piles at setup, with nothing hidden to store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import (
    BLOCK,
    COMPANIES,
    COMPANY_INDEX,
    GOOD_INDEX,
    GOODS,
    NUM_COMPANIES,
    NUM_GOODS,
    TRACK_LENGTH,
)

if TYPE_CHECKING:
    from engines.base import Action

    from .state import BataviaState


def reveal_outcomes(st: BataviaState) -> list[tuple[Action, float]]:
    """Posts that may lie face down on the next space, all equally likely per company."""
    space = st.revealed
    block_start = space - space % BLOCK
    block = space // BLOCK
    track = st.track
    in_block = {track[i] // NUM_GOODS for i in range(block_start, space)}
    laid = set(track[:block_start])  # codes of the posts of the blocks before this one
    p = 1.0 / ((NUM_COMPANIES - len(in_block)) * (NUM_GOODS - block))
    return [
        (action, p)
        for c in range(NUM_COMPANIES)
        if c not in in_block
        for code, action in _POSTS[c]
        if code not in laid
    ]


_POSTS: tuple[tuple[tuple[int, Action], ...], ...] = tuple(
    tuple(
        (c * NUM_GOODS + g, {"type": "post", "company": COMPANIES[c], "good": GOODS[g]})
        for g in range(NUM_GOODS)
    )
    for c in range(NUM_COMPANIES)
)
"""Per company, (track code, post action) of each good: actions built once, read-only."""


def start_reveal(st: BataviaState, then: str) -> None:
    """Turn the next block of five face up (one chance event per space), then ``then``."""
    st.reveal_to = min(st.revealed + BLOCK, TRACK_LENGTH)
    st.after_reveal = then
    st.phase = "reveal"


def apply_reveal(st: BataviaState, company: str, good: str) -> str:
    """Lay the revealed post; once the block is face up, say what the reveal was for.

    Returns ``""`` while spaces of the block are still face down, else the
    reason given to ``start_reveal`` (``"setup"``, ``"move"`` or ``"taken"``),
    which the caller carries out: this module sits below the turn it serves.
    """
    space = st.revealed
    st.track[space] = COMPANY_INDEX[company] * NUM_GOODS + GOOD_INDEX[good]
    st.revealed = space + 1
    st.events.append({"type": "post_revealed", "space": space, "company": company, "good": good})
    if st.revealed < st.reveal_to:
        return ""
    then = st.after_reveal
    st.after_reveal = ""
    return then


def next_post(st: BataviaState, seat: int, company: int) -> int:
    """The next face-up, untaken space of ``company`` ahead of ``seat``'s merchant, or -1."""
    track = st.track
    taken = st.taken_by
    for space in range(st.merchants[seat] + 1, st.revealed):
        if taken[space] < 0 and track[space] // NUM_GOODS == company:
            return space
    return -1


def post_ahead(st: BataviaState, seat: int, company: int) -> bool:
    """Whether any post of ``company`` (face up or face down) lies ahead of the merchant.

    Every face-down block holds each company once, so any face-down space
    left means every company still has a post ahead.
    """
    return st.revealed < TRACK_LENGTH or next_post(st, seat, company) >= 0

"""The game page's text list of plies, a window of :data:`SIZE` plies at a time.

A long game (a 1,581-ply Grog Island game) made the page render every ply's
sentence and its events on every cold request -- two thirds of its time -- and
send 380 KB nobody reads at once. The list shows one window (``?plies=<first
ply>``, a multiple of :data:`SIZE`; the first window otherwise) with links to
the others; the board replay above it still steps through every position (its
positions come from ``boards.json`` in pages, not from this list). A game of at
most :data:`SIZE` plies -- every game of the usual engines -- is one window, and
its page is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

SIZE = 500


@dataclass(frozen=True)
class Window:
    start: int
    stop: int
    total: int

    @property
    def windows(self) -> list[tuple[int, int, bool]]:
        """Every window as ``(first ply, last ply, is this one)``; empty when there is one."""
        if self.total <= SIZE:
            return []
        return [
            (first, min(first + SIZE, self.total) - 1, first == self.start)
            for first in range(0, self.total, SIZE)
        ]


def requested(total: int, asked: str | None) -> Window:
    """The window ``?plies=`` asks for; the first for anything else (garbled, past the end)."""
    start = int(asked) if asked and asked.isdigit() and len(asked) < 10 else 0
    if start % SIZE or start >= total:
        start = 0
    return Window(start, min(start + SIZE, total), total)

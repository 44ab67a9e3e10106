"""CSV written for spreadsheets: text that would run as a formula is kept as text, and rows stream.

One copy for every export (a tournament's ``standings.csv``, a competitor's
games, a leaderboard): a name like ``=HYPERLINK(...)`` is written ``'=HYPERLINK(...)``
so a spreadsheet shows it rather than runs it (the OWASP "CSV injection" advice).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(text: str) -> str:
    """Text a spreadsheet would run as a formula (=, +, -, @...) gets a leading ``'``."""
    return "'" + text if text[:1] in FORMULA_STARTS else text


class Echo:
    """A file-like object whose ``write`` returns the line, for a streamed CSV."""

    def write(self, value: str) -> str:
        return value


def lines(header: Sequence[str], rows: Iterable[Sequence[object]]) -> Iterator[str]:
    """The CSV, header first, one line at a time (for a ``StreamingHttpResponse``)."""
    writer = csv.writer(Echo())
    yield writer.writerow(header)
    for row in rows:
        yield writer.writerow(row)


def batched(lines: Iterable[str], count: int = 100) -> Iterator[str]:
    """``lines`` joined ``count`` at a time, the same text in fewer pieces.

    A ``StreamingHttpResponse`` encodes and hands on every piece it is given
    (several calls each): one piece per line was a tenth of a 1,000-row
    leaderboard CSV's render (cProfile). The rows are still read a chunk at a
    time, so memory stays flat.
    """
    pending: list[str] = []
    for line in lines:
        pending.append(line)
        if len(pending) >= count:
            yield "".join(pending)
            pending.clear()
    if pending:
        yield "".join(pending)

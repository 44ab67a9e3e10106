"""``common.csv_text.batched``: the same text in fewer pieces."""

from __future__ import annotations

import pytest

from common.csv_text import batched


@pytest.mark.parametrize("count", [0, 1, 99, 100, 101, 250])
def test_batched_keeps_the_text_and_joins_count_lines_a_piece(count: int) -> None:
    lines = [f"{n},x\r\n" for n in range(count)]
    pieces = list(batched(iter(lines), 100))
    assert "".join(pieces) == "".join(lines)
    assert len(pieces) == -(-count // 100)
    assert all(piece.count("\r\n") == 100 for piece in pieces[:-1])

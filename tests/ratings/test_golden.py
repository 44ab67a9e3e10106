"""The ledger's numbers are frozen: same log, same bits as recorded before the bulk work."""

from __future__ import annotations

import json

import pytest

from tests.ratings.golden import GOLDEN, SYSTEM_NAMES, replay


@pytest.mark.parametrize("name", SYSTEM_NAMES)
def test_ledger_reproduces_the_recorded_ratings_bit_for_bit(name: str) -> None:
    recorded = json.loads(GOLDEN.read_text())[name]
    assert replay(name) == recorded

"""docs/engines/manila.md stands alone and states the numbers the engine plays with.

Bot authors implement the rules from that page alone, so its tables must
agree with ``engines/manila/data.py`` and it must not send readers to files
outside the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

from engines.manila import data
from tests.engines.test_manila_helpers import ENGINE

DOC = (Path(__file__).resolve().parents[2] / "docs" / "engines" / "manila.md").read_text(
    encoding="utf-8"
)


def _row(first_cell: str) -> list[str]:
    """The cells of the table row whose first cell is ``first_cell``."""
    for line in DOC.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first_cell:
            return cells
    raise AssertionError(f"no table row for {first_cell!r}")


def _numbers(cell: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", cell)]


def test_the_goods_table_matches_the_seat_costs_and_payouts() -> None:
    for g, good in enumerate(data.GOODS):
        cells = _row(good)
        assert tuple(_numbers(cells[1])) == data.SEAT_COSTS[g], good
        assert _numbers(cells[2]) == [data.BOAT_PAYOUT[g]], good


def test_the_spaces_table_matches_costs_and_payouts() -> None:
    harbor = _row("harbor dock A / B / C")
    assert _numbers(harbor[2]) == list(data.SPACE_COST[0:3])
    assert _numbers(harbor[3]) == list(data.DOCK_PAYOUT)
    yard = _row("shipyard berth A / B / C")
    assert _numbers(yard[2]) == list(data.SPACE_COST[3:6])
    assert _numbers(yard[3]) == list(data.DOCK_PAYOUT)
    assert _numbers(_row("small pilot")[2]) == [data.SPACE_COST[data.PILOT_SMALL]]
    assert _numbers(_row("large pilot")[2]) == [data.SPACE_COST[data.PILOT_LARGE]]
    insurance = _row("insurance office")
    assert _numbers(insurance[2]) == [data.SPACE_COST[data.INSURANCE]]
    assert _numbers(insurance[3]) == [data.INSURANCE_BONUS]
    assert _numbers(_row("pirate ship: captain, then second pirate")[2]) == [data.PIRATE_COST]


def test_the_price_track_money_and_version_are_stated() -> None:
    assert " → ".join(map(str, data.PRICE_TRACK)) in DOC
    assert f'`version = "{ENGINE.version}"`' in DOC
    for sentence in (
        f"each player starts with **{data.START_CASH}**",
        f"Mortgaging a share brings **{data.MORTGAGE_VALUE}**",
        f"redeeming it costs **{data.REDEEM_COST}**",
        f"never less than **{data.MIN_SHARE_COST}**",
        f"adding up to exactly **{data.START_SUM}**",
    ):
        assert sentence in DOC


def test_the_page_points_to_no_file_outside_the_repository() -> None:
    assert "shared/" not in DOC and "../" not in DOC

"""Manila's printed numbers: goods, boat seats, spaces, price track, money rules.

Everything here is a printed number of the game (``docs/engines/manila.md``,
"Pieces and numbers"); the rest of the engine refers to goods and spaces by index for
speed and converts to names only at the JSON boundary.
"""

from __future__ import annotations

from itertools import pairwise

GOODS: tuple[str, ...] = ("ginseng", "nutmeg", "silk", "jade")
GOOD_INDEX: dict[str, int] = {name: i for i, name in enumerate(GOODS)}
SEAT_COSTS: tuple[tuple[int, ...], ...] = ((1, 2, 3), (2, 3, 4), (3, 4, 5), (3, 4, 5, 5))
"""Per good, the cost of each boat seat in the order seats must be filled."""
BOAT_PAYOUT: tuple[int, ...] = (18, 24, 30, 36)

PRICE_TRACK: tuple[int, ...] = (0, 5, 10, 20, 30)
NEXT_PRICE: dict[int, int] = dict(pairwise(PRICE_TRACK))
END_PRICE = 30
MIN_SHARE_COST = 5

# Single-occupant spaces, by index into ``ManilaState.spaces``.
HARBOR = (0, 1, 2)  # docks A, B, C
SHIPYARD = (3, 4, 5)  # yards A, B, C
PILOT_SMALL = 6
PILOT_LARGE = 7
INSURANCE = 8
SPACE_NAMES: tuple[str, ...] = (
    "harbor_A",
    "harbor_B",
    "harbor_C",
    "shipyard_A",
    "shipyard_B",
    "shipyard_C",
    "pilot_small",
    "pilot_large",
    "insurance",
)
SPACE_INDEX: dict[str, int] = {name: i for i, name in enumerate(SPACE_NAMES)}
SPACE_COST: tuple[int, ...] = (4, 3, 2, 4, 3, 2, 2, 5, 0)
DOCK_PAYOUT: tuple[int, ...] = (6, 8, 15)
"""Payout of dock/yard A, B, C (the same for the harbor and the shipyard)."""
LETTERS = ("A", "B", "C")

PIRATE = "pirate"
PIRATE_COST = 5
PIRATE_SEATS = 2
INSURANCE_BONUS = 10

ROUTE_END = 13
"""Last space of a route; a boat moving past it has reached Manila."""
IN_MANILA = 14
"""Position recorded for a boat that moved past 13."""
START_SUM = 9
MAX_START = 5
MOVEMENTS = 3

MORTGAGE_VALUE = 12
REDEEM_COST = 15
START_CASH = 30
SHARES_PER_GOOD = 5
DEALT_PER_GOOD = 3
DEALT_PER_PLAYER = 2


def accomplices_per_player(num_players: int) -> int:
    """4 accomplices with 3 players, 3 with 4 or 5."""
    return 4 if num_players == 3 else 3


def share_cost(price: int) -> int:
    """A share costs its good's price, but never less than 5."""
    return max(MIN_SHARE_COST, price)

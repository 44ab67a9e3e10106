"""Every number of Cargo Noir in one table, so a corrected value changes in one place.

Values the rules spec marks *(assumed)* were images in the original rulebook;
they are this project's choice and are listed again in
``docs/engines/cargo_noir.md``. Engine decisions that are numbers (the bid
window) live here too.
"""

from __future__ import annotations

from typing import NamedTuple

# ------------------------------------------------------------------ goods
GOODS: tuple[str, ...] = (
    "alcohol",
    "weapons",
    "art",
    "cars",
    "cigars",
    "ivory",
    "jewels",
    "gold",
    "uranium",
)
"""The nine real goods; index = internal good number."""

WILD = len(GOODS)
"""Internal number of the wild token (it follows the nine goods)."""

TOKENS: tuple[str, ...] = (*GOODS, "wild")
"""Every token kind by internal number: the nine goods, then "wild"."""

TOKEN_INDEX: dict[str, int] = {name: i for i, name in enumerate(TOKENS)}

TOKENS_PER_GOOD = 14
"""Tokens of each of the nine goods in the bag; wilds = number of players."""

# ------------------------------------------------------------------ board
BLACK_MARKET_SIZE = 8
"""Goods on display at Macao's black market."""


class Port(NamedTuple):
    name: str
    slots: int  # (assumed) goods the port holds when full
    min_players: int  # (assumed) the port is open with at least this many players


PORTS: tuple[Port, ...] = (
    Port("Rotterdam", 4, 2),
    Port("New York", 3, 2),
    Port("Bombay", 3, 2),
    Port("Rio", 3, 2),
    Port("Panama", 2, 2),
    Port("Hong Kong", 2, 3),
    Port("Cape Town", 1, 4),
    Port("Tangier", 2, 5),
)
"""All eight ports in board order; players + 3 of them are open (assumed)."""

CASINO = "casino"
BLACK_MARKET = "black_market"
"""Names of Macao's two places in actions and views."""

# ---------------------------------------------------------------- players
START_SHIPS = 3
START_COINS = 7
WAREHOUSE_BASE_SLOTS = 6  # (assumed)
WAREHOUSE_SLOTS_PER_CARD = 2
CASINO_COINS = 2
"""Coins a ship at the casino brings back."""
SYNDICATE_COINS = 2
"""Coins per abandoned port, paid by one Syndicate card (each card once per turn)."""


def rounds_for(num_players: int) -> int:
    """11 rounds with 2-3 players, 10 with 4-5."""
    return 11 if num_players <= 3 else 10


# ------------------------------------------------------------------ cards
class Card(NamedTuple):
    name: str
    copies: int
    cost: int  # smuggling value needed
    vp: int  # victory points at game end
    per_player: int  # most copies one player may hold (0 = no limit)


CARDS: tuple[Card, ...] = (
    Card("Cargo Ship", 8, 15, 5, 2),  # vp assumed
    Card("Warehouse", 8, 10, 3, 2),  # vp assumed
    Card("Syndicate", 8, 10, 3, 2),  # vp assumed
    Card("Dive Bar", 6, 6, 6, 0),  # cost assumed, vp = cost
    Card("Night Club", 6, 10, 10, 0),  # cost assumed, vp = cost
    Card("Yacht", 6, 15, 15, 0),  # cost assumed, vp = cost
    Card("Villa", 6, 21, 21, 0),  # cost assumed, vp = cost
    Card("Paparazzi", 1, 25, 30, 0),  # assumed
    Card("Militia", 1, 28, 35, 0),  # assumed
    Card("Show Business", 1, 36, 45, 0),  # assumed
    Card("Cronies", 1, 49, 60, 0),  # cost from the seed, vp assumed
    Card("Bank", 1, 64, 80, 0),  # assumed
    Card("Principality", 1, 81, 100, 0),  # assumed
)
"""Victory cards; index = internal card number."""

CARD_INDEX: dict[str, int] = {card.name: i for i, card in enumerate(CARDS)}
CARGO_SHIP = CARD_INDEX["Cargo Ship"]
WAREHOUSE = CARD_INDEX["Warehouse"]
SYNDICATE = CARD_INDEX["Syndicate"]

# -------------------------------------------------------------- smuggling
MAX_COMBINATION = 9
DIFFERENT_VALUES: tuple[int, ...] = (1, 3, 6, 10, 15, 21, 28, 36, 45)
"""Value of 1..9 goods of all different types."""
SAME_VALUES: tuple[int, ...] = (1, 4, 9, 16, 25, 36, 49, 64, 81)
"""Value of 1..9 goods of the same type."""

# ------------------------------------------------------- engine decisions
BID_WINDOW = 100
"""A bid or raise is offered as one action per amount, from the minimum up to
the coins in the safe but at most this many amounts (so at most 99 coins above
the minimum): keeps every legal-action list under 150 entries."""

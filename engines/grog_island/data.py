"""Every number of Grog Island in one table: components, layout, ships, clouds, cards.

The seed rulebook showed the board, the ships and some cards only as images,
so several values here are this project's assumption (marked *assumed*, and
listed in ``docs/engines/grog_island.md``). Nothing else in the engine hard-codes
a game number: change a value here and the rules follow.
"""

from __future__ import annotations

# ---------------------------------------------------------------- peninsulas
COLOURS: tuple[str, ...] = ("yellow", "green", "blue", "orange", "grey")
"""Peninsulas left to right (order *assumed*); also die and good colours."""
COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}
GOOD_NAMES: dict[str, str] = {
    "yellow": "lemons",
    "green": "coconuts",
    "blue": "fish",
    "orange": "grog",
    "grey": "treasure maps",
}
"""Goods are named by colour in actions and views; these words (*assumed*) are for people."""

# ----------------------------------------------------------------- buildings
BUILDING_TYPES: dict[str, tuple[int, tuple[str, ...]]] = {
    # type: (objective VP per own building, peninsulas holding one)  -- layout *assumed*
    "sword": (2, ("yellow", "green", "blue", "orange", "grey")),
    "peg_leg": (2, ("yellow", "green", "blue", "orange", "grey")),
    "anchor": (3, ("yellow", "green", "blue", "orange")),
    "hat": (3, ("yellow", "green", "blue", "grey")),
    "hook": (3, ("yellow", "blue", "orange", "grey")),
    "figurehead": (4, ("yellow", "green", "orange")),
    "cannonball": (4, ("green", "blue", "grey")),
    "voodoo": (4, ("blue", "orange", "grey")),
    "pub": (6, ("yellow",)),
    "lucky_charm": (6, ("green",)),
    "map_maker": (6, ("orange",)),
    "rum": (6, ("grey",)),
}
BUILDING_LABELS: dict[str, str] = {
    "sword": "sword shop",
    "peg_leg": "peg-leg shop",
    "anchor": "anchor shop",
    "hat": "hat shop",
    "hook": "hook shop",
    "figurehead": "figurehead carver",
    "cannonball": "cannonball foundry",
    "voodoo": "voodoo doll shop",
    "pub": 'the pub "Grog Hole"',
    "lucky_charm": "lucky-charm shop",
    "map_maker": "map maker",
    "rum": "rum distillery",
}
BUILDINGS: tuple[tuple[int, str], ...] = tuple(
    (COLOUR_INDEX[colour], kind)
    for colour in COLOURS
    for kind, (_, where) in BUILDING_TYPES.items()
    if colour in where
)
"""(peninsula index, type) of the 35 buildings; a building's id is ``"<colour>/<type>"``."""
BUILDING_IDS: tuple[str, ...] = tuple(f"{COLOURS[p]}/{kind}" for p, kind in BUILDINGS)
BUILDING_INDEX = {name: i for i, name in enumerate(BUILDING_IDS)}
BUILDINGS_ON: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, (p, _) in enumerate(BUILDINGS) if p == peninsula) for peninsula in range(5)
)
SAME_TYPE: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j, (_, other) in enumerate(BUILDINGS) if other == kind and j != i)
    for i, (_, kind) in enumerate(BUILDINGS)
)
"""For each building, the other buildings of its type (for the coin bonus)."""

FREE, LOCKED, GHOST = -1, -2, -3
"""Occupant codes of a building besides a seat number (ghost: two-player neutral crew)."""

# --------------------------------------------------------------------- ships
SHIPS: tuple[tuple[str, str, int], ...] = (
    # (name, what one good buys, most goods the exchange takes; 0 = no limit)
    ("two_coins", "coins:2", 4),
    ("three_coins", "coins:3", 2),
    ("four_coins", "coins:4", 1),
    ("treasure", "card:treasure", 2),
    ("parrot", "card:parrot", 2),
    ("objectives", "card:objective", 0),
)
SHIP_INDEX = {name: i for i, (name, _, _) in enumerate(SHIPS)}
SHIP_SPACES = 6
OPEN_SEA = 5
"""Spaces 0-4 lie under the peninsulas in COLOURS order; space 5 is open sea."""
GHOST_SHIP = SHIP_INDEX["three_coins"]
"""With two players this ship lies ghost side up: no trade, a ghost crew aboard."""
GHOST_CREW = 9
BUILDING_COST = 4
"""Goods (of the ship's colour) per building bought at a ship."""
SUBSTITUTE = 3
"""Any good may always be replaced by this many goods of any colours."""

# -------------------------------------------------------------------- clouds
CLOUDS: tuple[str, ...] = ("objective_swap", "vp", "parrot", "nothing", "black")
"""One cloud over each peninsula, shuffled. "black": no coin bonus there."""

# --------------------------------------------------------------------- cards
TREASURE_DECK: tuple[int, ...] = (1,) * 10 + (2,) * 12 + (3,) * 10
TREASURE_MAX = 3
"""Potential capital counts every treasure card at this value."""
PARROT_HOLD = "hold"
PARROT_DECK: tuple[str, ...] = (PARROT_HOLD,) * 8 + tuple(
    f"set_{colour}" for colour in COLOURS for _ in range(4)
)
OBJECTIVE_KINDS: tuple[str, ...] = (
    *(f"building/{kind}" for kind in BUILDING_TYPES),
    "parrots",
    *(f"goods/{colour}" for colour in COLOURS),
    *(f"peninsula/{colour}" for colour in COLOURS),
)
OBJECTIVE_DECK: tuple[str, ...] = tuple(kind for kind in OBJECTIVE_KINDS for _ in range(2))
OBJECTIVES_DEALT = 6
OBJECTIVES_KEPT = 4

# --------------------------------------------------------------------- setup
CREW: dict[int, int] = {2: 9, 3: 9, 4: 7}
START_COINS = 8
START_TREASURES = 1
START_PARROTS = 1
LOCKS = 6

# --------------------------------------------------------------- the auction
BID_SPACES: tuple[str, ...] = ("claim", "claim", "vp", "lock", "vp")
"""Reward of each bid space, left to right, for the colour of the die on it."""
DIE_FACES = 6

# ------------------------------------------------------------------- scoring
COINS_PER_VP = 5
MAJORITY_VP = 6
PRESENCE_VP = 2

# ------------------------------------------------------- engine safeguards
MAX_ROUNDS = 100
"""Engine decision: the game also ends after this round, so that players who
never place crew (e.g. always refusing to pay) cannot stall a tournament.
Real games end far earlier; random play ends in about 10-50 rounds."""

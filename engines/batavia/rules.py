"""Batavia's components and numbers, as in ``docs/engines/batavia.md``.

Companies and goods are indexed internally (0..4, 0..6) and named in every
JSON action and view. A face-up trading post is stored as one integer code,
``company * 7 + good``.
"""

from __future__ import annotations

COMPANIES: tuple[str, ...] = ("england", "netherlands", "france", "denmark", "sweden")
GOODS: tuple[str, ...] = ("tea", "cotton", "porcelain", "silk", "ginger", "nutmeg", "pepper")
COMPANY_INDEX = {name: i for i, name in enumerate(COMPANIES)}
GOOD_INDEX = {name: i for i, name in enumerate(GOODS)}
NUM_COMPANIES = len(COMPANIES)
NUM_GOODS = len(GOODS)

TRACK_LENGTH = 35
"""35 trading-post spaces: 5 companies x 7 goods (assumed layout, one of each good)."""
BLOCK = 5
"""Posts are laid (and revealed) in blocks of five, each holding every company once."""
FACE_UP_AT_START = 10
"""Spaces 1-10 start face up; ``open_track`` turns all 35 face up."""
FACE_DOWN = -1
"""Track code of a space not revealed yet (its post is not fixed until revealed)."""
START = -1
"""Merchant position before the first space."""
FINAL_HEX = TRACK_LENGTH
"""Merchant position on the final hex (after space 35)."""

CARDS_PER_COMPANY = 22
"""110 ship cards, 22 per company (assumed even split)."""
HAND_SIZE = 10
STARTING_LETTERS = 15
CRATES = 12
DRAW_COUNT = 2
DIE_FACES = 6

CONVERSION_GOLD = (0, 1, 3, 6, 10, 15)
"""Gold for converting posts of 0..5 distinct companies."""
GOOD_MAJORITY = {
    "tea": (10, 5),
    "cotton": (11, 5),
    "porcelain": (12, 6),
    "silk": (13, 6),
    "ginger": (14, 7),
    "nutmeg": (15, 7),
    "pepper": (16, 8),
}
"""Good -> (gold for the sole majority, gold for each tied player)."""
GOOD_GOLD = tuple(GOOD_MAJORITY[g] for g in GOODS)
LETTERS_MOST = 5
LETTERS_TIED = 2
FINAL_HEX_GOLD = 4
SEAL_GOLD = 2


def pirate_threshold(num_players: int) -> int:
    """Cards in front of all players that bring the pirates: 21 (3 players), 25 (4-5)."""
    return 21 if num_players == 3 else 25


def post_code(company: int, good: int) -> int:
    return company * NUM_GOODS + good

"""A fixed seeded game log and a fingerprint of what the rating ledger makes of it.

``golden_ratings.json`` was recorded from the ledger *before* the bulk
recompute work touched ``ratings.ledger``/``ratings.systems``; the test in
``test_golden.py`` replays the same log with today's code and demands the
same bits, so a faster conversion can never change a stored rating.
Regenerate only on purpose: ``.venv/bin/python -m tests.ratings.golden``.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).with_name("golden_ratings.json")
SYSTEM_NAMES = ("elo", "trueskill", "openskill")


def golden_log(games: int = 600, pool: int = 12, seed: int = 20260117) -> list[tuple]:
    """(competitors, ranks) per game: 2 to 4 players, frequent ties, some forfeits-last."""
    rng = random.Random(seed)
    log = []
    for _ in range(games):
        table = tuple(rng.sample(range(pool), rng.choice([2, 3, 4])))
        raw = [rng.randint(1, len(table)) for _ in table]
        ranks = tuple(1 + sum(1 for o in raw if o < r) for r in raw)
        log.append((table, ranks))
    return log


def replay(name: str) -> dict[str, Any]:
    """Final ratings (hex floats) and a SHA-256 of every before/after pair, in order."""
    from ratings import ledger
    from ratings.systems import get_system

    system = get_system(name)
    params = system.params()
    start = ledger.initial(system, params)
    current: dict[int, ledger.Stored] = {}
    digest = hashlib.sha256()
    for table, ranks in golden_log():
        before = [current.get(c, start) for c in table]
        after = ledger.rate_game(system, params, before, ranks)
        for c, old, new in zip(table, before, after, strict=True):
            current[c] = new
            digest.update(repr((c, old, new, ledger.score(system, new))).encode())
    final = {
        str(c): [v.hex() if v is not None else None for v in current[c]] for c in sorted(current)
    }
    return {"final": final, "changes_sha256": digest.hexdigest()}


def record() -> None:
    """Write the fingerprint of the current code (only when the numbers are meant to move)."""
    GOLDEN.write_text(json.dumps({n: replay(n) for n in SYSTEM_NAMES}, indent=1) + "\n")


if __name__ == "__main__":
    record()

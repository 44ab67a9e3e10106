"""``manage.py build_competitor_stats``: recompute the competitor tallies from every game.

Run once after the ``stats`` tables are created on a database that already
holds games (the migration does it itself where that is cheap: see
``stats/migrations/0001_initial.py``), or at any time to check nothing
drifted: the result does not depend on what was there before.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand
from django.db import connection

from stats.models import CountedGame, OpponentTally, SeatTally
from stats.services import rebuild


class Command(BaseCommand):
    help = "Recompute the per-competitor tallies (results by seat, head to head) from the games."

    def handle(self, *args: Any, **options: Any) -> None:
        start = time.perf_counter()
        written = rebuild()
        elapsed = time.perf_counter() - start
        if connection.vendor == "postgresql":
            # Fresh statistics, or the planner guesses the new tables empty (and hashes
            # every mark where the rating history wants a few index lookups).
            with connection.cursor() as cursor:
                for model in (CountedGame, SeatTally, OpponentTally):
                    cursor.execute(f"ANALYZE {model._meta.db_table}")
        summary = ", ".join(f"{count:,} {what}" for what, count in written.items())
        self.stdout.write(f"competitor statistics rebuilt: {summary} in {elapsed:.1f}s")

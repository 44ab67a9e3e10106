"""``manage.py build_game_records``: store the public record of every finished game that lacks one.

Games finished before records existed, a record whose storing failed at the
finish, and records computed under an engine version the server no longer has
(``games.records.stored``). Idempotent: a game with a current record is
skipped, so running it twice stores nothing the second time. The pages build a
missing record on their first view anyway; this fills them in bulk, ahead of
the readers. Prints one line per ``--every`` games and a total.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.models import Game
from games.records import stored as records


class Command(BaseCommand):
    help = (
        "Compute and store the public record (plies, events, board checkpoints) of every "
        "finished game without one for the server's engine versions."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--every", type=int, default=100, help="print progress every N games (default 100)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ids = list(records.missing_records().values_list("pk", flat=True))
        total = len(ids)
        self.stdout.write(f"{total} finished game(s) without a current record")
        stored = failed = 0
        for done, pk in enumerate(ids, start=1):
            try:
                game = Game.objects.get(pk=pk)
                records.store(game, *records.build(game))
            except Exception as error:  # one bad game must not stop the others
                failed += 1
                self.stderr.write(f"game {pk}: {error}")
            else:
                stored += 1
            if done % options["every"] == 0 or done == total:
                self.stdout.write(f"{done}/{total} games done (last: game {pk})")
        self.stdout.write(f"stored {stored} record(s); {failed} failed")

"""``manage.py verify_game ID``: audit a finished game's dice and deals against its seed.

Exit status: 0 when everything matches, 1 when something does not (each
mismatch printed), 2 when the game cannot be verified (no such game, or not
finished yet). The checks are in :mod:`games.records.verification`.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.records.verification import NotVerifiable, verify_game


class Command(BaseCommand):
    help = (
        "Replay a finished game: check its seed against the published commitment, every "
        "chance outcome against the seed, every move's legality and the recorded outcome."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int, help="the game's id")

    def handle(self, *args: Any, **options: Any) -> None:
        game = Game.objects.select_related("outcome").filter(pk=options["game_id"]).first()
        if game is None:
            raise CommandError(f"there is no game {options['game_id']}", returncode=2)
        try:
            report = verify_game(game)
        except NotVerifiable as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stdout.write(
            f"game {report.game_id} ({report.engine}): {report.plies} plies, "
            f"{report.chance_plies} chance outcomes checked"
        )
        self.stdout.write(f"  seed:       {report.seed}")
        self.stdout.write(f"  commitment: {report.seed_commitment}")
        if report.ok:
            self.stdout.write(
                self.style.SUCCESS(
                    "OK: the seed matches its commitment, every chance outcome is the one the "
                    "seed produces, and the replay reproduces the recorded outcome."
                )
            )
            return
        self.stdout.write(self.style.ERROR(f"MISMATCH: {len(report.problems)} problem(s)"))
        for problem in report.problems:
            self.stdout.write(f"  - {problem}")
        raise CommandError(f"game {report.game_id} does not verify", returncode=1)

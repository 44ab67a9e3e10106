"""``manage.py demo_setup``: prepare the demo data ``make demo`` serves.

The demo admin account, then a few games of every engine between the example
bots (served over loopback HTTP from this process while it runs), with
progress printed as they finish. The logic is in :mod:`harbormaster.demo`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from harbormaster.demo import (
    DEMO_GAMES_PER_ENGINE,
    DemoProgress,
    ensure_demo_admin,
    play_demo_games,
)
from tournaments.listings import engine_name


class Command(BaseCommand):
    help = (
        "Create (or reset) the demo admin account, print its credentials, and play a few "
        "games of each engine between the example bots."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000",
            help="where the demo will be served, for the printed links",
        )
        parser.add_argument(
            "--games-per-engine",
            type=int,
            default=DEMO_GAMES_PER_ENGINE,
            help=f"games to play per engine (default {DEMO_GAMES_PER_ENGINE}; 0: none)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError(
                "demo_setup creates an admin with a published password; it runs only with DEBUG on"
            )
        if options["games_per_engine"] < 0:
            raise CommandError("--games-per-engine must be 0 or more")
        admin = ensure_demo_admin()
        url = options["url"].rstrip("/")
        verb = "Created" if admin.created else "Reset"
        self.stdout.write(self.style.SUCCESS(f"{verb} the demo admin account."))
        self.stdout.write(f"  site:     {url}/")
        self.stdout.write(f"  admin:    {url}/admin/")
        self.stdout.write(f"  username: {admin.username}")
        self.stdout.write(f"  password: {admin.password}")
        per_engine = options["games_per_engine"]
        if per_engine == 0:
            return
        self.stdout.write(
            f"Playing {per_engine} game(s) of each engine between the example bots "
            "(greedy and random, served on 127.0.0.1 by this process)..."
        )
        results = play_demo_games(per_engine, self._progress, on_start=self._starting)
        finished = sum(len(progress.finished) for progress in results)
        total = sum(progress.total for progress in results)
        style = self.style.SUCCESS if finished == total else self.style.WARNING
        self.stdout.write(style(f"Demo games: {finished}/{total} finished."))
        self.stdout.write(f"  recent games: {url}/")
        self.stdout.write(f"  leaderboards: {url}/leaderboards/")
        self.stdout.write(f"  game API:     {url}/api/v1/games/  (docs: {url}/api/v1/docs/)")

    def _starting(self, progress: DemoProgress, players: list[Any]) -> None:
        number = len(progress.finished) + len(progress.unfinished) + 1
        self.stdout.write(
            f"  {engine_name(progress.engine)}: playing game {number} of {progress.total} "
            f"({', '.join(bot.name for bot in players)})..."
        )
        self.stdout.flush()

    def _progress(self, progress: DemoProgress) -> None:
        done = len(progress.finished) + len(progress.unfinished)
        game = (progress.finished + progress.unfinished)[-1]
        line = (
            f"  {engine_name(progress.engine)}: {len(progress.finished)}/{progress.total} "
            f"finished — game #{game.pk} {game.status}"
        )
        if done and game.status == game.Status.FINISHED:
            winners = [seat.competitor.name for seat in game.seats.all() if _rank(game, seat) == 1]
            line += f", won by {' and '.join(winners)}"
        self.stdout.write(line)
        self.stdout.flush()


def _rank(game: Any, seat: Any) -> int:
    return game.outcome.ranks[seat.position]

"""``manage.py play ENGINE BOT BOT [...]``: local games between bots (``botapi.local_games``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from botapi import local_games as play


class Command(BaseCommand):
    help = (
        "Play local, unrated games between bot endpoints (http(s) URLs, with the signing "
        "secret as URL#SECRET, --secret or $HARBORMASTER_SECRET) and example bots "
        f"({', '.join(play.EXAMPLE_BOTS)}, started in this process on loopback), through "
        "the service's referee (run inline: Celery is forced eager for the command). "
        "A URL bot is listed under the name it answers to a ping. The games are unrated "
        "and unlisted (not on the home page or the API's game list; /games/ID/ shows "
        "one). Prints each game's ranks, scores and seed, then each bot's latency "
        "percentiles and faults. Seats rotate from game to game. Run it as "
        "`.venv/bin/python manage.py play ...`."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("engine", help="engine slug, e.g. manila")
        parser.add_argument(
            "bots", nargs="+", metavar="BOT", help="a URL or an example bot name, one per seat"
        )
        parser.add_argument("--seed", help="seed of the first game (S, or S-1, S-2... for several)")
        parser.add_argument("--games", type=int, default=1, help="number of games (default 1)")
        parser.add_argument(
            "--time-ms",
            type=int,
            default=play.DEFAULT_TIME_MS,
            help=f"per-move time limit in ms (default {play.DEFAULT_TIME_MS})",
        )
        parser.add_argument("--secret", help="signing secret of every URL bot without #SECRET")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = play.play(
                options["engine"],
                options["bots"],
                seed=options["seed"],
                games=options["games"],
                time_ms=options["time_ms"],
                secret=options["secret"],
            )
        except play.PlayError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(play.format_report(report))

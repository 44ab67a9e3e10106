"""``manage.py demo_serve``: serve the demo site and its example bots, for as long as it runs.

``make demo``'s last step, after ``demo_setup``: the example bots (greedy and
five random bots) answer again, from this process, so a visitor can seat them
in new games, and uvicorn serves ``harbormaster.asgi:application`` beside
them. Ctrl-C or SIGTERM stops both and suspends the bots again. The logic is
in :mod:`harbormaster.demo_serving`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from botapi.models import Bot
from harbormaster.demo import DEMO_PERSON_USERNAME, start_club_night
from harbormaster.demo_serving import serve_demo
from tournaments.events import EventError

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
"""The demo admin's password is published: the site is never served beyond this machine."""


class Command(BaseCommand):
    help = (
        "Serve the demo site with uvicorn and the example bots from the same process; "
        "the bots are suspended again when it stops."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1", help="loopback address to serve on")
        parser.add_argument("--port", type=int, default=8000, help="port of the site")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("demo_serve serves the demo; it runs only with DEBUG on")
        host, port = options["host"], options["port"]
        if host not in LOOPBACK_HOSTS:
            raise CommandError(
                f"demo_serve serves on a loopback address only ({', '.join(LOOPBACK_HOSTS)}), "
                f"not {host!r}"
            )
        shown = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown}:{port}"
        serve_demo(host, port, on_bots_ready=self._bots_ready, on_stopped=self._stopped)

    def _bots_ready(self, bots: list[Bot]) -> None:
        self.stdout.write(
            self.style.SUCCESS("Serving the example bots from this process while the demo serves:")
        )
        width = max(len(bot.name) for bot in bots)
        for bot in bots:
            self.stdout.write(f"  {bot.name:<{width}}  {bot.endpoint_url}  ({bot.status})")
        try:
            night = start_club_night(bots)
        except EventError as exc:
            self.stdout.write(self.style.WARNING(f"The club night did not start: {exc}"))
        else:
            if night is not None:
                self.stdout.write(
                    f"Club night {night.name} started: round 1 waits for {DEMO_PERSON_USERNAME} "
                    f"at {self.url}/tournaments/{night.pk}/"
                )
        self.stdout.write(
            f"Serving the demo at {self.url}/ (Ctrl-C stops it and suspends the example bots)."
        )
        self.stdout.flush()

    def _stopped(self, why: str) -> None:
        self.stdout.write(
            f"Demo {why}: the example bots are suspended again (they answer only while "
            "the demo serves)."
        )
        self.stdout.flush()

"""``manage.py ensure_anchors``: create the house anchors and enter them in the arenas.

Idempotent: the anchors (``botapi.services.anchors``) are created once and
brought in line with the catalogue on every run; each is entered in every
open arena that admits bots and plays its engine, unless it has an entry
there already. ``--arenas`` first makes sure every engine has an arena
(``<engine>-arena``). ``manage.py demo_setup`` runs it with ``--arenas``.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from botapi.services.anchors import ensure_anchors
from tournaments.events import arena


class Command(BaseCommand):
    help = (
        "Create the house anchors (random, greedy, search at 8 and 32 iterations) and enter "
        "them in every open arena that admits bots."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--arenas",
            action="store_true",
            help="first create an arena league for every engine that has none (<engine>-arena)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ensured = ensure_anchors()
        for item in ensured:
            verb = "created" if item.created else "kept"
            self.stdout.write(f"  {item.bot.competitor.name}: {verb} ({item.bot.status})")
        if options["arenas"]:
            for league in arena.engine_arenas():
                self.stdout.write(f"  arena: {league.name} ({league.slug})")
        entries = arena.join_anchors([item.bot for item in ensured])
        self.stdout.write(
            self.style.SUCCESS(f"{len(ensured)} anchors; {len(entries)} new arena entries.")
        )

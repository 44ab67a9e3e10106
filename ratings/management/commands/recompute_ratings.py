"""``manage.py recompute_ratings``: rebuild ratings from the finished-game log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from ratings.models import RatingScope
from ratings.services.recompute import recompute_scope
from ratings.services.scopes import check_library_versions
from ratings.systems import SYSTEMS


class Command(BaseCommand):
    help = (
        "Rebuild ratings from finished games in finish order, one transaction per scope. "
        "Scopes are chosen by id, by engine slug (its global ladder) or by league slug."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--scope",
            action="append",
            default=[],
            help="scope id, engine slug or league slug (repeatable; default: every scope)",
        )
        parser.add_argument(
            "--system",
            action="append",
            choices=sorted(SYSTEMS),
            default=[],
            help="rating system (repeatable; default: every system of the scope)",
        )
        parser.add_argument("--no-progress", action="store_true", help="do not draw a progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        scopes = self._scopes(options["scope"])
        systems = options["system"] or None
        for scope in scopes:
            stale = check_library_versions(scope)
            if stale:
                raise CommandError(
                    f"{scope}: stored library versions of {stale} differ from the installed "
                    "ones, so a rebuild would not reproduce the ratings; pin the versions "
                    "the scope records (RatingScope.systems) or start a new scope"
                )
            names = systems or list(scope.systems)
            missing = sorted(set(names) - set(scope.systems))
            if missing:
                raise CommandError(
                    f"{scope} does not use {missing}; it uses {sorted(scope.systems)}"
                )

            def bar(items: Any, scope: RatingScope = scope) -> Any:
                return tqdm(
                    items, desc=f"{scope}", unit="game", file=self.stderr._out,
                    disable=options["no_progress"],
                )  # fmt: skip

            counts = recompute_scope(scope, names, progress=bar)
            summary = ", ".join(f"{name}: {n} games" for name, n in sorted(counts.items()))
            self.stdout.write(f"{scope}: rebuilt ({summary})")

    def _scopes(self, wanted: list[str]) -> list[RatingScope]:
        if not wanted:
            return list(RatingScope.objects.select_related("league"))
        found = []
        for key in wanted:
            query = RatingScope.objects.select_related("league")
            if key.isdigit():
                matches = list(query.filter(pk=int(key)))
            else:
                matches = list(query.filter(kind="global", engine=key)) + list(
                    query.filter(kind="league", league__slug=key)
                )
            if not matches:
                raise CommandError(
                    f"no rating scope {key!r}: give a scope id, an engine slug with a "
                    "global ladder, or a league slug"
                )
            found += matches
        return found

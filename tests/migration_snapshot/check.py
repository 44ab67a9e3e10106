"""The checks the migration test runs on the migrated snapshot, in a process of its own.

Run with DATABASE_URL pointing at the migrated copy (``python -m
tests.migration_snapshot.check``); prints one JSON object: what was checked
and every problem found. A separate process, so the copy gets its own
Django connection and the test's database is not touched.
"""

from __future__ import annotations

import itertools
import json
import os
from collections import defaultdict
from pathlib import Path
from typing import Any

import django

URLS = Path(__file__).resolve().parent / "urls.json"


def games_verify() -> tuple[int, list[str]]:
    """Every finished game verifies (replay, seed commitment, outcome)."""
    # Imported in each check: this module runs as a script, models load after django.setup().
    from games.models import Game
    from games.records.verification import verify_game

    problems = []
    finished = Game.objects.filter(status=Game.Status.FINISHED).order_by("pk")
    for game in finished:
        report = verify_game(game)
        if not report.ok:
            problems.append(f"game {game.pk} does not verify: {report.as_dict()['problems']}")
    return finished.count(), problems


def rating_chains() -> tuple[int, list[str]]:
    """Each change starts where the previous one ended; the rating is the last change."""
    from ratings.models import Rating, RatingChange

    chains: dict[tuple[int, int, str], list[Any]] = defaultdict(list)
    for change in RatingChange.objects.order_by("id"):
        chains[(change.competitor_id, change.scope_id, change.system)].append(change)
    problems = []
    for key, changes in chains.items():
        for previous, change in itertools.pairwise(changes):
            if (change.before_value, change.before_sigma) != (
                previous.after_value,
                previous.after_sigma,
            ):
                problems.append(f"chain {key} broken at change {change.pk}")
        rating = Rating.objects.filter(competitor_id=key[0], scope_id=key[1], system=key[2]).first()
        last = changes[-1]
        if rating is None or (rating.value, rating.sigma) != (last.after_value, last.after_sigma):
            problems.append(f"rating {key} is not its last change {last.pk}")
    return len(chains), problems


def pages() -> tuple[int, list[str]]:
    """Every recorded URL answers as recorded; a game's page names its seats."""
    from django.test import Client
    from django.utils.html import escape

    from tests.migration_snapshot.pages import seat_names

    client = Client(HTTP_HOST="localhost")
    recorded: dict[str, int] = json.loads(URLS.read_text())
    problems = []
    for url, status in recorded.items():
        response = client.get(url)
        if response.status_code != status:
            problems.append(f"{url} answered {response.status_code}, recorded {status}")
            continue
        parts = url.strip("/").split("/")
        if len(parts) == 2 and parts[0] == "games" and status == 200:
            page = response.content.decode()
            for name in seat_names(int(parts[1])):
                if escape(name) not in page:
                    problems.append(f"{url} does not show its seat {name!r}")
    return len(recorded), problems


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harbormaster.settings")
    django.setup()
    checked: dict[str, int] = {}
    problems: list[str] = []
    for name, check in (("games", games_verify), ("chains", rating_chains), ("urls", pages)):
        count, found = check()
        checked[name] = count
        problems += found
    print(json.dumps({"checked": checked, "problems": problems}))


if __name__ == "__main__":
    main()

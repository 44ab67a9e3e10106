"""Make the migration test's snapshot: a database at today's schema, dumped, with its URLs.

Run once, before a schema move, against an empty scratch PostgreSQL database
without Redis (it runs Celery eagerly: every game plays in this process)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hm_snapshot REDIS_URL= \\
        .venv/bin/python -m tests.migration_snapshot.populate

It plays the demo's games (one rated game of every engine between the
example bots) and a two-round Swiss club event through the demo's own
services, a game of the demo person (who resigns; the house bot plays the
seat to the end) and an open lobby table, then writes ``urls.json`` (each
page's status as served now) and ``snapshot.sql.gz`` (``pg_dump``) here.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
from pathlib import Path

import django

HERE = Path(__file__).resolve().parent
DUMP = HERE / "snapshot.sql.gz"
URLS = HERE / "urls.json"


def populate() -> None:
    """Fill the (migrated) database through the services a user's actions call."""
    # Imported here: this module runs as a script, and models load only after django.setup().
    from django.contrib.auth import get_user_model
    from games.creation import create_game

    from harbormaster import demo
    from lobby import services as lobby
    from people.services import ensure_person
    from tournaments import person_moves

    users = get_user_model().objects
    admin = users.get(username=demo.ensure_demo_admin().username)
    person = users.get(username=demo.ensure_demo_person().username)
    demo.play_demo_games(per_engine=1)
    demo.run_club_event(admin, rounds=2)
    with demo.example_bots() as bots:
        competitor = ensure_person(person).competitor
        game = create_game(
            "manila",
            [competitor, bots[0].competitor, bots[1].competitor],
            move_time_ms=demo.DEMO_MOVE_TIME_MS,
        )
        viewer = person_moves.viewer_for(game.pk, person)
        person_moves.resign(game.pk, viewer)
        demo.wait_until_over(game, demo.DEMO_GAME_TIMEOUT_S)
    lobby.create_table(person, "manila", 3, "standard", False, seats=[None, None])


def record_urls() -> dict[str, int]:
    """Each URL of the stored objects with the status an anonymous visitor gets."""
    from django.test import Client

    from tests.migration_snapshot.pages import urls

    client = Client(HTTP_HOST="localhost")
    return {url: client.get(url).status_code for url in urls()}


def dump() -> None:
    """``pg_dump`` of the whole database, plain SQL without owners, gzip-compressed."""
    url = os.environ["DATABASE_URL"]
    sql = subprocess.run(
        ["pg_dump", "--no-owner", "--no-privileges", url],
        check=True,
        capture_output=True,
    ).stdout
    DUMP.write_bytes(gzip.compress(sql, mtime=0))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harbormaster.settings")
    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.CELERY_TASK_ALWAYS_EAGER = True  # no worker here: the games play inline

    call_command("migrate", verbosity=0)
    populate()
    URLS.write_text(json.dumps(record_urls(), indent=1) + "\n")
    dump()


if __name__ == "__main__":
    main()

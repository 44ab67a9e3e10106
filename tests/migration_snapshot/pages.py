"""The URLs a user reaches for the objects in a database, shared by the snapshot and its test.

The snapshot records each URL's status beside the dump; the migration test
asks the same URLs of the migrated database and expects the same answers.
"""

from __future__ import annotations

from typing import Any

from django.db import connection

import engines


def _ids(sql: str) -> list[Any]:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return [row[0] for row in cursor.fetchall()]


def urls() -> list[str]:
    """Every page, export and API resource of the stored objects, in a stable order.

    Read with SQL on the tables (whose names the move keeps), so the list
    does not depend on where the models live.
    """
    found = ["/", "/games/", "/leaderboards/", "/tournaments/", "/lobby/", "/lobby/tables.json"]
    found += ["/api/v1/games/", "/api/v1/tournaments/", "/api/v1/bots/open/"]
    for engine in sorted(e.slug for e in engines.all_engines()):
        found += [f"/leaderboards/{engine}/", f"/api/v1/leaderboards/{engine}/"]
        found += [f"/api/v1/leaderboards/{engine}/?format=csv", f"/boards/{engine}/"]
    for pk in _ids("SELECT id FROM tournaments_game ORDER BY id"):
        found += [f"/games/{pk}/", f"/games/{pk}/verify/", f"/games/{pk}/boards.json"]
        found += [f"/api/v1/games/{pk}/", f"/api/v1/games/{pk}/verify/"]
        found += [f"/api/v1/games/{pk}/record/"]
    for pk in _ids("SELECT id FROM tournaments_tournament ORDER BY id"):
        found += [f"/tournaments/{pk}/", f"/tournaments/{pk}/standings.csv"]
        found += [f"/api/v1/tournaments/{pk}/", f"/api/v1/tournaments/{pk}/rounds/"]
        found += [f"/api/v1/tournaments/{pk}/standings/"]
        found += [f"/api/v1/tournaments/{pk}/crosstable/"]
    for slug in _ids("SELECT slug FROM tournaments_league ORDER BY id"):
        found += [f"/leagues/{slug}/", f"/api/v1/leagues/{slug}/leaderboard/"]
    for pk in _ids("SELECT id FROM tournaments_competitor ORDER BY id"):
        found += [f"/competitors/{pk}/", f"/api/v1/competitors/{pk}/games/"]
    for username in _ids(
        "SELECT u.username FROM auth_user u JOIN people_profile p ON p.user_id = u.id ORDER BY u.id"
    ):
        found.append(f"/people/{username}/")
    for pk in _ids("SELECT id FROM lobby_lobbytable ORDER BY id"):
        found += [f"/lobby/tables/{pk}/", f"/lobby/tables/{pk}.json"]
    return found


def seat_names(game_id: int) -> list[str]:
    """The names of a game's seats, which its page shows."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.name FROM tournaments_seat s JOIN tournaments_competitor c"
            " ON c.id = s.competitor_id WHERE s.game_id = %s ORDER BY s.position",
            [game_id],
        )
        return [row[0] for row in cursor.fetchall()]

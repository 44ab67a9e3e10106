"""What the tournament and league admin forms post: valid defaults, overridden per test.

Shared by the organiser's admin tests and the older engine-choice tests, so a
new form field is added in one place.
"""

from __future__ import annotations

from typing import Any


def tournament_form(**fields: Any) -> dict[str, Any]:
    """The tournament add/change form as the admin posts it (a playable manila Swiss)."""
    return {
        "name": "Harbour cup",
        "slug": "",
        "league": "",
        "engine": "manila",
        "options": "{}",
        "format": "swiss",
        "table_size": "3",
        "min_table_size": "3",
        "rounds": "3",
        "bye_points": "",
        "advance_per_table": "1",
        "move_time_ms": "5000",
        "time_bank_ms": "0",
        "rated": "on",
        "seeding": "rating",
        "tie_breaks": "",
        "absence_grace_s": "60",
    } | {key: str(value) for key, value in fields.items()}


def league_form(**fields: Any) -> dict[str, Any]:
    """The league add/change form with no arena entry rows."""
    return {
        "name": "Harbour club",
        "slug": "harbour-club",
        "engine": "manila",
        "description": "",
        "pool": "mixed",
        "arena_table_size": "4",
        "arena_min_table_size": "3",
        "arena_move_time_ms": "5000",
        "arena_time_bank_ms": "0",
        "arena_rated": "on",
        "arena_entries-TOTAL_FORMS": "0",
        "arena_entries-INITIAL_FORMS": "0",
    } | {key: str(value) for key, value in fields.items()}

"""Row locks of the event services, always taken in one order so no two deadlock.

Order: tournament, then games (by primary key), then a round. The referee's
``finish`` holds a game and then locks its round (:func:`rounds.on_game_finished`);
nothing here holds a round while waiting for a game or a tournament, so the
two never wait on each other in a cycle. Locks are ``FOR NO KEY UPDATE``:
rows that merely *refer* to the tournament or round (new games, tables,
seats) can still be inserted beside them. On SQLite ``select_for_update`` is
a no-op and the embedded mode's ``BEGIN IMMEDIATE`` serialises writers instead.
"""

from __future__ import annotations

from tournaments.events.errors import EventError
from tournaments.models import Tournament


def lock_tournament(tournament: Tournament | int) -> Tournament:
    """The tournament row re-read and locked until the surrounding transaction ends."""
    pk = tournament if isinstance(tournament, int) else tournament.pk
    row = Tournament.objects.select_for_update(no_key=True).filter(pk=pk).first()
    if row is None:
        raise EventError(f"there is no tournament {pk}")
    return row

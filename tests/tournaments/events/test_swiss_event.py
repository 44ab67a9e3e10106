"""A real Swiss event (``tournaments.formats.swiss``) run by the scheduler from start to end."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments import events
from tournaments.events.history import settings_of
from tournaments.formats import standings as formats_standings
from tournaments.models import Round, Table, Tournament

from .conftest import finish_games, make_event, people, running_games

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def test_a_nine_player_swiss_in_tables_of_three_runs_to_its_end() -> None:
    event = make_event(format="swiss", rounds=None, table_size=3, min_table_size=3)
    events.open_entries(event)
    for person in people(9):
        events.enter(event, person, by=person.user)
    events.start(event)
    entrant_keys = set(event.entrants.values_list("pk", flat=True))
    for number in (1, 2, 3):
        games = running_games(event, number)
        assert len(games) == 3, f"round {number}: three tables of three"
        tables = Table.objects.filter(round__tournament=event, round__number=number)
        seated = [key for table in tables for key in table.seats]
        assert sorted(seated) == sorted(entrant_keys), "everyone plays once per round"
        finish_games(games, seed=number)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED, "9 in tables of 3: 3 rounds by default"
    assert Round.objects.filter(tournament=event).count() == 3
    meetings = Counter(
        pair
        for table in Table.objects.filter(round__tournament=event)
        for pair in combinations(sorted(table.seats), 2)
    )
    assert max(meetings.values()) == 1, "Swiss avoids every repeat it can (here: all)"
    seats = Counter(
        (key, position)
        for table in Table.objects.filter(round__tournament=event)
        for position, key in enumerate(table.seats)
    )
    for key in entrant_keys:  # the format's balance (tested there); here: it reaches the games
        counts = [seats[(key, position)] for position in range(3)]
        assert max(counts) <= 2, f"nobody sits in one position every round: {counts}"
    history = events.history_of(event)
    table = formats_standings.standings(events.active_entrants(event), history, settings_of(event))
    assert len(table) == 9 and table[0].points >= table[-1].points
    assert sum(row.points for row in table) == pytest.approx(3 * 3 * (6 + 2 + 0))
    assert events.verify_seeds(event) == []

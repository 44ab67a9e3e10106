"""Beat runs the round scheduler's recovery; a withdrawn seat is left out of ratings (pure)."""

from __future__ import annotations

import pytest
from django.conf import settings

from harbormaster.celery import app
from ratings.results import rated_seats
from tournaments.events.rounds import BEAT_INTERVAL_S


def test_beat_schedules_due_rounds_as_often_as_organisers_are_told() -> None:
    app.loader.import_default_modules()
    [entry] = [
        e for e in settings.CELERY_BEAT_SCHEDULE.values()
        if e["task"] == "tournaments.schedule_due_rounds"
    ]  # fmt: skip
    assert entry["task"] in app.tasks and "tournaments.pair_next_round" in app.tasks
    assert entry["schedule"] == BEAT_INTERVAL_S
    assert entry["options"]["expires"] < entry["schedule"], "a late run is dropped, not doubled"


@pytest.mark.parametrize(
    ("ranks", "forfeited", "withdrawn", "expected"),
    [
        ([1, 2, 3, 4], [False] * 4, [False] * 4, ([0, 1, 2, 3], [1, 2, 3, 4])),
        ([2, 4, 1, 3], [False, True, False, False], [False, True, False, False],
         ([0, 2, 3], [2, 1, 3])),
        # a forfeit for faults stays rated (last); only the withdrawn seat leaves
        ([1, 3, 3, 2], [False, True, True, False], [False, False, True, False],
         ([0, 1, 3], [1, 3, 2])),
        ([1, 2, 2], [False, False, False], [True, False, False], ([1, 2], [1, 1])),
        ([1, 2], [False, True], [False, True], ([0], [1])),
    ],
)  # fmt: skip
def test_rated_seats_leave_withdrawn_seats_out(ranks, forfeited, withdrawn, expected) -> None:
    assert rated_seats(ranks, forfeited, withdrawn) == expected


def test_rated_seats_refuse_mismatched_lengths() -> None:
    with pytest.raises(ValueError, match="3 ranks, 2 forfeits"):
        rated_seats([1, 2, 3], [False, False], [False, False, False])

"""Beat runs the arena: the task is registered, scheduled often, and passes every open league."""

from __future__ import annotations

import pytest
from django.conf import settings

from games.models import Game
from harbormaster.celery import app
from tournaments import tasks

pytestmark = pytest.mark.django_db


def test_beat_runs_the_arena_every_few_seconds() -> None:
    app.loader.import_default_modules()
    [entry] = [
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "tournaments.arena_pass"
    ]
    assert entry["task"] in app.tasks
    assert 1 <= entry["schedule"] <= 10
    assert entry["options"]["expires"] < entry["schedule"], "a late pass is dropped, not queued"


def test_the_task_seats_the_free_bots(league, join_bots) -> None:
    join_bots(4)
    assert tasks.arena_pass.apply().get() == 1
    assert Game.objects.filter(league=league).count() == 1
    assert tasks.arena_pass.apply().get() == 0, "they are all playing"

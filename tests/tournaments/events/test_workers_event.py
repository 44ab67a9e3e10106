"""A Swiss event on the real stack: PostgreSQL, Redis, Celery workers killed mid-event.

The example bots answer over loopback HTTP; the workers play the games and
pair the rounds; the test plays beat (``recover_stalled`` and
``schedule_due_rounds`` every half second). Killing the worker at random
moments (in a bot call, inside a finish or a pairing, between rounds) must
cost the event nothing: every round made once, every game with a complete
record, the event finished.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from harbormaster_bot.examples.greedy import greedy_bot
from harbormaster_bot.examples.random_bot import RandomBot

from games.models import Game
from games.tasks import recover_stalled
from tests.tournaments.workers import WorkerFarm, wait_for, worker_farm
from tournaments import events
from tournaments.events.rounds import due_rounds
from tournaments.models import Round, Table, Tournament
from tournaments.tasks import pair_next_round

from .conftest import make_event

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]
PATIENCE_SECONDS = 180


@pytest.fixture
def farm(transactional_db, tmp_path: Path) -> Iterator[WorkerFarm]:
    with worker_farm(tmp_path) as workers:
        yield workers


class Beat:
    """What celery beat does for games and rounds, at most every half second."""

    def __init__(self, farm: WorkerFarm) -> None:
        self.queue = f"celery-{farm.suffix}"
        self.last = 0.0

    def __call__(self) -> bool:
        if time.monotonic() - self.last > 0.5:
            recover_stalled(stall_ms=0)
            for tournament_id, number in due_rounds():
                pair_next_round.apply_async((tournament_id, number), queue=self.queue)
            self.last = time.monotonic()
        return True


def progress(event: Tournament) -> tuple[int, int]:
    finished = Game.objects.filter(tournament=event, status=Game.Status.FINISHED).count()
    return Round.objects.filter(tournament=event).count(), finished


def test_a_swiss_event_survives_killed_workers(farm, serve_bots) -> None:
    rng = random.Random(5)
    bots = serve_bots("manila", [greedy_bot("manila"), *(RandomBot(seed=i) for i in range(5))])
    event = make_event(format="swiss", rounds=3, move_time_ms=3000)
    events.open_entries(event)
    for bot in bots:
        events.enter(event, bot.competitor, by=bot.owner)
    beat = Beat(farm)
    events.start(event)
    kills = 0
    for _ in range(4):
        worker = farm.start(concurrency=4)
        before = progress(event)
        wait_for(
            lambda b=before: beat() and (progress(event) != b or _over(event)),
            PATIENCE_SECONDS, "progress after a restart", farm.logs,
        )  # fmt: skip
        if _over(event):
            break
        time.sleep(rng.uniform(0, 0.3))
        worker.kill()
        kills += 1
    farm.start(concurrency=4)
    wait_for(
        lambda: beat() and _over(event), PATIENCE_SECONDS, "the event finishing", farm.logs
    )  # fmt: skip
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED, event.status_reason
    assert kills >= 2, "the workers were killed during the event"
    assert list(Round.objects.filter(tournament=event).values_list("number", flat=True)) == [
        1,
        2,
        3,
    ]
    for number in (1, 2, 3):
        tables = Table.objects.filter(round__tournament=event, round__number=number)
        assert tables.count() == 2 and all(t.games.count() == 1 for t in tables)
    for game in Game.objects.filter(tournament=event):
        assert game.status == Game.Status.FINISHED
        moves = list(game.moves.order_by("ply").values_list("ply", flat=True))
        assert moves == list(range(game.next_ply)), "a gap-free log"
        assert game.rating_changes.count() == 3 * 3, "rated once: seats x systems"
    assert events.verify_seeds(event) == []


def _over(event: Tournament) -> bool:
    status = Tournament.objects.values_list("status", flat=True).get(pk=event.pk)
    return status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)

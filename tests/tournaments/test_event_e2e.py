"""A whole event on the real stack, run by an organiser through the admin of a served site.

PostgreSQL, Redis, the site served by uvicorn, real Celery workers
(subprocesses) and nine example bots served over loopback HTTP. A staff user
logs in through the admin's login form (with its CSRF token, as a browser
would), creates a Swiss tournament of 3 rounds in tables of 3, opens entries,
adds the nine bots and starts it -- all through the real admin forms. A worker
is killed with SIGKILL in the middle of round 1 and another started; the event
must then finish by itself: 3 rounds, every entrant at a table in every round,
standings, and the event seed revealed and matching the commitment published
before round 1.

Manila with 3 players is the quickest game of the four (``bench.engines``:
about 190 steps a game), so the whole event takes seconds of refereeing.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from harbormaster_bot import serve_in_background
from harbormaster_bot.examples.greedy import greedy_bot
from harbormaster_bot.examples.random_bot import RandomBot

import engines
from botapi.models import Bot
from games.models import Game
from games.tasks import recover_stalled
from tests.factories import DEFAULT_PASSWORD, BotFactory, UserFactory
from tests.foundation.processes import clean_env
from tests.foundation.servers import Server, start_server
from tournaments import events
from tournaments.models import Entrant, Round, Tournament
from tournaments.tasks import schedule_due_rounds

from . import workers
from .workers import WorkerFarm, wait_for, worker_farm

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

ENGINE = "manila"
ENTRANTS = 9
ROUNDS = 3
TABLE = 3
PATIENCE_SECONDS = 120
"""How long the test waits for something a working stack does in seconds."""
MOVE_TIME_MS = 3000
"""Ample for a loopback bot on a loaded machine; a game a killed worker held is picked up
again by ``recover_stalled`` (called here as beat would) once it has made no progress for
this plus ``players.GRACE_MS``."""
BOT_SECRET = "hms_e2e-event-secret"
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def farm(transactional_db, tmp_path: Path) -> Iterator[WorkerFarm]:
    with worker_farm(tmp_path) as workers:
        yield workers


@pytest.fixture
def site(farm: WorkerFarm, tmp_path: Path) -> Iterator[Server]:
    """The web site on the test database, sending its tasks to this test's worker queues."""
    environ = clean_env(
        DJANGO_SETTINGS_MODULE="tests.tournaments.worker_settings",
        HARBORMASTER_TEST_QUEUE_SUFFIX=farm.suffix,
        DATABASE_URL=workers.test_database_url(),
        REDIS_URL=settings.REDIS_URL,
        BOT_ENDPOINT_ALLOW="loopback",
        LOG_LEVEL="WARNING",
    )
    server = start_server(environ, tmp_path / "site.log")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def bots() -> Iterator[list[Bot]]:
    """Nine example bots (greedy and random) on loopback, open to tournaments."""
    handlers = [greedy_bot(ENGINE) if i % 3 == 0 else RandomBot(seed=i) for i in range(ENTRANTS)]
    running = [
        serve_in_background(h, secret=BOT_SECRET, name=f"e2e{i}") for i, h in enumerate(handlers)
    ]
    try:
        yield [
            BotFactory(
                name=f"e2e-{i}",
                endpoint_url=server.url,
                signing_secret=BOT_SECRET,
                engines=[ENGINE],
                visibility=Bot.Visibility.TOURNAMENT,
                max_concurrent_games=2,
            )
            for i, server in enumerate(running)
        ]
    finally:
        for server in running:
            server.stop()


class Organiser:
    """A browser-like admin session: cookies, and the CSRF token of each form it posts."""

    def __init__(self, site: Server) -> None:
        self.site = site
        self.http = httpx.Client(base_url=site.url, timeout=60, follow_redirects=False)

    def form_token(self, path: str) -> str:
        page = self.http.get(path)
        assert page.status_code == 200, f"GET {path}: {page.status_code}\n{self.site.log()}"
        found = CSRF_INPUT.search(page.text)
        assert found, page.text[:500]
        return found.group(1)

    def post_form(self, path: str, data: dict, *, form_page: str | None = None) -> httpx.Response:
        """GET the page the form is on (for its token), then POST the form as a browser does."""
        token = self.form_token(form_page or path)
        response = self.http.post(
            path,
            data={**data, "csrfmiddlewaretoken": token},
            headers={"Referer": self.site.url + (form_page or path)},
        )
        assert response.status_code in (200, 302), f"{path}: {response.status_code}"
        return response

    def log_in(self, username: str, password: str) -> None:
        response = self.post_form(
            "/admin/login/", {"username": username, "password": password, "next": "/admin/"}
        )
        assert response.status_code == 302 and response.headers["location"] == "/admin/"

    def messages_after(self, response: httpx.Response) -> str:
        """The page a step redirected to (where the admin shows its messages)."""
        assert response.status_code == 302, response.text[:2000]
        return self.http.get(response.headers["location"]).text


class Beat:
    """Beat's periodic work -- stalled games recovered, due rounds queued -- at most twice a
    second, called from the test's polling loop (as ``test_workers`` does)."""

    def __init__(self) -> None:
        self.last = 0.0

    def __call__(self) -> bool:
        if time.monotonic() - self.last > 0.5:
            recover_stalled(stall_ms=0)
            schedule_due_rounds()
            self.last = time.monotonic()
        return True


def test_an_organiser_runs_a_swiss_event_through_the_admin_to_its_standings(
    farm: WorkerFarm, site: Server, bots: list[Bot]
) -> None:
    staff = UserFactory(username="organiser", admin=True)
    farm.start(concurrency=6)
    organiser = Organiser(site)
    organiser.log_in(staff.username, DEFAULT_PASSWORD)

    add = "/admin/tournaments/tournament/add/"
    created = organiser.post_form(
        add,
        {
            "name": "Harbour Swiss",
            "slug": "harbour-swiss",
            "league": "",
            "engine": ENGINE,
            "options": "{}",
            "format": "swiss",
            "table_size": str(TABLE),
            "min_table_size": str(TABLE),
            "rounds": str(ROUNDS),
            "bye_points": "",
            "advance_per_table": "1",
            "move_time_ms": str(MOVE_TIME_MS),
            "time_bank_ms": "0",
            "rated": "on",
            "seeding": "rating",
            "tie_breaks": "",
            "absence_grace_s": "60",
        },
    )
    assert created.status_code == 302, created.text[:3000]
    tournament = Tournament.objects.get(slug="harbour-swiss")
    change = f"/admin/tournaments/tournament/{tournament.pk}/change/"

    page = organiser.messages_after(
        organiser.post_form(
            f"/admin/tournaments/tournament/{tournament.pk}/event/open_entries/",
            {},
            form_page=change,
        )
    )
    assert "Entries are open" in page
    add_entrants = f"/admin/tournaments/tournament/{tournament.pk}/entrants/add/"
    page = organiser.messages_after(
        organiser.post_form(
            add_entrants,
            {"competitors": [bot.competitor.pk for bot in bots], "approved": "on"},
        )
    )
    assert f"Entered {ENTRANTS}" in page
    page = organiser.messages_after(
        organiser.post_form(
            f"/admin/tournaments/tournament/{tournament.pk}/event/start/", {}, form_page=change
        )
    )
    assert "has started" in page, page[:3000]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    commitment = tournament.seed_commitment
    assert len(commitment) == 64

    # Mid round 1: kill the worker, start another; beat's work recovers the held games.
    beat = Beat()
    wait_for(
        lambda: Game.objects.filter(tournament=tournament, next_ply__gte=20).exists(),
        PATIENCE_SECONDS, "round 1 under way", farm.logs,
    )  # fmt: skip
    running_page = organiser.http.get(change).text
    assert tournament.seed not in running_page, "the event seed is on the change page"
    held = list(
        Game.objects.filter(tournament=tournament, status=Game.Status.RUNNING).values_list(
            "pk", flat=True
        )
    )
    farm.workers[0].kill()
    assert held, "round 1 was over before the worker was killed"
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.RUNNING
    farm.start(concurrency=6)

    def finished() -> bool:
        beat()
        return Tournament.objects.filter(
            pk=tournament.pk, status=Tournament.Status.FINISHED
        ).exists()

    wait_for(
        finished, PATIENCE_SECONDS * 2, "the event finishing", lambda: farm.logs() + site.log()
    )

    tournament.refresh_from_db()
    assert tournament.current_round == ROUNDS
    assert engines.seed_commitment(tournament.seed) == commitment
    assert events.event_seed_revealed(tournament)
    entrants = set(Entrant.objects.filter(tournament=tournament).values_list("pk", flat=True))
    assert len(entrants) == ENTRANTS
    rounds = list(Round.objects.filter(tournament=tournament).prefetch_related("tables__games"))
    assert [r.number for r in rounds] == list(range(1, ROUNDS + 1))
    for played in rounds:
        seated = [key for table in played.tables.all() for key in table.seats]
        assert sorted(seated) == sorted(entrants), f"round {played.number} left someone out"
        assert all(len(table.seats) == TABLE for table in played.tables.all())
        for table in played.tables.all():
            assert [g.status for g in table.games.all()] == [Game.Status.FINISHED]
    assert events.verify_seeds(tournament) == [], "a game seed is not derived from the event's"
    table = events.standings_of(tournament)
    assert sorted(s.key for s in table) == sorted(entrants)
    assert all(s.games == ROUNDS for s in table), [(s.key, s.games) for s in table]
    # 3 players place for 6/2/0 points (ties split): 8 per table, 9 tables.
    assert sum(s.points for s in table) == pytest.approx(8 * ROUNDS * ENTRANTS // TABLE)
    final_page = organiser.http.get(change).text
    assert tournament.seed in final_page, "the revealed seed is not shown once the event is over"
    standings_html = final_page[final_page.index('id="event-standings"') :]
    assert all(bot.competitor.name in standings_html for bot in bots)

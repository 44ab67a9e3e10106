"""PostgreSQL connections of web processes come from psycopg's pool; workers keep their own.

Django opens a connection for a request's first query and lets it go when the
request ends (``request_finished`` runs ``close_old_connections``). Without a
pool each request therefore started a new PostgreSQL server process; with
``env.DATABASE_POOL`` the connection goes back to the pool and the next
request is served by a backend already running. Celery workers turn the pool
off and keep a connection per thread (``harbormaster.celery``).
"""

from __future__ import annotations

import json

import pytest
from django.db import close_old_connections, connection
from django.http import HttpRequest, JsonResponse
from django.test import Client
from django.urls import path

from tests.foundation.processes import clean_env, run_python
from tests.tournaments.workers import test_database_url as database_url

pytestmark = pytest.mark.postgres

REQUESTS = 12


def backend(request: HttpRequest) -> JsonResponse:
    """Which PostgreSQL server process, on which database, served this request."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid(), current_database()")
        pid, name = cursor.fetchone()
    return JsonResponse({"pid": pid, "database": name})


urlpatterns = [path("backend/", backend)]


@pytest.mark.urls(__name__)
@pytest.mark.django_db(transaction=True)  # no test transaction holding the connection open
def test_requests_reuse_the_pools_backends_instead_of_starting_one_each() -> None:
    client = Client()
    answers = []
    for _ in range(REQUESTS):
        answers.append(client.get("/backend/").json())
        close_old_connections()  # what request_finished does on a server (the client skips it)
    pids = [answer["pid"] for answer in answers]
    half = REQUESTS // 2
    assert set(pids[half:]) <= set(pids[:half]), f"new backends after warm-up: {pids}"
    assert len(set(pids)) <= connection.settings_dict["OPTIONS"]["pool"]["max_size"]
    # The pool was built for the test database, not the one named before the switch.
    assert {answer["database"] for answer in answers} == {connection.settings_dict["NAME"]}
    assert connection.settings_dict["NAME"].startswith("test_")


WORKER_CONNECTIONS = """
import json, django
from harbormaster.celery import close_unusable_connections, keep_database_connections
django.setup()
from django.db import connection
keep_database_connections()
pids = []
for _ in range(3):
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pids.append(cursor.fetchone()[0])
    close_unusable_connections()  # after each task
print(json.dumps({
    "options": sorted(connection.settings_dict["OPTIONS"]),
    "max_age": connection.settings_dict["CONN_MAX_AGE"],
    "health_checks": connection.settings_dict["CONN_HEALTH_CHECKS"],
    "pool": connection.pool is not None,
    "pids": pids,
}))
"""


@pytest.mark.django_db
def test_a_worker_turns_the_pool_off_and_keeps_one_connection_across_tasks() -> None:
    result = run_python(["-c", WORKER_CONNECTIONS], clean_env(DATABASE_URL=database_url()))
    assert result.returncode == 0, result.stderr
    worker = json.loads(result.stdout)
    assert "pool" not in worker["options"] and worker["pool"] is False
    assert "options" in worker["options"], "the jit=off options stay"
    assert worker["max_age"] == 300 and worker["health_checks"] is False
    assert len(set(worker["pids"])) == 1, worker["pids"]

"""Settings of the Celery workers the real-worker tests start: the project's, queues renamed.

Parallel test processes share one Redis database, so every test run names its
queues with a suffix of its own (``HARBORMASTER_TEST_QUEUE_SUFFIX``, set by
``tests/tournaments/workers.py``); the test process renames its routes the same
way. Passwords are hashed and checked as in the test process (``tests/hashers.py``),
so a test's user signs in to a server started with these settings. Everything
else is ``harbormaster.settings`` unchanged.
"""

from __future__ import annotations

import os

from harbormaster.settings import *  # noqa: F403
from harbormaster.settings import CELERY_TASK_DEFAULT_QUEUE, CELERY_TASK_ROUTES
from tests.hashers import FAST_PASSWORD_HASHERS

_SUFFIX = os.environ["HARBORMASTER_TEST_QUEUE_SUFFIX"]

CELERY_TASK_DEFAULT_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}-{_SUFFIX}"
CELERY_TASK_ROUTES = {
    task: {**route, "queue": f"{route['queue']}-{_SUFFIX}"}
    for task, route in CELERY_TASK_ROUTES.items()
}

PASSWORD_HASHERS = FAST_PASSWORD_HASHERS

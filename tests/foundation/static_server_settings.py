"""Settings of the uvicorn server the static-file tests start: files collected elsewhere.

``collectstatic`` writes to ``STATIC_ROOT``; the tests collect into a folder
of their own (``HM_TEST_STATIC_ROOT``) so that no run touches the project's
``staticfiles/`` or another worker's. Everything else is
``harbormaster.settings`` unchanged.
"""

from __future__ import annotations

import os

from harbormaster.settings import *  # noqa: F403

STATIC_ROOT = os.environ["HM_TEST_STATIC_ROOT"]

"""The served applications freeze their start-up heap (``harbormaster.heap``)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PROBE = """
import gc, sys
before = gc.get_freeze_count()
import {module}
frozen = gc.get_freeze_count()
resolver_loaded = "web.games.views" in sys.modules
print(before, frozen, resolver_loaded)
"""


@pytest.mark.parametrize("module", ["harbormaster.asgi", "harbormaster.wsgi"])
def test_loading_the_application_freezes_the_start_up_heap_with_the_views_loaded(
    module: str,
) -> None:
    env = {"DJANGO_SETTINGS_MODULE": "harbormaster.settings", "DATABASE_URL": "", "REDIS_URL": ""}
    answer = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
        check=True,
    )
    before, frozen, views = answer.stdout.split()
    assert int(before) == 0
    assert int(frozen) > 50_000  # Django, the URLconf, the models and the engines
    assert views == "True"  # the URLconf's views were imported before the freeze


def test_warm_and_freeze_moves_live_objects_out_of_the_collected_generations() -> None:
    import gc

    from harbormaster.heap import warm_and_freeze

    try:
        kept = [[] for _ in range(1000)]
        warm_and_freeze()
        assert gc.get_freeze_count() >= len(kept)
    finally:
        gc.unfreeze()  # the test process's heap back to normal

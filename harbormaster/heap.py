"""The start-up heap kept out of the garbage collector's full collections.

A process serving pages makes reference cycles on every request (a few
thousand objects a cold render), so CPython's cyclic collector runs often, and
now and then a full (oldest-generation) collection walks every object the
process holds: Django, its URL resolvers, compiled templates, the models, the
engines -- some 140,000 objects before the first request. On the 1,581-ply
game page that was the page's cold p95 (`bench.pages`: 56-59 ms against a p50
of 10; with this, 10.6-11.0). Moving what exists after start-up into the
permanent generation (:func:`gc.freeze`) keeps it out of those walks; the
collector still frees every cycle made afterwards. The same is done by large
Django deployments; in a forking server it also keeps the frozen pages of
memory shared between the children.
"""

from __future__ import annotations

import gc

from django.urls import get_resolver


def warm_and_freeze() -> None:
    """Load what every request would load first (the URLconf and its views), then freeze.

    Called once per process, after Django is set up (``harbormaster.asgi``,
    ``harbormaster.wsgi``, the page benches).
    """
    get_resolver().url_patterns  # noqa: B018 -- imports every view module now, not on request 1
    gc.collect()
    gc.freeze()

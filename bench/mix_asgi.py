"""The site as docker-compose serves it, plus ``bench.pages_urls``' trivial view beside it.

    uvicorn bench.mix_asgi:application ...

``bench.mix`` compares its mix of pages with a trivial view served by the same
processes in the same run; the only difference from ``harbormaster.asgi`` is the
URL configuration, which adds ``/__bench__/...`` in front of the site's own URLs.
"""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harbormaster.settings")

from django.conf import settings

settings.ROOT_URLCONF = "bench.pages_urls"  # before the application loads any URL

from harbormaster.asgi import application  # noqa: E402

__all__ = ["application"]

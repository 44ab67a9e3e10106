"""WSGI entry point, for servers that speak only WSGI (no websockets there).

The service itself runs on the ASGI application in :mod:`harbormaster.asgi`.
"""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harbormaster.settings")

application = get_wsgi_application()

from harbormaster.heap import warm_and_freeze  # noqa: E402

warm_and_freeze()  # the start-up heap out of full collections (harbormaster.heap)

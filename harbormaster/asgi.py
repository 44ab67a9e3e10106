"""The one ASGI application: HTTP goes to Django, websockets to Channels.

Run it with ``uvicorn harbormaster.asgi:application``. Websocket routes live
in :mod:`web.sockets.routing`; they authenticate with the Django session and
accept only the site's own origin (scheme, host and port) or one of
CSRF_TRUSTED_ORIGINS (:mod:`web.sockets.origin`). HTTP passes
:class:`BodyTimeout` (a body that stops arriving is dropped) and
:class:`BodySizeLimit` first: Django's handler would read a whole body to disk
before any check, and wait for it without end.
Static files are answered before any of that, on the event loop
(:mod:`web.http.static_files`). Django's handler runs the middleware and
the view in one thread per request (:mod:`web.http.asgi_handler`).
In the embedded mode (no Redis) the first event served starts Celery's worker
and beat in this process (:mod:`harbormaster.embedded_celery`).
Once built, the process's start-up heap is frozen out of the garbage
collector's full collections (:mod:`harbormaster.heap`).
"""

from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harbormaster.settings")

# Django must be set up before anything imports models (consumers do).
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does
from web.http.asgi_handler import OneThreadASGIHandler  # noqa: E402

# HTTP through Django's handler with its middleware and view in one thread (asgi_handler).
django_http_app = OneThreadASGIHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from harbormaster.embedded_celery import StartsCelery  # noqa: E402
from harbormaster.heap import warm_and_freeze  # noqa: E402
from web.http.bodylimit import BodySizeLimit  # noqa: E402
from web.http.bodytimeout import BodyTimeout  # noqa: E402
from web.http.static_files import with_static_files  # noqa: E402
from web.sockets.origin import SameOriginValidator  # noqa: E402
from web.sockets.routing import websocket_urlpatterns  # noqa: E402

application = StartsCelery(
    ProtocolTypeRouter(
        {
            "http": with_static_files(BodyTimeout(BodySizeLimit(django_http_app))),
            "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        }
    )
)
warm_and_freeze()  # the start-up heap out of full collections (harbormaster.heap)

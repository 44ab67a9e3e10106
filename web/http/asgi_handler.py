"""Django's ASGI handler with the middleware and the view run in one thread, once per request.

Django's own ``ASGIHandler`` builds the middleware chain for async: from the
view up to the first middleware that can only run synchronously, each
middleware is called on the event loop, and every
``MiddlewareMixin`` among them hands its ``process_request`` and
``process_response`` to the request's thread and back (``sync_to_async``);
above that middleware the chain switches to a thread, below it back to the
loop, and the view (synchronous, as all but one of ours are) to a thread
again: about fifteen switches between the loop and a thread per request,
each a handful of futures and thread wake-ups. Under uvicorn a page served
from the cache spent most of its time there (py-spy: threads waiting on one
another; docs/architecture.md, "One thread per request").

:class:`OneThreadASGIHandler` builds the chain synchronously, as the WSGI
handler does, and runs it, view included, in one ``sync_to_async`` call in
the request's thread (``thread_sensitive``: Django's per-request thread under
its ``ThreadSensitiveContext``). Everything else is Django's: reading the
body, the signals, sending the response, streaming, disconnects.

The one async view (a pull bot's long poll, ``web.api.bots.pull_views``) still
waits on the event loop: Django calls an async view from a synchronous chain
through ``async_to_sync``, and the poll's database sections
(``sync_to_async(thread_sensitive=True)``) run back in the request's thread,
which is waiting for it. That thread was held for the poll's whole wait
before too (the async chain's middleware had started it), so a waiting poll
costs what it did.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase


class OneThreadASGIHandler(ASGIHandler):
    """``ASGIHandler`` whose middleware chain is synchronous and runs in one thread hop."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)  # ASGIHandler asks for async; built as WSGI's

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

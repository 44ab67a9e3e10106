"""The demo's last step: the site and the example bots served by one process, while it runs.

``demo_setup`` serves the example bots only while it plays its games, then
suspends them; a visitor who seats them in a new game needs them answering
while the site is served. So ``manage.py demo_serve`` (``make demo``'s last
step) starts their endpoints again (:func:`harbormaster.demo.example_bots`:
each on a free loopback port, in its own daemon threads, the registered bot
pointed at it and reactivated after a ping) and then runs uvicorn on
``harbormaster.asgi:application`` in the same process, with the options of
``make demo``'s former ``uvicorn`` command line (``X-Forwarded-For`` believed
only from ``TRUSTED_PROXIES``, websocket messages bounded as everywhere the
site is served, lifespan on, so Celery's worker and beat start here:
:mod:`harbormaster.embedded_celery`).

Why one process and no deadlock: in the embedded mode the referee runs on
the worker's threads in this process and asks the bots over loopback HTTP.
The bots' servers answer on threads of their own (``ThreadingHTTPServer``,
one thread per connection), never on uvicorn's event loop nor on a worker
thread, so the referee waiting for a bot never waits for itself.

On Ctrl-C or SIGTERM uvicorn shuts down gracefully (the lifespan shutdown
stops beat and the worker, letting running tasks end); then the bots'
servers stop and the bots are suspended again with
:data:`harbormaster.demo.SUSPENDED_REASON`, so no game is created with
endpoints that no longer answer.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

import uvicorn
from django.conf import settings
from django.db import connections

from botapi.models import Bot
from harbormaster.demo import example_bots
from web.sockets.limits import WS_MAX_SIZE

ASGI_APPLICATION = "harbormaster.asgi:application"
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stopped(BaseException):
    """A stop signal came; raised where the process is, so the bots are suspended on the way out.

    A ``BaseException`` like ``KeyboardInterrupt``: no ``except Exception`` on
    the way may swallow it.
    """


def _stop(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signal.Signals(signum).name)


@contextmanager
def stop_signals_raise() -> Iterator[None]:
    """Let SIGINT and SIGTERM raise :class:`Stopped` in the main thread for the block.

    SIGTERM's default would end the process at once, skipping the suspension.
    While uvicorn serves, its own handlers take over (graceful shutdown); it
    puts these back afterwards and raises the signal it caught again, which
    lands here. Outside the main thread (tests) signals cannot be handled and
    nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _stop) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def uvicorn_config(host: str, port: int) -> uvicorn.Config:
    """What ``uvicorn harbormaster.asgi:application --host H --port P --forwarded-allow-ips
    "$TRUSTED_PROXIES" --ws-max-size 65536`` runs (:data:`web.sockets.limits.WS_MAX_SIZE`).

    The list is passed even when empty: uvicorn's own default would trust
    loopback peers, and the demo is served on loopback.
    """
    return uvicorn.Config(
        ASGI_APPLICATION,
        host=host,
        port=port,
        proxy_headers=True,
        forwarded_allow_ips=list(settings.TRUSTED_PROXIES),
        lifespan="on",  # the worker and beat start at start-up, stop at shutdown
        ws_max_size=WS_MAX_SIZE,
    )


def serve_demo(
    host: str,
    port: int,
    *,
    on_bots_ready: Callable[[list[Bot]], None] | None = None,
    on_stopped: Callable[[str], None] | None = None,
) -> None:
    """Serve the example bots and the site until a stop signal or the server ends.

    ``on_bots_ready(bots)`` is called once the bots answer (active, endpoints
    updated), before the site is served; ``on_stopped(why)`` after the bots
    are suspended again.
    """
    why = "the server stopped"
    try:
        with stop_signals_raise(), example_bots() as bots:
            if on_bots_ready is not None:
                on_bots_ready(bots)
            connections.close_all()  # this thread holds no connection while it serves
            uvicorn.Server(uvicorn_config(host, port)).run()
    except Stopped as stop:
        why = f"stopped by {stop}"
    if on_stopped is not None:
        on_stopped(why)

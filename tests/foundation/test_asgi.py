"""The one ASGI application: HTTP reaches Django, websockets reach the Channels router."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator, WebsocketCommunicator

from harbormaster.asgi import application

# Channels closes stale database connections around every websocket event.
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def collect_request_threads() -> Iterator[None]:
    """Close the database connection of each request's finished thread now.

    Django's ASGI handler runs a request's view in a thread of its own; that
    thread's connection is closed only when a reference cycle around it is
    collected, and until then pytest-django cannot drop the test database
    (it waits 5 s, then warns "being accessed by other users").
    """
    yield
    gc.collect()


def test_http_is_served_by_django() -> None:
    async def fetch():
        communicator = HttpCommunicator(application, "GET", "/", headers=[(b"host", b"localhost")])
        return await communicator.get_response(timeout=10)

    response = async_to_sync(fetch)()
    assert response["status"] == 200
    assert b"<h1>Harbormaster</h1>" in response["body"]


def test_a_page_runs_its_middleware_and_view_in_one_thread_switch(monkeypatch) -> None:
    """Django's own handler switched between the event loop and a thread around each
    middleware (15 switches for a leaderboard page); ours makes one for the whole chain and
    the view, besides the request signal's (``web.http.asgi_handler``)."""
    from asgiref import sync
    from django.core.handlers.asgi import ASGIHandler

    from harbormaster.asgi import django_http_app
    from web.http.asgi_handler import OneThreadASGIHandler

    switched: list[str] = []
    real = sync.SyncToAsync.__call__

    def counting(self, *args, **kwargs):
        switched.append(getattr(self.func, "__qualname__", repr(self.func)))
        return real(self, *args, **kwargs)

    def page(app) -> tuple[int, list[str]]:
        async def fetch():
            communicator = HttpCommunicator(
                app, "GET", "/leaderboards/", headers=[(b"host", b"localhost")]
            )
            return await communicator.get_response(timeout=10)

        switched.clear()
        response = async_to_sync(fetch)()
        return response["status"], list(switched)

    assert isinstance(django_http_app, OneThreadASGIHandler)
    monkeypatch.setattr(sync.SyncToAsync, "__call__", counting)
    status, ours = page(django_http_app)
    assert status == 200 and ours == ["Signal.asend.<locals>.sync_send", "BaseHandler.get_response"]
    status, djangos = page(ASGIHandler())
    assert status == 200 and len(djangos) > 10, djangos


def test_websocket_from_foreign_origin_is_refused() -> None:
    """The origin check runs before any route: a cross-site page cannot open a socket."""

    async def connect():
        communicator = WebsocketCommunicator(
            application, "/ws/anything/", headers=[(b"origin", b"https://evil.example")]
        )
        connected, _ = await communicator.connect(timeout=5)
        await communicator.disconnect()
        return connected

    assert async_to_sync(connect)() is False


def test_websocket_to_unknown_route_is_refused() -> None:
    async def connect():
        communicator = WebsocketCommunicator(
            application, "/ws/no-such-route/", headers=[(b"origin", b"http://localhost")]
        )
        try:
            # The router's error surfaces when the handshake wait ends, so keep it short.
            connected, _ = await communicator.connect(timeout=1)
        except ValueError as exc:  # the URL router raises for a path it does not know
            return str(exc)
        await communicator.disconnect()
        return connected

    outcome = async_to_sync(connect)()
    assert outcome is False or "No route found" in outcome

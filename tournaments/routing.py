"""Websocket routes of the ASGI application (see ``harbormaster/asgi.py``).

Consumers for the play page and live game updates add their ``path()`` here;
until then no websocket route exists and every websocket is refused.
"""

from __future__ import annotations

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []

"""Websocket routes of the ASGI application (see ``harbormaster/asgi.py``).

``/ws/games/<id>/`` is the play page's socket (``web.sockets.consumers``): a
seat's own board and moves, or the spectator's board. Any other path is refused.
"""

from __future__ import annotations

from django.urls import URLPattern, path

from web.sockets.consumers import PlayConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/games/<int:game_id>/", PlayConsumer.as_asgi(), name="ws-game"),
]

"""The play page: a game's board over its websocket (``web/sockets/consumers.py``).

The page itself holds nothing private and no game data: the socket sends the
board model for whoever opens it (the seat's own view for its player, the
spectator's for anyone else), so one page serves players and watchers alike.
"""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

import engines
from games.models import Game


@require_GET
def play_page(request: HttpRequest, pk: int) -> HttpResponse:
    """``/games/<id>/play/``: the live board; the engine's renderer if there is one yet."""
    game = get_object_or_404(Game, pk=pk)
    rules = engines.get(game.engine)
    renderer = f"boards/{game.engine}.js"
    stylesheet = f"boards/{game.engine}.css"
    return render(
        request,
        "tournaments/play.html",
        {
            "game": game,
            "rules": rules,
            "renderer": renderer if finders.find(renderer) else None,
            "stylesheet": stylesheet if finders.find(stylesheet) else None,
        },
    )

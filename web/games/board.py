"""The board preview page: a seeded random position drawn by the browser board.

For developing and testing the boards (``static/boards/``): no game is stored or
changed; clicking a control only shows which legal action index it chose. The
position and the model come from :mod:`games.boards`, the same code
the play page uses, so the preview shows exactly what a seat would see.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseNotFound
from django.shortcuts import render
from django.views.decorators.http import require_GET

import engines
from games import boards as board_models

MAX_PLIES = 5000
"""Long enough for a whole game of every engine; bounds the work of one request."""


class BadPreview(ValueError):
    """A query parameter the preview cannot use; the message says which and why."""


def _int_param(request: HttpRequest, name: str, default: int, low: int, high: int) -> int:
    raw = request.GET.get(name, "")
    if raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadPreview(f"{name} must be a whole number, not {raw!r}") from None
    if not low <= value <= high:
        raise BadPreview(f"{name} must be between {low} and {high}, not {value}")
    return value


def _seat_param(request: HttpRequest, num_players: int) -> int | None:
    raw = request.GET.get("seat", "")
    if raw in ("", "spectator", "none"):
        return None
    return _int_param(request, "seat", 0, 0, num_players - 1)


@require_GET
def board_preview(request: HttpRequest, engine: str) -> HttpResponse:
    """``/boards/<engine>/?players=N&seed=S&plies=K&seat=X`` (seat empty: the spectator)."""
    try:
        rules = engines.get(engine)
    except engines.InvalidGame as error:
        return HttpResponseNotFound(str(error), content_type="text/plain")
    try:
        players = _int_param(
            request, "players", rules.min_players, rules.min_players, rules.max_players
        )
        seed = _int_param(request, "seed", 1, 0, 2**63 - 1)
        plies = _int_param(request, "plies", 0, 0, MAX_PLIES)
        seat = _seat_param(request, players)
    except BadPreview as error:
        return HttpResponseBadRequest(str(error), content_type="text/plain")
    state = board_models.random_position(engine, players, seed, plies)
    model = board_models.board_model(state, seat, playing=True)
    return render(
        request,
        "tournaments/board_preview.html",
        {
            "rules": rules,
            "model": model,
            "players": players,
            "seed": seed,
            "plies": plies,
            "seat": seat,
            "seats": range(players),
            "player_counts": range(rules.min_players, rules.max_players + 1),
            "over": state.is_over,
        },
    )

"""``/games/<id>/boards.json``: one page of the game page's board replay, as JSON.

The page fetches it (instead of inlining a model per ply into the HTML); what
the answer may hold is decided in :mod:`games.records.replay`, and which seats the
signed-in user holds (whose views they may see during the game) in
:mod:`games.seat_holders`.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

import engines
from games import listings, seat_holders, spectator
from games.records import replay


@require_GET
def game_boards(request: HttpRequest, pk: int) -> HttpResponse:
    """``?seat=spectator|N&start=P&count=K``: board models of positions P .. P+K-1."""
    game = get_object_or_404(listings.games_with_seats(), pk=pk)
    try:
        engines.get(game.engine)
    except engines.InvalidGame:
        return JsonResponse({"error": f"no engine {game.engine!r} on this server"}, status=404)
    raw_seat = request.GET.get("seat", "")
    held: frozenset[int] = frozenset()
    if raw_seat not in ("", "spectator") and not spectator.is_public(game):
        held = seat_holders.seats_held_by(game, request.user)  # asked only when it matters
    try:
        page = replay.replay_page(
            game, raw_seat, request.GET.get("start", ""), request.GET.get("count", ""), held=held
        )
    except replay.ReplayError as error:
        return JsonResponse({"error": str(error)}, status=error.status)
    response = JsonResponse(page.as_dict())
    response["Cache-Control"] = "no-store" if not page.public else "private, max-age=60"
    return response

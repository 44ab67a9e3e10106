"""``/games/<id>/verify/``: a game's audit against its seed, for people to read.

The same audit as ``GET /api/v1/games/{id}/verify/`` and ``manage.py
verify_game`` (``games.records.verification``), shown as checks in words
(``games.records.verify_checks``). A game whose record is not public yet gets
the page too, saying why it cannot be verified yet, and nothing of its seed.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

import engines
from games import listings, spectator
from games.records import verify_checks
from games.records.export import why_not_public
from games.records.verification import verify_game


@require_GET
def verify_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Every check of the audit, passed or failed, or why the game cannot be audited yet."""
    game = get_object_or_404(listings.games_with_seats(), pk=pk)
    context: dict[str, object] = {
        "game": game,
        "engine_name": listings.engine_name(game.engine),
    }
    if not spectator.is_public(game):
        context["not_yet"] = why_not_public(game)
        return render(request, "tournaments/verify.html", context)
    report = verify_game(game)
    context.update(
        report=report,
        checks=verify_checks.checks(report, game.engine_version, engines.get(game.engine).version),
    )
    return render(request, "tournaments/verify.html", context)

"""``/rules/`` and ``/rules/<engine>/``: each game's rules for players, server-rendered.

The pages are written from ``docs/engines/*.md`` in players' words; they hold
no game data, so they are the same for everyone and cost no query.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

import engines
from web.rules.figures import FIGURES

GAMES = ("manila", "batavia", "cargo_noir", "grog_island")
"""The games with a rules page, in the order the index lists them."""


def _entries() -> list[dict[str, str]]:
    return [{"slug": slug, "name": engines.get(slug).name} for slug in GAMES]


@require_GET
def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/index.html", {"games": _entries()})


@require_GET
def rules_page(request: HttpRequest, engine: str) -> HttpResponse:
    if engine not in FIGURES:
        raise Http404(f"no rules page for {engine!r}")
    return render(
        request,
        f"rules/{engine}.html",
        {"game": engines.get(engine), "figures": FIGURES[engine](), "games": _entries()},
    )

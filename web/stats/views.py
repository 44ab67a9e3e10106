"""The bot's public page, and the one address that leads to any competitor's page.

Only gathering and rendering: the numbers come from :mod:`stats.selectors.pages`. The
bot page shows a bot's public fields only (name, owner, engines, description,
status, visibility); its endpoint, secret, pull token, health and status
reason are its owner's business (the bot API), never shown here.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

import engines
from botapi.models import Bot
from botapi.selectors import anchors
from games.models import Competitor
from games.selectors import listings
from stats.selectors.pages import competitor_sections
from web.cache import invalidation
from web.cache.lazy import lazy


def competitor_url(competitor: Competitor) -> str | None:
    """The page of a bot (``/bots/<owner>/<name>/``) or a person (``/people/<username>/``)."""
    if competitor.kind == Competitor.Kind.BOT:
        bot = Bot.objects.filter(competitor=competitor).select_related("owner").first()
        if bot is None:
            return None
        return reverse("stats:bot", args=[bot.owner.get_username(), bot.name])
    if competitor.user is None or not competitor.user.is_active:
        return None
    return reverse("people:person", args=[competitor.user.get_username()])


@require_GET
def competitor_redirect(request: HttpRequest, pk: int) -> HttpResponse:
    """``/competitors/<id>/``: lists that know only a competitor's id link here (a 302)."""
    competitor = get_object_or_404(Competitor.objects.select_related("user"), pk=pk)
    url = competitor_url(competitor)
    if url is None:
        raise Http404("this competitor has no public page")
    return redirect(url)


@require_GET
def bot_page(request: HttpRequest, owner: str, name: str) -> HttpResponse:
    """A bot's public fields and its competitor sections (a fragment, read only when missing)."""
    bot = get_object_or_404(
        Bot.objects.select_related("owner", "competitor"),
        owner__username=owner,
        owner__is_active=True,
        name=name,
    )
    query = request.GET
    return render(
        request,
        "stats/bot.html",
        {
            "bot": bot,
            "owner": bot.owner.get_username(),
            "engine_names": [listings.engine_name(slug) for slug in bot.engines],
            "stats": lazy(lambda: competitor_sections(bot.competitor, query)),
            "query": request.META.get("QUERY_STRING", ""),
            "fragments": invalidation.fragments(
                invalidation.bot(owner, name), invalidation.EVENTS, invalidation.RECOMPUTE
            ),
        },
    )


@require_GET
def anchors_page(request: HttpRequest) -> HttpResponse:
    """``/anchors/``: what each house anchor is, and where it stands on each global ladder."""
    slugs = [engine.slug for engine in engines.all_engines()]
    rows = [
        {
            "row": row,
            "url": reverse("stats:bot", args=[row.bot.owner.get_username(), row.bot.name])
            if row.bot is not None
            else "",
            "scores": [row.scores.get(slug) for slug in slugs],
        }
        for row in anchors.anchor_rows()
    ]
    return render(
        request,
        "stats/anchors.html",
        {"rows": rows, "engines": [(slug, listings.engine_name(slug)) for slug in slugs]},
    )

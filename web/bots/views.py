"""The bot owner's page ``/bots/<id>/log/``: health, reactivation, chart, log, versions, alerts.

Only gathering and rendering; the rules are in ``services``, ``owner_log``,
``owner_stats``, ``versions`` and ``alerts``. The page is its owner's alone:
anyone else -- another user, the staff too (the admin is their tool) -- gets
the 404 of a bot that does not exist, so nobody learns that it does. An
anonymous visitor is sent to sign in, for every id alike. It answers in a
fixed number of queries whatever the size of the log (a test counts them).

The chart, the log and the versions are the same on every view until the bot
moves, a result is recorded or a name changes, so they are kept as one
fragment of the page cache (``web.cache.pagecache.fragment``), keyed on the
bot, the query string, the day (the chart's window), its unfinished games' ply
counts (``owner_log.log_marker``) and the tokens of the bot's public page
(``pagecache_tokens.bot_page``: any game of any of its versions, a recompute,
an event's or anyone's name). A bot with no game in play has an empty marker,
and keeps it until a game seating it is created, which bumps those tokens: so
once read empty it is not read again until they change.
The bot's row and alerts, with its health facts, alerts list and webhook field
rendered, are kept per bot (``owner_cache``) until the bot, its competitor or
an alert is written; the ownership check reads the kept row's owner, first, on
every request. While the bot has a game in play, the marker is read (one
query; none for an idle bot). The whole page is then kept under everything it
is made of (``pagecache.made_of``: those parts, the owner, their address, the
path), around the site header and without its CSRF tokens' values, which are
put back per response; so a warm view renders no template. A view with a
message to show (after one of the forms) is rendered.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from botapi import owner_stats, services, versions
from botapi.models import Bot
from botapi.owner_log import log_marker, log_page
from web.bots.forms import LogFilterForm, WebhookForm
from web.cache import owner_page as owner_cache
from web.cache import pagecache
from web.cache import prefetch as cache_prefetch
from web.cache import tokens as pagecache_tokens
from web.http.throttling import ScopedRateThrottle

NOT_YOURS = "no such bot among yours"


def _own_bot(request: HttpRequest, bot_id: int) -> Bot:
    """The signed-in user's bot ``bot_id``; 404 for any other, exactly as for a missing one."""
    bot = Bot.objects.select_related("competitor").filter(pk=bot_id, owner=request.user).first()
    if bot is None:
        raise Http404(NOT_YOURS)
    return bot


def _page_url(bot: Bot, anchor: str = "") -> str:
    return reverse("botlog:log", args=[bot.pk]) + (f"#{anchor}" if anchor else "")


@dataclass(frozen=True)
class OwnerPage:
    """The per-bot part of the page, kept by ``owner_cache`` until the bot or its alerts change:
    the bot's row and its health facts, alerts and webhook field as HTML (no CSRF token, no
    user: nothing in them is the viewer's)."""

    bot: Bot
    health: str
    alerts: str
    webhook_field: str


def _owner_page(bot_id: int) -> OwnerPage | None:
    found = owner_cache.rows(bot_id)
    if found is None:
        return None
    bot, alerts = found
    field = WebhookForm(initial={"alert_webhook_url": bot.alert_webhook_url})["alert_webhook_url"]
    return OwnerPage(
        bot,
        health=render_to_string(
            "botapi/owner_health.html",
            {"bot": bot, "suspend_after": settings.BOT_SUSPEND_AFTER_FAULTY_GAMES},
        ),
        alerts=render_to_string("botapi/owner_alerts.html", {"alerts": alerts}),
        webhook_field=format_html(
            '<label for="{}">{}</label>\n  {}', field.id_for_label, field.label, field
        ),
    )


def _reads_batched(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view`` with the owner's user, "may a game wait", kept header and the bot's kept part
    read in one cache round trip, once the session is (``web.cache.prefetch``).

    Outside ``login_required``, which reads the user. The batch lasts through the view:
    every writer of these keys (``web.cache.versioned``, ``pagecache.site_header``) drops what
    it writes from the batch, so a value the view stores is read from the cache again.
    """

    @functools.wraps(view)
    def batched(request: HttpRequest, bot_id: int) -> HttpResponse:
        person = pagecache.signed_in_keys(request)
        if not person:  # nobody signed in: sent to sign in, nothing to read
            return view(request, bot_id)
        with cache_prefetch.prefetched([*person, *owner_cache.keys(bot_id)]):
            return view(request, bot_id)

    return batched


@_reads_batched
@login_required
@require_GET
def bot_log(request: HttpRequest, bot_id: int) -> HttpResponse:
    page = owner_cache.read(bot_id, lambda: _owner_page(bot_id))
    if page is None or page.bot.owner_id != request.user.pk:  # first: the owner's alone
        raise Http404(NOT_YOURS)
    bot = page.bot
    key = [
        "owner-log",
        str(bot.pk),
        request.META.get("QUERY_STRING", ""),
        timezone.now().date().isoformat(),
    ]
    depends = pagecache_tokens.bot_page(None, request.user.get_username(), bot.name)  # the owner
    # The marker is quiet ("") while the bot has no game in play, until a game seating it is
    # created, which bumps its token (``games.creation.create_game``).
    sections = pagecache.fragment(
        key, depends, lambda: _sections(request, bot), marker=lambda: log_marker(bot)
    )
    context = {
        "bot": bot,
        "page": {  # rendered by our own templates, escaped there
            "health": mark_safe(page.health),
            "alerts": mark_safe(page.alerts),
            "webhook_field": mark_safe(page.webhook_field),
        },
        "sections": mark_safe(sections),
        "window_days": owner_stats.WINDOW_DAYS,
    }
    # Every value owner_log.html shows outside the header, its CSRF tokens and its messages:
    # the page is kept under them (pagecache.made_of), so a change to any is a new page.
    made_of = [
        "owner-log", str(request.user.pk), request.user.email, request.path,
        bot.competitor.name, bot.status, bot.mode, page.health, page.alerts,
        page.webhook_field, sections, str(owner_stats.WINDOW_DAYS),
    ]  # fmt: skip
    return pagecache.made_of(
        request, made_of, lambda: render(request, "botapi/owner_log.html", context)
    )


def _sections(request: HttpRequest, bot: Bot) -> str:
    """The chart, the log page asked for and the versions, as HTML (no request context:
    nothing in them is the viewer's)."""
    filters = LogFilterForm(request.GET)
    wanted = filters.log_filter()
    page = log_page(bot, wanted)
    days = owner_stats.daily_stats(bot)
    chain = versions.version_chain(bot)
    query = {k: v for k, v in (("fault", wanted.fault), ("game", wanted.game)) if v}
    older = urlencode({**query, "before": page.next_cursor}) if page.next_cursor else None
    return render_to_string(
        "botapi/owner_log_sections.html",
        {
            "bot": bot,
            "filters": filters,
            "filtered": bool(query),
            "wanted": wanted,
            "page": page,
            "older_query": older,
            "newest_query": urlencode(query) if wanted.before else None,
            "chart": owner_stats.chart_data(days),
            "window_days": owner_stats.WINDOW_DAYS,
            "window_moves": sum(day.moves for day in days),
            "window_faults": sum(day.faults for day in days),
            "chain": chain,
            "versions": _versions(chain),
            "head_to_head": versions.head_to_head(chain),
        },
    )


@login_required
@require_POST
def reactivate(request: HttpRequest, bot_id: int) -> HttpResponse:
    """The Reactivate button: ``services.reactivate_bot`` (a push bot is pinged first)."""
    bot = _own_bot(request, bot_id)
    wait = _ping_throttled(request)
    if wait is not None:
        messages.error(request, f"Too many pings: try again in {wait} s.")
    else:
        try:
            services.reactivate_bot(bot)
        except services.BotConflict as refused:
            messages.error(request, f"Not reactivated: {refused.message}")
        else:
            messages.success(request, f"{bot.name} is active again and will be seated in games.")
    return redirect(_page_url(bot, "health"))


@login_required
@require_POST
def set_webhook(request: HttpRequest, bot_id: int) -> HttpResponse:
    """Set or remove the alert webhook URL (the SSRF guard checks it as it does endpoints)."""
    bot = _own_bot(request, bot_id)
    form = WebhookForm(request.POST)
    if form.is_valid():
        url = form.cleaned_data["alert_webhook_url"]
        services.update_bot(bot, {"alert_webhook_url": url})
        messages.success(
            request, "Alerts will also be POSTed to that URL." if url else "Webhook removed."
        )
    else:
        problems = "; ".join(form.errors.get("alert_webhook_url", ["invalid"]))
        messages.error(request, f"Webhook not saved: {problems}")
    return redirect(_page_url(bot, "alerts"))


def _versions(chain: list[Bot]) -> list[SimpleNamespace]:
    """Each version with its ratings, oldest first, for the template."""
    ratings = versions.ratings_by_version(chain)
    return [SimpleNamespace(bot=version, ratings=ratings[version.pk]) for version in chain]


def _ping_throttled(request: HttpRequest) -> int | None:
    """Seconds to wait if the user's ping budget (the API's ``bot-ping`` scope) is spent.

    Reactivating pings a URL of the user's choosing, so the button counts
    against the same per-user budget as the API's ping and reactivate calls.
    """
    throttle = ScopedRateThrottle()
    if throttle.allow_request(request, SimpleNamespace(throttle_scope="bot-ping")):
        return None
    return max(1, round(throttle.wait() or 1))

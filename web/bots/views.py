"""The bot owner's page ``/bots/<id>/log/``: health, reactivation, chart, log, versions, alerts.

Only gathering and rendering; the rules are in ``services``, ``owner_log``,
``owner_stats``, ``versions`` and ``alerts``. The page is its owner's alone:
anyone else -- another user, the staff too (the admin is their tool) -- gets
the 404 of a bot that does not exist, so nobody learns that it does. An
anonymous visitor is sent to sign in, for every id alike. It answers in a
fixed number of queries whatever the size of the log (a test counts them).

The chart, the log and the versions are the same on every view until the bot
moves, a result is recorded or a name changes, so they are one ``{% cache %}``
fragment (``owner_log.html``) keyed on the bot, the query string, the day (the
chart's window), its unfinished games' ply counts (``owner_log.log_marker``:
moves bump no version) and the versions of the bot's public page
(``web.cache.invalidation``: any game of any of its versions, a recompute, an
event's or anyone's name). The rest -- health, alerts, forms, messages -- is
rendered on every request: two small queries.
"""

from __future__ import annotations

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
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET, require_POST

from botapi.models import Bot, BotAlert
from botapi.selectors import owner_stats, versions
from botapi.selectors.owner_log import log_marker, log_page
from botapi.services import bots as services
from web.bots.forms import LogFilterForm, WebhookForm
from web.cache import invalidation
from web.http.throttling import ScopedRateThrottle

NOT_YOURS = "no such bot among yours"
RECENT_ALERTS = 10


def _own_bot(request: HttpRequest, bot_id: int) -> Bot:
    """The signed-in user's bot ``bot_id``; 404 for any other, exactly as for a missing one."""
    bot = Bot.objects.select_related("competitor").filter(pk=bot_id, owner=request.user).first()
    if bot is None:
        raise Http404(NOT_YOURS)
    return bot


def _page_url(bot: Bot, anchor: str = "") -> str:
    return reverse("botlog:log", args=[bot.pk]) + (f"#{anchor}" if anchor else "")


@login_required
@require_GET
def bot_log(request: HttpRequest, bot_id: int) -> HttpResponse:
    bot = _own_bot(request, bot_id)  # first: the owner's alone
    field = WebhookForm(initial={"alert_webhook_url": bot.alert_webhook_url})
    context = {
        "bot": bot,
        "alerts": list(BotAlert.objects.filter(bot_id=bot.pk)[:RECENT_ALERTS]),
        "suspend_after": settings.BOT_SUSPEND_AFTER_FAULTY_GAMES,
        "webhook_form": field,
        # The fragment's key: the bot page's versions, what the query asks, the day, the games
        # in play; its content is rendered only when the fragment is missing.
        "fragments": invalidation.fragments(
            invalidation.bot(request.user.get_username(), bot.name),
            invalidation.EVENTS,
            invalidation.RECOMPUTE,
        ),
        "query": request.META.get("QUERY_STRING", ""),
        "day": timezone.now().date().isoformat(),
        "marker": log_marker(bot),
        "sections": SimpleLazyObject(lambda: _sections(request, bot)),
        "window_days": owner_stats.WINDOW_DAYS,
    }
    return render(request, "botapi/owner_log.html", context)


def _sections(request: HttpRequest, bot: Bot) -> SafeString:
    """The chart, the log page asked for and the versions, as HTML (no request context:
    nothing in them is the viewer's)."""
    filters = LogFilterForm(request.GET)
    wanted = filters.log_filter()
    page = log_page(bot, wanted)
    days = owner_stats.daily_stats(bot)
    chain = versions.version_chain(bot)
    query = {k: v for k, v in (("fault", wanted.fault), ("game", wanted.game)) if v}
    older = urlencode({**query, "before": page.next_cursor}) if page.next_cursor else None
    return mark_safe(  # our own template, escaped there
        render_to_string(
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

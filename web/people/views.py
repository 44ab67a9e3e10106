"""The profile page (``/me/``) and the public person page (``/people/<username>/``).

Only gathering and rendering: the data comes from :mod:`people.selectors`; writes go
through :mod:`people.services`.
"""

from __future__ import annotations

import math
from typing import Any

from allauth.account.views import LoginView
from allauth.core.internal.ratelimit import get_rates
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods
from rest_framework.authtoken.models import Token

from games import cursor as game_cursor
from games.models import Competitor
from people import selectors, services
from stats.pages import competitor_sections
from web.cache import tokens as pagecache_tokens
from web.cache.pagecache import cached_page
from web.http import login_throttle
from web.people import waiting
from web.people.forms import ConsentForm

TOKEN_HINT_LENGTH = 6


@login_required
@require_http_methods(["GET", "POST"])
def me(request: HttpRequest) -> HttpResponse:
    """Everything about the signed-in person, and the one setting they change here: consent."""
    profile = services.ensure_person(request.user)
    saved = False
    if request.method == "POST":
        form = ConsentForm(request.POST)
        if form.is_valid():
            services.set_consent(request.user, form.cleaned_data["accepts_bot_opponents"])
            return redirect(reverse("people:me") + "?saved=1")
    else:
        form = ConsentForm(initial={"accepts_bot_opponents": profile.accepts_bot_opponents})
        saved = request.GET.get("saved") == "1"
    token = Token.objects.filter(user=request.user).first()
    return render(
        request,
        "people/me.html",
        {
            "profile": profile,
            "person": profile.competitor,
            "form": form,
            "saved": saved,
            "ratings": selectors.ratings_by_scope(profile.competitor),
            **_games_section(request, profile.competitor),
            "bots": selectors.bots_of(request.user),
            "token_hint": token.key[:TOKEN_HINT_LENGTH] if token else None,
        },
    )


@require_GET
def waiting_json(request: HttpRequest) -> HttpResponse:
    """``/me/waiting.json``: the games waiting for the person's move, polled by the badge.

    Anonymous: a 403 with a sentence rather than the sign-in redirect, since a
    script asks, not a person (the badge stops polling on it). Never cached:
    it changes with every move.
    """
    if not request.user.is_authenticated:
        response = JsonResponse({"error": "sign in to see the games waiting for you"}, status=403)
    else:
        games = waiting.games_waiting_for(request.user)
        response = JsonResponse({"games": [game.as_dict() for game in games]})
    response["Cache-Control"] = "no-store"
    return response


@require_GET
@cached_page(depends=pagecache_tokens.person_page)
def person_page(request: HttpRequest, username: str) -> HttpResponse:
    """What anyone may see of a person: name, ratings by scope, and the competitor sections
    (rating history, results by seat, head-to-head, games), as on a bot's page."""
    profile = selectors.profile_of_username(username)
    if profile is None:
        raise Http404(f"nobody is called {username!r}")
    return render(
        request,
        "people/person.html",
        {
            "person": profile.competitor,
            "username": profile.user.get_username(),
            "since": profile.user.date_joined,
            "ratings": selectors.ratings_by_scope(profile.competitor),
            "stats": competitor_sections(profile.competitor, request.GET),
        },
    )


def _games_section(request: HttpRequest, competitor: Competitor) -> dict[str, object]:
    """The "Recent games" section's context: a page of the person's games by ``?before=``."""
    before = game_cursor.requested(request.GET)
    page = selectors.recent_games(competitor, before)
    return {
        "games": page.games,
        "older": page.older,
        "older_url": request.path,
        "newest_url": request.path if before is not None else "",
    }


class ThrottledLoginView(LoginView):
    """allauth's sign-in; an attempt either login limit refused answers 429 with Retry-After.

    The form already says why (``web.people.adapter``, or allauth's own "too many
    failed login attempts"); the status tells scripts, as the admin's login
    page and the API's token exchange do. Two limits apply: the project's
    throttle (``web.http.login_throttle``) and allauth's ``login_failed``
    rate limit (``ACCOUNT_RATE_LIMITS``), which allauth itself reports as a
    form error with status 200.
    """

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        refused = login_throttle.refusal(request)
        if refused is not None and response.status_code == 200:
            response.status_code = 429
            response["Retry-After"] = str(refused.retry_after)
        return response

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if response.status_code == 200 and ALLAUTH_LOCKED in _error_codes(form):
            response.status_code = 429
            response["Retry-After"] = str(allauth_lock_seconds())
        return response


ALLAUTH_LOCKED = "too_many_login_attempts"
"""The code of allauth's form error when its ``login_failed`` rate limit refuses a sign-in."""


def _error_codes(form: Any) -> set[str]:
    return {error.code for errors in form.errors.as_data().values() for error in errors}


def allauth_lock_seconds() -> int:
    """An upper bound on how long allauth's ``login_failed`` lock lasts: its longest period.

    allauth keeps the times of counted failures for each rate's period, and a
    refused attempt adds none to the rate that refused it, so once the longest
    period has passed every failure counted until now has expired.
    """
    rates = get_rates(app="allauth.account", action="login_failed")
    return math.ceil(max((rate.duration for rate in rates), default=1))

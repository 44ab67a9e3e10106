"""The profile page (``/me/``) and the public person page (``/people/<username>/``).

Only gathering and rendering: the data comes from :mod:`people.selectors`; writes go
through :mod:`people.services`.
"""

from __future__ import annotations

from typing import Any

from allauth.account.views import LoginView
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods
from rest_framework.authtoken.models import Token

from games.models import Competitor
from games.selectors import cursor as game_cursor
from people import selectors, services
from stats.selectors.pages import competitor_sections
from web.cache import invalidation
from web.cache.lazy import lazy
from web.http import login_limit
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
def person_page(request: HttpRequest, username: str) -> HttpResponse:
    """What anyone may see of a person: name, ratings by scope, and the competitor sections
    (rating history, results by seat, head-to-head, games), as on a bot's page; the ratings
    and sections one fragment, read only when missing."""
    profile = selectors.profile_of_username(username)
    if profile is None:
        raise Http404(f"nobody is called {username!r}")
    competitor, query = profile.competitor, request.GET
    name = profile.user.get_username()
    return render(
        request,
        "people/person.html",
        {
            "person": competitor,
            "username": name,
            "since": profile.user.date_joined,
            "ratings": lazy(lambda: selectors.ratings_by_scope(competitor)),
            "stats": lazy(lambda: competitor_sections(competitor, query)),
            "query": request.META.get("QUERY_STRING", ""),
            "fragments": invalidation.fragments(
                invalidation.person(name), invalidation.EVENTS, invalidation.RECOMPUTE
            ),
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
    """allauth's sign-in; an attempt the login limit refused answers 429 with Retry-After.

    The form already says why (allauth's "too many failed login attempts",
    from its ``login_failed`` rate limit, ``web.http.login_limit``), but with
    status 200; the status tells scripts, as the admin's login page and the
    API's token exchange do.
    """

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if response.status_code == 200 and login_limit.refused(form):
            return login_limit.too_many(response)
        return response

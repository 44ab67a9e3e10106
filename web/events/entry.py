"""The tournament page's enter, withdraw and check-in buttons for a signed-in visitor.

A person enters only themselves; check-in is for any entry the visitor speaks
for (themselves, or one of their bots).

Thin: ``tournaments.events.enter`` and ``withdraw`` decide, with the same
checks as the API's ``{"person": ...}`` entry (the league's pool, consent to
bot opponents in rated games, approval, the event's state);
``tournaments.events.check_in`` likewise for check-in, as the API's
``check-in/`` does. A refusal is a message on the page, and changed nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from people import services as person_services
from tournaments import events
from tournaments.models import Entrant
from tournaments.selectors import listings as event_listings


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


@require_POST
def enter(request: HttpRequest, pk: int) -> HttpResponse:
    """Enter the signed-in person in the event (an anonymous visitor signs in first)."""
    page = reverse("tournaments:tournament", args=[pk])
    if not request.user.is_authenticated:
        return redirect_to_login(page, settings.LOGIN_URL)
    tournament = get_object_or_404(event_listings.public_tournaments(), pk=pk)
    me = person_services.ensure_person(request.user).competitor
    try:
        entrant = events.enter(tournament, me, by=request.user)
    except events.EventError as exc:
        messages.error(request, _sentence(str(exc)))
    else:
        if entrant.status == Entrant.Status.PENDING:
            messages.success(request, "You are entered; the organiser approves entries.")
        else:
            messages.success(request, f"You are entered in {tournament.name}.")
    return redirect(page + "#my-entry")


@require_POST
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    """Take the signed-in person out of the event again, before it starts."""
    page = reverse("tournaments:tournament", args=[pk])
    if not request.user.is_authenticated:
        return redirect_to_login(page, settings.LOGIN_URL)
    tournament = get_object_or_404(event_listings.public_tournaments(), pk=pk)
    me = person_services.ensure_person(request.user).competitor
    entrant = Entrant.objects.filter(tournament=tournament, competitor=me).first()
    if entrant is None:
        messages.error(request, f"You are not entered in {tournament.name}.")
    elif tournament.status != tournament.Status.ENTRIES_OPEN:
        messages.error(
            request,
            f"{tournament.name} is {tournament.get_status_display()}: you withdraw yourself "
            "only while entries are open (the organiser can take you out once it runs).",
        )
    else:
        try:
            events.withdraw(entrant, reason="withdrew themselves", by=request.user)
        except events.EventError as exc:
            messages.error(request, _sentence(str(exc)))
        else:
            messages.success(request, f"You withdrew from {tournament.name}.")
    return redirect(page + "#my-entry")


@require_POST
def check_in(request: HttpRequest, pk: int) -> HttpResponse:
    """Check in the entry named by the form's ``entrant`` (the visitor's own, or their bot's)."""
    page = reverse("tournaments:tournament", args=[pk])
    if not request.user.is_authenticated:
        return redirect_to_login(page, settings.LOGIN_URL)
    tournament = get_object_or_404(event_listings.public_tournaments(), pk=pk)
    entrant_id = request.POST.get("entrant", "")
    entrant = None
    if entrant_id.isdigit():
        entrant = (
            Entrant.objects.filter(tournament=tournament, pk=int(entrant_id))
            .select_related("competitor")
            .first()
        )
    if entrant is None:
        messages.error(request, f"That entry is not in {tournament.name}: reload the page.")
        return redirect(page + "#my-entry")
    try:
        events.check_in(entrant, by=request.user)
    except events.EventError as exc:
        messages.error(request, _sentence(str(exc)))
    else:
        messages.success(request, f"{entrant.competitor.name} is checked in.")
    return redirect(page + "#my-entry")

"""``bench.pages``'s URLs: the site's own, and a trivial view to measure the pages against."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import include, path


def trivial(request: HttpRequest) -> HttpResponse:
    """The floor: the middleware and the test client, no query, no template."""
    return HttpResponse("ok")


def trivial_user(request: HttpRequest) -> HttpResponse:
    """The floor of a page that must know who asks (owner-only pages): the session and user read."""
    return HttpResponse(request.user.get_username())


def one_query(request: HttpRequest) -> HttpResponse:
    """The floor of a page that reads the database at all: one query by primary key."""
    from games.models import Game

    return HttpResponse(str(Game.objects.filter(pk=1).values_list("engine", flat=True).first()))


def empty(request: HttpRequest) -> HttpResponse:
    """The floor of a page: the site's base template with nothing in it."""
    return render(request, "base.html")


urlpatterns = [
    path("__bench__/trivial/", trivial),
    path("__bench__/user/", trivial_user),
    path("__bench__/query/", one_query),
    path("__bench__/empty/", empty),
    path("", include("harbormaster.urls")),
]

"""The lobby's pages, their JSON, and the buttons' POSTs; the rules are in :mod:`lobby.services`.

Pages are readable by anyone; every POST needs a signed-in person (an
anonymous one is sent to sign in and comes back to the page) and CSRF. A
refusal becomes a message on the page the visitor came from, and changed
nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from lobby import selectors as listings
from lobby import services, time_controls
from lobby.models import LobbyTable
from people.models import Profile
from web.cache import invalidation
from web.cache.lazy import lazy
from web.lobby.forms import FIELD_OF_CODE, SEAT_FIELDS, CreateTableForm

POLL_MS = 2500


def _signed_in_post(next_page: Callable[..., str]) -> Callable:
    """POST only; an anonymous visitor goes to sign in, then back to ``next_page(**kwargs)``."""

    def decorate(view: Callable) -> Callable:
        @require_POST
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(next_page(**kwargs), settings.LOGIN_URL)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def _table_page(pk: int, **_: Any) -> str:
    return reverse("lobby:table", args=[pk])


def _lobby_page(**_: Any) -> str:
    return reverse("lobby:lobby")


# ------------------------------------------------------------------ the lobby
def _lists_context(request: HttpRequest) -> dict[str, Any]:
    """What the lobby's lists show (the page and its JSON alike), read on first use: a visitor's
    lists are one fragment of the page, the same for every visitor (``lobby.html``)."""
    user = request.user
    return {
        "tables": lazy(lambda: listings.open_tables(user)),
        "your_tables": lazy(lambda: listings.your_open_tables(user)),
        "your_games": lazy(lambda: listings.your_running_games(user)),
        "live_games": lazy(lambda: listings.live_games(user)),
        # Read only for a visitor, whose lists are the fragment (lobby.html).
        "fragments": lazy(lambda: invalidation.fragments(invalidation.LOBBY, invalidation.RESULTS)),
    }


def _lobby_context(request: HttpRequest, form: CreateTableForm | None = None) -> dict[str, Any]:
    user = request.user
    if form is None and user.is_authenticated:
        form = CreateTableForm()
    return {
        **_lists_context(request),
        "form": form,
        "engines": listings.engine_choices(),
        "bots": listings.bot_choices(user),
        "seat_rows": _seat_rows(form),
        "accepts_bots": _accepts_bots(user),
        "time_controls": time_controls.TIME_CONTROLS,
        "poll_ms": POLL_MS,
    }


def _seat_rows(form: CreateTableForm | None) -> list[dict[str, Any]]:
    """The form's other seats: field name, seat number as people count (2…), chosen value."""
    if form is None:
        return []
    values = form.seat_values()
    return [
        {"name": name, "number": n + 2, "value": values[n]} for n, name in enumerate(SEAT_FIELDS)
    ]


def _accepts_bots(user: Any) -> bool:
    if not user.is_authenticated:
        return False
    return bool(
        Profile.objects.filter(user=user).values_list("accepts_bot_opponents", flat=True).first()
    )


@require_GET
def lobby_page(request: HttpRequest) -> HttpResponse:
    """``/lobby/``: open tables, the visitor's own tables and games, and the form for a new one."""
    return render(request, "lobby/lobby.html", _lobby_context(request))


@never_cache
@require_GET
def tables_json(request: HttpRequest) -> JsonResponse:
    """``/lobby/tables.json``: the lists of the lobby page, as data and as the page's HTML."""
    context = _lists_context(request)
    return JsonResponse(
        {
            "tables": [listings.table_json(view) for view in context["tables"]],
            "yourTables": [listings.table_json(view) for view in context["your_tables"]],
            "yourGames": [
                {
                    "id": summary.game.pk,
                    "engineName": summary.engine_name,
                    "playUrl": reverse("tournaments:play", args=[summary.game.pk]),
                }
                for summary in context["your_games"]
            ],
            "liveGames": [
                {
                    "id": summary.game.pk,
                    "engineName": summary.engine_name,
                    "watchUrl": reverse("tournaments:play", args=[summary.game.pk]),
                }
                for summary in context["live_games"]
            ],
            "html": render_to_string("lobby/_lists.html", context, request=request),
        }
    )


@_signed_in_post(_lobby_page)
def create_table(request: HttpRequest) -> HttpResponse:
    """POST ``/lobby/tables/``: the form's table, or the form again with what to change."""
    form = CreateTableForm(request.POST)
    if form.is_valid():
        try:
            table = services.create_table(
                request.user,
                form.cleaned_data["engine"],
                form.cleaned_data["num_players"],
                form.cleaned_data["time_control"],
                form.cleaned_data["rated"],
                form.seats(),
            )
        except ValidationError as exc:  # a seat that is not a bot's number
            form.add_error(None, exc)
        except services.LobbyError as exc:
            form.add_error(FIELD_OF_CODE.get(exc.code), exc.message)
        else:
            return _after(table, request, "Your table is open: others can join it now.")
    return render(request, "lobby/lobby.html", _lobby_context(request, form), status=400)


# ------------------------------------------------------------------ one table
def _view_or_404(request: HttpRequest, pk: int) -> listings.TableView:
    view = listings.table_of(pk, request.user)
    if view is None:
        raise Http404(f"there is no table {pk}")
    return view


def _table_context(request: HttpRequest, view: listings.TableView) -> dict[str, Any]:
    bots = listings.bot_choices(request.user) if view.you_host and view.table.is_open else []
    return {
        "view": view,
        "table": view.table,
        "bots": [bot for bot in bots if view.table.engine in bot.engines],
        "groups": listings.GROUPS,
        "poll_ms": POLL_MS,
    }


@require_GET
def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    """``/lobby/tables/<id>/``: the seats, the host's controls, join and leave."""
    view = _view_or_404(request, pk)
    return render(request, "lobby/table.html", _table_context(request, view))


@never_cache
@require_GET
def table_json(request: HttpRequest, pk: int) -> JsonResponse:
    """``/lobby/tables/<id>.json``: the table's state, and its seats as the page's HTML."""
    view = _view_or_404(request, pk)
    data = listings.table_json(view)
    data["html"] = render_to_string(
        "lobby/_table_body.html", _table_context(request, view), request=request
    )
    return JsonResponse(data)


def _after(table: LobbyTable, request: HttpRequest, message: str) -> HttpResponse:
    """Where a successful action leads: the play page once the game runs, else the table."""
    table.refresh_from_db(fields=["status", "game", "start_problem"])
    if table.status == LobbyTable.Status.STARTED:
        return redirect("tournaments:play", pk=table.game_id)
    if table.status == LobbyTable.Status.CANCELLED:
        messages.info(request, message)
        return redirect("lobby:lobby")
    messages.success(request, message)
    return redirect("lobby:table", pk=table.pk)


def _act(
    request: HttpRequest, pk: int, action: Callable[[], LobbyTable], message: str
) -> HttpResponse:
    try:
        table = action()
    except services.LobbyError as exc:
        messages.error(request, exc.message[:1].upper() + exc.message[1:] + ".")
        if exc.code == "no_table":
            return redirect("lobby:lobby")
        return redirect("lobby:table", pk=pk)
    return _after(table, request, message)


@_signed_in_post(_table_page)
def join(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, lambda: services.join(pk, request.user), "You have a seat.")


@_signed_in_post(_table_page)
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, lambda: services.leave(pk, request.user), "You left the table.")


@_signed_in_post(_table_page)
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, lambda: services.cancel(pk, request.user), "The table is cancelled.")


@_signed_in_post(_table_page)
def start(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, lambda: services.start(pk, request.user), "Starting.")


@_signed_in_post(_table_page)
def add_bot(request: HttpRequest, pk: int) -> HttpResponse:
    bot, position = request.POST.get("bot", ""), request.POST.get("position") or None
    return _act(
        request,
        pk,
        lambda: services.add_bot(pk, request.user, bot, position),
        "The bot has its seat.",
    )


@_signed_in_post(_table_page)
def remove_seat(request: HttpRequest, pk: int) -> HttpResponse:
    position = request.POST.get("position", "")
    return _act(
        request,
        pk,
        lambda: services.remove_seat(pk, request.user, position),
        "The seat is open for a person again.",
    )

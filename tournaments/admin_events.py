"""The organiser's admin: leagues and tournaments, run through the event services.

Every step of an event -- open entries, enter and approve entrants, start,
pause, resume, withdraw or disqualify an entrant, cancel -- is a POST to a
page of this admin that calls one function of ``tournaments.events`` and
nothing else; an ``EventError`` becomes an error message and, since each call
runs in one transaction, changes nothing. The fields those services own
(status, seeds, current round, times) are read-only here, and the settings
that shape pairing are read-only once the event runs, so no form can move an
event into a state its rounds disagree with.

The event seed is secret until ``events.event_seed_revealed`` says the event
is over: no form carries it, and the change page shows only its commitment.
The change page puts what needs the organiser first: the status, and the
problems ``events.problems`` finds (a stuck round and why).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.views.decorators.http import require_POST

from . import events
from .admin import NamesProtectedRecords
from .admin_forms import AddEntrantsForm, LeagueForm, ReasonForm, TournamentForm, arena_refusal
from .models import ArenaEntry, Entrant, Game, League, Tournament

Status = Tournament.Status

SERVICE_OWNED = (
    "status",
    "status_reason",
    "seed_commitment",
    "event_seed",
    "current_round",
    "organiser",
    "started_at",
    "finished_at",
)
"""Written only by ``tournaments.events``: shown, never edited."""

PAIRING = (
    "engine",
    "options",
    "league",
    "format",
    "duplicate",
    "table_size",
    "min_table_size",
    "rounds",
    "bye_points",
    "advance_per_table",
    "move_time_ms",
    "time_bank_ms",
    "rated",
)
"""Settings that shape rounds, games and ratings: fixed once the event runs."""

BEFORE_START = (Status.DRAFT, Status.ENTRIES_OPEN)
UNDER_WAY = (Status.RUNNING, Status.PAUSED)
OVER = (Status.FINISHED, Status.CANCELLED)
SEED_HIDDEN = "secret until the event ends"


def public_page(tournament: Tournament) -> str:
    """The tournament's public page (``/tournaments/<id>/``)."""
    return f"/tournaments/{tournament.pk}/"


@dataclass(frozen=True)
class EventAction:
    """A step of the event the change page offers as a button."""

    name: str
    label: str
    asks_reason: bool = False
    reason_required: bool = False
    statuses: tuple[str, ...] = ()
    explanation: str = ""


EVENT_ACTIONS = {
    action.name: action
    for action in (
        EventAction(
            "open_entries",
            "Open entries",
            statuses=(Status.DRAFT,),
            explanation="Owners may enter their bots and people themselves; you can add more.",
        ),
        EventAction(
            "start",
            "Start",
            statuses=BEFORE_START,
            explanation="Publishes the seed commitment, pairs round 1 and starts its games.",
        ),
        EventAction(
            "pause",
            "Pause",
            asks_reason=True,
            statuses=(Status.RUNNING,),
            explanation="Games under way play out; no new round is paired until you resume.",
        ),
        EventAction(
            "resume",
            "Resume",
            statuses=(Status.PAUSED,),
            explanation="Pairs the next round if the last one has finished.",
        ),
        EventAction(
            "cancel",
            "Cancel the event",
            asks_reason=True,
            reason_required=True,
            statuses=(*BEFORE_START, *UNDER_WAY),
            explanation="Ends the event for good: games under way are stopped, no standings.",
        ),
    )
}

ENTRANT_ACTIONS = {
    "approve": EventAction("approve", "Approve"),
    "withdraw": EventAction(
        "withdraw",
        "Withdraw",
        asks_reason=True,
        reason_required=True,
        explanation="The entrant leaves the event: not paired again; a game under way is "
        "forfeited or finished by the house bot, unrated for that seat.",
    ),
    "disqualify": EventAction(
        "disqualify",
        "Disqualify",
        asks_reason=True,
        reason_required=True,
        explanation="Like a withdrawal, but recorded as a disqualification.",
    ),
}


def run_service(request: HttpRequest, done: str, call: Callable[[], Any]) -> bool:
    """Call one service in a transaction; its EventError becomes an error message.

    True when it succeeded (and ``done`` was shown as a success message).
    The transaction makes "nothing changed" hold even for a service that
    wrote before it refused.
    """
    try:
        with transaction.atomic():
            call()
    except events.EventError as exc:
        messages.error(request, str(exc))
        return False
    messages.success(request, done)
    return True


# --- tournaments -------------------------------------------------------------------------


class EntrantInline(admin.TabularInline):
    """Entrants as the services left them; they are added and changed by the buttons."""

    model = Entrant
    extra = 0
    can_delete = False
    fields = ("seed_order", "competitor", "status", "reason", "entered_by", "created_at")
    readonly_fields = fields
    verbose_name_plural = "entrants (change them with the buttons above the form)"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@dataclass
class GameView:
    pk: int
    url: str
    status: str
    ranks: list[int] | None


@dataclass
class TableView:
    number: int
    seats: list[str]
    games: list[GameView]


@dataclass
class RoundView:
    number: int
    status: str
    byes: list[str]
    tables: list[TableView] = field(default_factory=list)


@admin.register(Tournament)
class TournamentAdmin(NamesProtectedRecords, admin.ModelAdmin):
    form = TournamentForm
    change_form_template = "admin/tournaments/tournament/change_form.html"
    list_display = (
        "name",
        "engine",
        "format",
        "status",
        "league",
        "entrant_count",
        "current_round",
        "created_at",
    )
    list_filter = ("status", "format", "engine")
    search_fields = ("name",)
    prepopulated_fields = {"slug": ("name",)}
    actions = ("open_entries_action", "start_action", "pause_action", "resume_action")

    fieldsets = (
        (None, {"fields": ("name", "slug", "league", "engine", "options")}),
        (
            "Format",
            {
                "fields": (
                    "format",
                    "duplicate",
                    "table_size",
                    "min_table_size",
                    "rounds",
                    "bye_points",
                    "advance_per_table",
                )
            },
        ),
        ("Time control and rating", {"fields": ("move_time_ms", "time_bank_ms", "rated")}),
        ("State (kept by the event)", {"fields": SERVICE_OWNED}),
    )

    def get_fieldsets(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        if obj is None:
            return self.fieldsets[:-1]  # a new event has no state to show yet
        return self.fieldsets

    def get_inlines(self, request: HttpRequest, obj: Tournament | None) -> list[Any]:
        return [EntrantInline] if obj is not None else []

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        if obj is None:
            return SERVICE_OWNED
        if obj.status not in BEFORE_START or obj.games.exists():
            return (*SERVICE_OWNED, *PAIRING)
        if obj.entrants.exists():
            # Entrants were admitted for this engine and league's pool.
            return (*SERVICE_OWNED, "engine", "league")
        return SERVICE_OWNED

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        return super().get_queryset(request).annotate(entrant_total=Count("entrants"))

    @admin.display(description="entrants", ordering="entrant_total")
    def entrant_count(self, tournament: Tournament) -> int:
        return tournament.entrant_total

    @admin.display(description="event seed")
    def event_seed(self, tournament: Tournament) -> str:
        return events.event_seed_revealed(tournament) or SEED_HIDDEN

    def has_delete_permission(self, request: HttpRequest, obj: Tournament | None = None) -> bool:
        if obj is not None and obj.status in UNDER_WAY:
            return False  # cancel it first: its games are running
        return super().has_delete_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change and obj.organiser_id is None:
            obj.organiser = request.user
        super().save_model(request, obj, form, change)

    # --- the change page --------------------------------------------------------------

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        tournament = self.get_object(request, unquote(object_id))
        context = dict(extra_context or {})
        if tournament is not None:
            context["event"] = self.event_context(request, tournament)
        return super().change_view(request, object_id, form_url, context)

    def event_context(self, request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
        """What the change page shows above and below the settings form."""
        entrants = list(tournament.entrants.select_related("competitor"))
        names = {entrant.pk: entrant.competitor.name for entrant in entrants}
        may_change = self.has_change_permission(request, tournament)
        return {
            "status": tournament.get_status_display(),
            "status_code": tournament.status,
            "status_reason": tournament.status_reason,
            "problems": events.problems(tournament),
            "public_page": public_page(tournament),
            "actions": [
                action
                for action in EVENT_ACTIONS.values()
                if may_change and tournament.status in action.statuses
            ],
            "may_change": may_change,
            "may_add_entrants": may_change and tournament.status in BEFORE_START,
            "entrants": entrants,
            "entrant_actions": may_change and tournament.status not in OVER,
            "pending": [e for e in entrants if e.status == Entrant.Status.PENDING],
            "rounds": self.rounds_view(tournament, names),
        }

    @staticmethod
    def rounds_view(tournament: Tournament, names: dict[int, str]) -> list[RoundView]:
        rounds = tournament.rounds_played.prefetch_related("tables__games__outcome")
        shown = []
        for played in rounds:
            view = RoundView(
                played.number,
                played.get_status_display(),
                [names.get(key, f"entrant {key}") for key in played.byes],
            )
            for table in played.tables.all():
                seats = [names.get(key, f"entrant {key}") for key in table.seats]
                games = [game_view(game) for game in table.games.all()]
                view.tables.append(TableView(table.number, seats, games))
            shown.append(view)
        return shown

    # --- the event's steps ---------------------------------------------------------------

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        name = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path(
                "<path:object_id>/event/<str:step>/",
                wrap(self.event_step_view),
                name=f"{name}_event",
            ),
            path(
                "<path:object_id>/entrants/add/",
                wrap(self.add_entrants_view),
                name=f"{name}_add_entrants",
            ),
            path(
                "<path:object_id>/entrants/approve-all/",
                wrap(require_POST(self.approve_all_view)),
                name=f"{name}_approve_all",
            ),
            path(
                "<path:object_id>/entrants/<int:entrant_id>/<str:step>/",
                wrap(self.entrant_step_view),
                name=f"{name}_entrant",
            ),
            *super().get_urls(),
        ]

    def tournament_for_change(self, request: HttpRequest, object_id: str) -> Tournament:
        """The tournament, if this user may change it (404 when missing, 403 when not allowed)."""
        tournament = self.get_object(request, unquote(object_id))
        if tournament is None:
            raise_not_found()
        if not self.has_change_permission(request, tournament):
            raise PermissionDenied
        return tournament

    def change_url(self, tournament: Tournament) -> str:
        return reverse("admin:tournaments_tournament_change", args=[tournament.pk])

    def event_step_view(self, request: HttpRequest, object_id: str, step: str) -> HttpResponse:
        tournament = self.tournament_for_change(request, object_id)
        action = EVENT_ACTIONS.get(step)
        if action is None:
            raise_not_found()
        back = HttpResponseRedirect(self.change_url(tournament))
        if action.asks_reason:
            form = ReasonForm(request.POST or None, required=action.reason_required)
            if request.method != "POST" or not form.is_valid():
                return self.reason_page(request, tournament, action, form)
            reason = form.cleaned_data["reason"]
        elif request.method != "POST":
            return back  # a step changes the event: only ever on POST
        else:
            reason = ""
        user = request.user
        calls: dict[str, tuple[Callable[[], Any], str]] = {
            "open_entries": (
                lambda: events.open_entries(tournament, by=user),
                f"Entries are open for {tournament}.",
            ),
            "start": (
                lambda: events.start(tournament, by=user),
                f"{tournament} has started: round 1 is paired and its games are under way.",
            ),
            "pause": (
                lambda: events.pause(tournament, reason=reason, by=user),
                f"{tournament} is paused: no new round until you resume it.",
            ),
            "resume": (
                lambda: events.resume(tournament, by=user),
                f"{tournament} has resumed.",
            ),
            "cancel": (
                lambda: events.cancel(tournament, reason=reason, by=user),
                f"{tournament} is cancelled.",
            ),
        }
        call, done = calls[step]
        if run_service(request, done, call):
            self.log_change(request, tournament, f"{action.label}{': ' + reason if reason else ''}")
        return back

    def entrant_step_view(
        self, request: HttpRequest, object_id: str, entrant_id: int, step: str
    ) -> HttpResponse:
        tournament = self.tournament_for_change(request, object_id)
        entrant = get_object_or_404(
            Entrant.objects.select_related("competitor"), pk=entrant_id, tournament=tournament
        )
        action = ENTRANT_ACTIONS.get(step)
        if action is None:
            raise_not_found()
        back = HttpResponseRedirect(self.change_url(tournament))
        if action.asks_reason:
            form = ReasonForm(request.POST or None, required=True)
            if request.method != "POST" or not form.is_valid():
                return self.reason_page(request, tournament, action, form, entrant=entrant)
            reason = form.cleaned_data["reason"]
        elif request.method != "POST":
            return back
        else:
            reason = ""
        user = request.user
        name = entrant.competitor.name
        calls: dict[str, tuple[Callable[[], Any], str]] = {
            "approve": (lambda: events.approve(entrant, by=user), f"{name} is approved."),
            "withdraw": (
                lambda: events.withdraw(entrant, reason=reason, by=user),
                f"{name} is withdrawn.",
            ),
            "disqualify": (
                lambda: events.disqualify(entrant, reason=reason, by=user),
                f"{name} is disqualified.",
            ),
        }
        call, done = calls[step]
        if run_service(request, done, call):
            self.log_change(
                request, tournament, f"{action.label} {name}{': ' + reason if reason else ''}"
            )
        return back

    def approve_all_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Approve every pending entrant at once (all or none)."""
        tournament = self.tournament_for_change(request, object_id)
        pending = list(tournament.entrants.filter(status=Entrant.Status.PENDING))
        user = request.user

        def approve_all() -> None:
            for entrant in pending:
                events.approve(entrant, by=user)

        if pending and run_service(request, f"{len(pending)} entrant(s) approved.", approve_all):
            self.log_change(request, tournament, f"Approved {len(pending)} entrant(s)")
        elif not pending:
            messages.info(request, "No entrant is waiting for approval.")
        return HttpResponseRedirect(self.change_url(tournament))

    def add_entrants_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Choose competitors and enter them all through ``events.enter`` (all or none)."""
        tournament = self.tournament_for_change(request, object_id)
        form = AddEntrantsForm(request.POST or None, tournament=tournament)
        if request.method == "POST" and form.is_valid():
            chosen = list(form.cleaned_data["competitors"])
            approved = form.cleaned_data["approved"]
            user = request.user

            def enter_all() -> None:
                for competitor in chosen:
                    try:
                        events.enter(tournament, competitor, by=user, approved=approved)
                    except events.EventError as exc:
                        raise events.EventError(f"{competitor.name}: {exc}") from exc

            names = ", ".join(c.name for c in chosen)
            if run_service(request, f"Entered {len(chosen)}: {names}.", enter_all):
                self.log_change(request, tournament, f"Entered {names}")
                return HttpResponseRedirect(self.change_url(tournament))
            messages.warning(request, "Nobody was entered: untick the one refused and try again.")
        return self.event_page(
            request,
            tournament,
            title=f"Add entrants to {tournament}",
            form=form,
            submit="Enter them",
            explanation=(
                f"{tournament.get_engine_display()}, {tournament.get_status_display()}. Each "
                "competitor chosen is entered through the same checks as an owner's own entry; "
                "if one is refused, nobody is entered."
            ),
        )

    def reason_page(
        self,
        request: HttpRequest,
        tournament: Tournament,
        action: EventAction,
        form: forms.Form,
        *,
        entrant: Entrant | None = None,
    ) -> HttpResponse:
        who = f"{entrant.competitor.name} from " if entrant is not None else ""
        return self.event_page(
            request,
            tournament,
            title=f"{action.label} {who}{tournament}",
            form=form,
            submit=action.label,
            explanation=action.explanation,
        )

    def event_page(
        self,
        request: HttpRequest,
        tournament: Tournament,
        *,
        title: str,
        form: forms.Form,
        submit: str,
        explanation: str,
    ) -> HttpResponse:
        """An intermediate page of the admin: a short form and a way back."""
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": tournament,
            "title": title,
            "form": form,
            "submit": submit,
            "explanation": explanation,
            "change_url": self.change_url(tournament),
            "media": self.media + form.media,
        }
        return TemplateResponse(request, "admin/tournaments/tournament/event_form.html", context)

    # --- list actions (several tournaments at once) ---------------------------------------

    def _each(
        self,
        request: HttpRequest,
        queryset: QuerySet[Tournament],
        step: Callable[[Tournament], Any],
        done: str,
    ) -> None:
        for tournament in queryset:
            if not self.has_change_permission(request, tournament):
                messages.error(request, f"{tournament}: you may not change it.")
                continue
            try:
                with transaction.atomic():
                    step(tournament)
            except events.EventError as exc:
                messages.error(request, f"{tournament}: {exc}")
            else:
                messages.success(request, f"{tournament}: {done}")
                self.log_change(request, tournament, done)

    @admin.action(description="Open entries of the selected tournaments", permissions=["change"])
    def open_entries_action(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(
            request, queryset, lambda t: events.open_entries(t, by=request.user), "entries open"
        )

    @admin.action(description="Start the selected tournaments", permissions=["change"])
    def start_action(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(request, queryset, lambda t: events.start(t, by=request.user), "started")

    @admin.action(description="Pause the selected tournaments", permissions=["change"])
    def pause_action(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(
            request,
            queryset,
            lambda t: events.pause(t, reason="paused from the list", by=request.user),
            "paused",
        )

    @admin.action(description="Resume the selected tournaments", permissions=["change"])
    def resume_action(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(request, queryset, lambda t: events.resume(t, by=request.user), "resumed")


def raise_not_found() -> None:
    from django.http import Http404

    raise Http404("no such tournament, entrant or step")


def game_view(game: Game) -> GameView:
    """A game's link, state and (once finished) ranks, for the rounds table of the change page."""
    outcome = getattr(game, "outcome", None)
    return GameView(
        game.pk,
        reverse("tournaments:game", args=[game.pk]),
        game.get_status_display(),
        list(outcome.ranks) if outcome is not None else None,
    )


# --- leagues --------------------------------------------------------------------------------


class ArenaEntryForm(forms.ModelForm):
    """An arena entrant must be one the league takes: its engine, its pool."""

    class Meta:
        model = ArenaEntry
        fields = ("competitor", "active", "share_tables_with_own_bots")

    def __init__(self, *args: Any, league: League | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.league = league

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        competitor = data.get("competitor")
        league = self.league
        if competitor is None or league is None or not league.engine:
            return data
        refusal = arena_refusal(league, competitor)
        if refusal:
            self.add_error("competitor", refusal)
        return data


class ArenaEntryInline(admin.TabularInline):
    model = ArenaEntry
    form = ArenaEntryForm
    extra = 0
    raw_id_fields = ("competitor",)
    fields = ("competitor", "active", "share_tables_with_own_bots", "waiting_since", "games_played")
    readonly_fields = ("waiting_since", "games_played")

    def get_formset(self, request: HttpRequest, obj: League | None = None, **kwargs: Any) -> Any:
        formset = super().get_formset(request, obj, **kwargs)

        class LeagueFormSet(formset):  # type: ignore[misc, valid-type]
            def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
                return {**super().get_form_kwargs(index), "league": self.instance}

        return LeagueFormSet


@admin.register(League)
class LeagueAdmin(NamesProtectedRecords, admin.ModelAdmin):
    form = LeagueForm
    list_display = ("name", "engine", "pool", "arena_enabled", "created_at")
    list_filter = ("engine", "pool", "arena_enabled")
    prepopulated_fields = {"slug": ("name",)}
    search_fields = ("name",)
    inlines = [ArenaEntryInline]
    fieldsets = (
        (None, {"fields": ("name", "slug", "engine", "description", "pool")}),
        (
            "Arena (continuous matchmaking)",
            {
                "fields": (
                    "arena_enabled",
                    "arena_table_size",
                    "arena_min_table_size",
                    "arena_move_time_ms",
                    "arena_time_bank_ms",
                    "arena_rated",
                )
            },
        ),
    )

    def get_readonly_fields(self, request: HttpRequest, obj: League | None = None) -> list[str]:
        # Its games, ratings and entrants were made with this engine: fixed once there are any.
        if obj is not None and (
            obj.games.exists() or obj.tournaments.exists() or obj.arena_entries.exists()
        ):
            return ["engine"]
        return []

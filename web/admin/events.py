"""The organiser's tournament admin: an event run through the event services.

Every step of an event -- open entries, enter and approve entrants, start,
pause, resume, withdraw or disqualify an entrant, cancel -- is a POST to a
page of this admin that calls one function of ``tournaments.events``
(``admin_steps``) and nothing else; an ``EventError`` becomes an error
message and changes nothing. The fields those services own (status, seeds,
current round, times) are read-only here, and the settings that shape
pairing are read-only once the event runs, so no form can move an event into
a state its rounds disagree with.

The event seed is secret until ``events.event_seed_revealed`` gives it (the
event is over): no form carries it, and the change page shows only its
commitment before then. The change page puts what needs the organiser
first: the status, and the problems ``events.problems`` finds (a stuck
round and why). docs/organising.md walks through it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.views.decorators.http import require_POST

from tournaments import events
from tournaments.models import Entrant, Tournament
from web.admin.event_forms import AddEntrantsForm, ReasonForm, TournamentForm
from web.admin.event_page import public_page, rounds_view, standings_view
from web.admin.event_review import RoundReviewAdmin, may_adjudicate, review_of
from web.admin.event_steps import (
    BEFORE_START,
    ENTRANT_STEPS,
    EVENT_STEPS,
    OVER,
    UNDER_WAY,
    Step,
    run_service,
    run_step,
)
from web.admin.games import NamesProtectedRecords
from web.admin.seed_order import seed_order_page


def cannot_delete(tournament: Tournament) -> str:
    """Why a running or paused event is not deleted, and what to do instead."""
    return (
        f"{tournament.name} is {tournament.get_status_display()}, so it cannot be deleted: its "
        'games are under way. Cancel it first ("Cancel the event" on its page, with a reason), '
        "then delete it."
    )


def delete_selected_not_under_way(
    modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Tournament]
) -> HttpResponse | None:
    """Django's "delete selected", refused (each named, nothing deleted) if one is under way."""
    under_way = [t for t in queryset if t.status in UNDER_WAY]
    for tournament in under_way:
        messages.error(request, cannot_delete(tournament))
    if under_way:
        return None
    return delete_selected(modeladmin, request, queryset)


SERVICE_OWNED = (
    "status",
    "status_reason",
    "seed_commitment",
    "event_seed",
    "current_round",
    "organiser",
    "started_at",
    "finished_at",
    "pairing_held_since",
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
    "review_rounds",
    "allow_same_owner_tables",
    "seeding",
    "tie_breaks",
    "check_in",
)
"""Settings that shape rounds, games and ratings: fixed once the event runs."""

SEED_HIDDEN = "secret until the event ends"


@admin.register(Tournament)
class TournamentAdmin(RoundReviewAdmin, NamesProtectedRecords, admin.ModelAdmin):
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
                    "review_rounds",
                )
            },
        ),
        ("Time control and rating", {"fields": ("move_time_ms", "time_bank_ms", "rated")}),
        (
            "Seeding, tables and standings",
            {
                "fields": (
                    "seeding",
                    "allow_same_owner_tables",
                    "tie_breaks",
                    "check_in",
                    "absence_grace_s",
                ),
                "description": "The seed order itself is set on “Seed order…” above, before "
                "the start. docs/organising.md explains each setting.",
            },
        ),
        ("State (kept by the event)", {"fields": SERVICE_OWNED}),
    )

    def get_fieldsets(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        if obj is None:
            return self.fieldsets[:-1]  # a new event has no state to show yet
        return self.fieldsets

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        if obj is None:
            return SERVICE_OWNED
        if obj.status not in BEFORE_START or obj.games.exists():
            return (*SERVICE_OWNED, *PAIRING)
        if obj.entrants.exists():
            # Entrants were admitted for this engine and this league's pool.
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
            return False  # cancel it first: its games are under way (delete_view says so)
        return super().has_delete_permission(request, obj)

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """A running or paused event is not deleted: a sentence on its page, not a bare 403."""
        tournament = self.get_object(request, unquote(object_id))
        if tournament is not None and tournament.status in UNDER_WAY:
            messages.error(request, cannot_delete(tournament))
            return HttpResponseRedirect(self.change_url(tournament))
        return super().delete_view(request, object_id, extra_context)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        if "delete_selected" in actions:
            _func, name, description = actions["delete_selected"]
            actions["delete_selected"] = (delete_selected_not_under_way, name, description)
        return actions

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change and obj.organiser_id is None:
            obj.organiser = request.user
        super().save_model(request, obj, form, change)

    # --- the change page ------------------------------------------------------------------

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
        """What the change page shows around the settings form."""
        entrants = list(tournament.entrants.select_related("competitor", "entered_by"))
        may_change = self.has_change_permission(request, tournament)
        names = {entrant.pk: entrant.competitor.name for entrant in entrants}
        return {
            "status": tournament.get_status_display(),
            "status_code": tournament.status,
            "status_reason": tournament.status_reason,
            "problems": events.problems(tournament),
            "public_page": public_page(tournament),
            "steps": [
                step
                for step in EVENT_STEPS.values()
                if may_change and tournament.status in step.statuses
            ],
            "may_add_entrants": may_change and tournament.status in BEFORE_START,
            "entrants": entrants,
            "entrant_steps": may_change and tournament.status not in OVER,
            "check_in": tournament.check_in and tournament.status == Tournament.Status.ENTRIES_OPEN,
            "pending": [e for e in entrants if e.status == Entrant.Status.PENDING],
            "rounds": rounds_view(tournament, names),
            "standings": standings_view(tournament, names),
            "review": review_of(tournament, names) if may_change else None,
            "may_adjudicate": may_change and may_adjudicate(tournament),
        }

    # --- the event's steps ----------------------------------------------------------------

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
                "<path:object_id>/seed-order/",
                wrap(self.seed_order_view),
                name=f"{name}_seed_order",
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
            *self.review_urls(),
            *super().get_urls(),
        ]

    def tournament_for_change(self, request: HttpRequest, object_id: str) -> Tournament:
        """The tournament, if this user may change it (404 when missing, 403 when not allowed)."""
        tournament = self.get_object(request, unquote(object_id))
        if tournament is None:
            raise Http404("no such tournament")
        if not self.has_change_permission(request, tournament):
            raise PermissionDenied
        return tournament

    @staticmethod
    def change_url(tournament: Tournament) -> str:
        return reverse("admin:tournaments_tournament_change", args=[tournament.pk])

    def event_step_view(self, request: HttpRequest, object_id: str, step: str) -> HttpResponse:
        tournament = self.tournament_for_change(request, object_id)
        if step not in EVENT_STEPS:
            raise Http404("no such step")
        return self.take_step(request, tournament, EVENT_STEPS[step], tournament, tournament.name)

    def entrant_step_view(
        self, request: HttpRequest, object_id: str, entrant_id: int, step: str
    ) -> HttpResponse:
        tournament = self.tournament_for_change(request, object_id)
        entrant = get_object_or_404(
            Entrant.objects.select_related("competitor"), pk=entrant_id, tournament=tournament
        )
        if step not in ENTRANT_STEPS:
            raise Http404("no such step")
        name = entrant.competitor.name
        return self.take_step(request, tournament, ENTRANT_STEPS[step], entrant, name)

    def take_step(
        self, request: HttpRequest, tournament: Tournament, step: Step, subject: Any, name: str
    ) -> HttpResponse:
        """GET: the reason page (or back to the event); POST: the step, then back to the event."""
        back = HttpResponseRedirect(self.change_url(tournament))
        reason = ""
        if step.asks_reason:
            form = ReasonForm(request.POST or None, required=step.reason_required)
            if request.method != "POST" or not form.is_valid():
                title = f"{step.label} {name}" + (
                    f" from {tournament}" if subject is not tournament else ""
                )
                return self.event_page(
                    request, tournament, title=title, form=form, submit=step.label,
                    explanation=step.explanation,
                )  # fmt: skip
            reason = form.cleaned_data["reason"]
        elif request.method != "POST":
            return back  # a step changes the event: only ever on POST
        if run_step(request, step, subject, name, reason):
            done = f"{step.label}: {name}" + (f" ({reason})" if reason else "")
            self.log_change(request, tournament, done)
        return back

    def seed_order_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The seed order column (``web.admin.seed_order``)."""
        return seed_order_page(self, request, self.tournament_for_change(request, object_id))

    def approve_all_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Approve every pending entrant at once (all or none)."""
        tournament = self.tournament_for_change(request, object_id)
        pending = list(tournament.entrants.filter(status=Entrant.Status.PENDING))
        user = request.user

        def approve_all() -> None:
            for entrant in pending:
                events.approve(entrant, by=user)

        if not pending:
            messages.info(request, "No entrant is waiting for approval.")
        elif run_service(request, f"{len(pending)} entrant(s) approved.", approve_all):
            self.log_change(request, tournament, f"Approved {len(pending)} entrant(s)")
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
                "competitor chosen goes through the same checks as an owner's own entry (a bot "
                "must play the engine and be active; a league's pool must take it; people "
                "enter themselves). If one is refused, nobody is entered."
            ),
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

    def each(
        self,
        request: HttpRequest,
        queryset: QuerySet[Tournament],
        step: Callable[[Tournament], Any],
        done: str,
    ) -> None:
        """Take a step on every selected tournament, each in its own transaction."""
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
        self.each(
            request, queryset, lambda t: events.open_entries(t, by=request.user), "entries open"
        )

    @admin.action(description="Start the selected tournaments", permissions=["change"])
    def start_action(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.each(request, queryset, lambda t: events.start(t, by=request.user), "started")

    @admin.action(description="Pause the selected tournaments", permissions=["change"])
    def pause_action(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.each(
            request,
            queryset,
            lambda t: events.pause(t, reason="paused from the list", by=request.user),
            "paused",
        )

    @admin.action(description="Resume the selected tournaments", permissions=["change"])
    def resume_action(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.each(request, queryset, lambda t: events.resume(t, by=request.user), "resumed")

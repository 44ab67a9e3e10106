"""The organiser's seed order page: a starting point, then a column of numbers to adjust.

Before the start the organiser opens "Seed order…" on the event's change
page. Choosing a starting point ("by rating", "random from the event seed",
"as entered") fills the column from ``events.seed_order_proposal`` without
saving; the organiser moves entrants by changing their numbers (1 is the
top seed; empty or 0: unseeded, ordered at the start by the event's seeding)
and saves, through ``events.set_seed_order``. A refused order (two entrants
on one number, the event started meanwhile) is an error message naming what
to fix, and nothing is saved.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from tournaments import events
from tournaments.models import Entrant, Tournament
from web.admin.event_steps import run_service

KEEP = ""


class SeedOrderForm(forms.Form):
    """``start_from`` (fill the column, nothing saved) or the column itself (saved)."""

    start_from = forms.ChoiceField(
        required=False,
        label="Start from",
        choices=[(KEEP, "— the numbers below —"), *Tournament.Seeding.choices],
        help_text="Choose one to fill the numbers below from it (nothing is saved yet); "
        "leave it to save the numbers as they are.",
    )

    def __init__(self, *args: Any, entrants: list[Entrant], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entrants = entrants
        for entrant in entrants:
            waiting = " (waiting for approval)" if entrant.status == Entrant.Status.PENDING else ""
            self.fields[self.name_of(entrant)] = forms.IntegerField(
                required=False,
                min_value=0,
                label=f"{entrant.competitor.name}{waiting}",
                initial=entrant.seed_order or None,
            )

    @staticmethod
    def name_of(entrant: Entrant) -> str:
        return f"seed_{entrant.pk}"

    def orders(self) -> dict[int, int]:
        """Entrant id -> the number given (0 when left empty)."""
        return {e.pk: self.cleaned_data.get(self.name_of(e)) or 0 for e in self.entrants}


def seed_order_page(model_admin: Any, request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """GET: the column; POST: fill it from a starting point, or save it."""
    entrants = events.seedable_entrants(tournament)
    form = SeedOrderForm(request.POST or None, entrants=entrants)
    if request.method == "POST" and form.is_valid():
        start = form.cleaned_data["start_from"]
        if start != KEEP:
            try:
                proposed = events.seed_order_proposal(tournament, start)
            except events.EventError as exc:
                messages.error(request, str(exc))
            else:
                numbers = {e.pk: n for n, e in enumerate(proposed, start=1)}
                data = {SeedOrderForm.name_of(e): numbers[e.pk] for e in entrants}
                form = SeedOrderForm(initial=data, entrants=entrants)
                for entrant in entrants:
                    form.fields[SeedOrderForm.name_of(entrant)].initial = numbers[entrant.pk]
                label = Tournament.Seeding(start).label
                messages.info(request, f"Filled {label}: adjust the numbers, then save.")
        else:
            orders = form.orders()
            user = request.user
            if run_service(
                request,
                "Seed order saved.",
                lambda: events.set_seed_order(tournament, orders, by=user),
            ):
                model_admin.log_change(request, tournament, "Set the seed order")
                return HttpResponseRedirect(model_admin.change_url(tournament))
    return model_admin.event_page(
        request,
        tournament,
        title=f"Seed order of {tournament}",
        form=form,
        submit="Apply",
        explanation=(
            "1 is the top seed. Entrants left empty are seeded after the numbered ones at the "
            f"start, {Tournament.Seeding(tournament.seeding).label} (the event's seeding "
            "setting). Formats use the order where strength matters: Swiss round 1, knockout's "
            "snake, seat draws; one owner's entrants are still kept apart unless the event "
            "allows them together."
        ),
    )

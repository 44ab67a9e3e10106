"""The organiser's review of a round and adjudication of a game, in the tournament admin.

A mixin of ``TournamentAdmin``: the change page's "Review round N" panel
(the proposed tables, a swap form, Release and Re-pair buttons) and an
"Adjudicate" page per aborted or broken game. Each POST calls one service
of ``tournaments.events`` (``swap_entrants``, ``repair_round``,
``release_round``, ``adjudicate``) through ``run_service``: an
``EventError`` becomes an error message and, the transaction rolled back,
changes nothing. docs/organising.md, "Reviewing each round".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path
from django.views.decorators.http import require_POST

from games.models import Game
from tournaments import events
from tournaments.models import Round, Tournament
from web.admin.event_steps import run_service

ADJUDICABLE = (Game.Status.ABORTED, Game.Status.SCHEDULED, Game.Status.RUNNING)
"""Games the admin offers to adjudicate (the service has the last word)."""
ADJUDICATING_EVENTS = (
    Tournament.Status.RUNNING,
    Tournament.Status.PAUSED,
    Tournament.Status.FINISHED,
)


@dataclass
class ProposedSeat:
    entrant: int
    name: str


@dataclass
class ProposedTable:
    number: int
    seats: list[ProposedSeat] = field(default_factory=list)


@dataclass
class Review:
    """A proposed round as the review panel shows it."""

    number: int
    repairs: int
    tables: list[ProposedTable]
    byes: list[ProposedSeat]
    form: SwapForm


def numbers(text: str) -> list[str]:
    """ "2, 1, 3" or "2 1 3" -> ["2", "1", "3"] (the service checks each)."""
    return [part for part in text.replace(",", " ").split() if part]


class SwapForm(forms.Form):
    """Two entrants of the proposed round, named with where they sit."""

    first = forms.TypedChoiceField(coerce=int, label="Swap")
    second = forms.TypedChoiceField(coerce=int, label="with")

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices
        if len(choices) > 1:  # two different entrants offered from the start
            self.fields["second"].initial = choices[-1][0]


class AdjudicationForm(forms.Form):
    """The organiser's result: ranks (and scores) in seat order, and why."""

    ranks = forms.CharField(
        max_length=200,
        help_text="One per seat, in seat order (seat 1 first): 1 is best, tied seats share "
        "a rank, e.g. 2, 1, 3.",
    )
    scores = forms.CharField(
        max_length=400,
        required=False,
        help_text="Optional, one per seat in seat order; empty: 0 each (scores break ties).",
    )
    reason = forms.CharField(
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Shown on the game's and the event's public pages, with your name.",
    )


def review_of(tournament: Tournament, names: dict[int, str], data: Any = None) -> Review | None:
    """The event's proposed round, if it has one, with its swap form."""
    round_row = Round.objects.filter(tournament=tournament, status=Round.Status.PROPOSED).first()
    if round_row is None:
        return None

    def seat(key: Any) -> ProposedSeat:
        return ProposedSeat(int(key), names.get(int(key), f"entrant {key}"))

    tables = [
        ProposedTable(table.number, [seat(key) for key in table.seats])
        for table in round_row.tables.order_by("number")
    ]
    byes = [seat(key) for key in round_row.byes]
    choices = [
        (s.entrant, f"{s.name} (table {table.number}, seat {n})")
        for table in tables
        for n, s in enumerate(table.seats, start=1)
    ] + [(s.entrant, f"{s.name} (bye)") for s in byes]
    return Review(
        round_row.number, round_row.repairs, tables, byes, SwapForm(data, choices=choices)
    )


class RoundReviewAdmin:
    """URLs and views of the review panel and the adjudication page (mixed into the admin)."""

    def review_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view  # type: ignore[attr-defined]
        name = f"{self.opts.app_label}_{self.opts.model_name}"  # type: ignore[attr-defined]
        return [
            path(
                "<path:object_id>/rounds/<int:number>/<str:step>/",
                wrap(require_POST(self.round_step_view)),
                name=f"{name}_round",
            ),
            path(
                "<path:object_id>/games/<int:game_id>/adjudicate/",
                wrap(self.adjudicate_view),
                name=f"{name}_adjudicate",
            ),
        ]

    def round_step_view(
        self, request: HttpRequest, object_id: str, number: int, step: str
    ) -> HttpResponse:
        """Release, re-pair, or swap two entrants of proposed round ``number``."""
        tournament = self.tournament_for_change(request, object_id)  # type: ignore[attr-defined]
        user = request.user
        if step == "release":
            done = f"Round {number} is released: its games are under way."
            call = lambda: events.release_round(tournament, number, by=user)  # noqa: E731
        elif step == "repair":
            done = f"Round {number} is paired again: review the new tables, then release it."
            call = lambda: events.repair_round(tournament, number, by=user)  # noqa: E731
        elif step == "swap":
            review = review_of(tournament, self.entrant_names(tournament), request.POST)
            if review is None or review.number != number or not review.form.is_valid():
                messages.error(request, f"Choose two entrants of round {number} to swap.")
                return HttpResponseRedirect(self.change_url(tournament))  # type: ignore[attr-defined]
            first, second = review.form.cleaned_data["first"], review.form.cleaned_data["second"]
            done = f"Swapped in round {number}."
            call = lambda: events.swap_entrants(tournament, number, first, second, by=user)  # noqa: E731
        else:
            raise Http404("no such step")
        if run_service(request, done, call):
            self.log_change(request, tournament, f"Round {number}: {step}")  # type: ignore[attr-defined]
        return HttpResponseRedirect(self.change_url(tournament))  # type: ignore[attr-defined]

    def adjudicate_view(self, request: HttpRequest, object_id: str, game_id: int) -> HttpResponse:
        """GET: the form with the game's seats; POST: ``events.adjudicate``, back to the event."""
        tournament = self.tournament_for_change(request, object_id)  # type: ignore[attr-defined]
        game = get_object_or_404(Game, pk=game_id, tournament=tournament)
        if not self.has_change_permission(request, tournament):  # type: ignore[attr-defined]
            raise PermissionDenied
        form = AdjudicationForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            user = request.user
            done = f"Game {game.pk} is adjudicated: the standings count the result you entered."
            if run_service(
                request,
                done,
                lambda: events.adjudicate(
                    game,
                    ranks=numbers(data["ranks"]),
                    scores=numbers(data["scores"]),
                    reason=data["reason"],
                    by=user,
                ),
            ):
                self.log_change(  # type: ignore[attr-defined]
                    request, tournament, f"Adjudicated game {game.pk}: {data['reason']}"
                )
                return HttpResponseRedirect(self.change_url(tournament))  # type: ignore[attr-defined]
        seats = ", ".join(
            f"seat {position + 1}: {name}"
            for position, name in game.seats.order_by("position").values_list(
                "position", "competitor__name"
            )
        )
        return self.event_page(  # type: ignore[attr-defined]
            request,
            tournament,
            title=f"Adjudicate game {game.pk} of {tournament}",
            form=form,
            submit="Record this result",
            explanation=(
                f"Game {game.pk} is {game.get_status_display()} (round {game.round_number}); "
                f"{seats}. The result you enter counts for the event's standings; the game "
                "stays aborted (a running one is aborted now), its record unchanged, and it "
                "changes no rating. Entering it again corrects it."
            ),
        )

    @staticmethod
    def entrant_names(tournament: Tournament) -> dict[int, str]:
        return dict(tournament.entrants.values_list("pk", "competitor__name"))


def may_adjudicate(tournament: Tournament) -> bool:
    """Whether the rounds section offers "Adjudicate…" links for the event's unfinished games."""
    return tournament.status in ADJUDICATING_EVENTS

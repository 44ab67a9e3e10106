"""The league admin: a league's pool, its arena settings and the arena's entrants.

A league groups tournaments and arena play under one rating scope. Its
engine is fixed once anything was played or entered under it; an arena entry
must fit the league (its engine, its pool), checked when the inline is saved,
so a refused row saves nothing of the page.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from games.models import Competitor
from tournaments.events import arena
from tournaments.models import ArenaEntry, League
from web.admin.event_forms import LeagueForm, arena_refusal
from web.admin.games import NamesProtectedRecords


class ArenaEntryForm(forms.ModelForm):
    """An arena entrant must be one the league takes: its engine, its pool.

    A person added here goes through the arena's own ``check_entry``, the
    gate every path that seats a person asks (``people.seating``): only they
    put themselves in, so the row is refused with that sentence (issue #31:
    a row added here once seated a person in rated games with bots without
    their consent). A person's existing row (they joined themselves) may
    still be switched on or off.
    """

    class Meta:
        model = ArenaEntry
        fields = ("competitor", "active", "share_tables_with_own_bots")

    def __init__(
        self, *args: Any, league: League | None = None, user: Any = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.league = league
        self.user = user

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        competitor = data.get("competitor")
        league = self.league
        if competitor is None or league is None or not league.engine:
            return data
        if competitor.kind == Competitor.Kind.PERSON:
            if self.instance.pk is None or "competitor" in self.changed_data:
                try:
                    arena.check_entry(league, competitor, by=self.user)
                except arena.ArenaRefused as exc:
                    self.add_error("competitor", str(exc))
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
                return {
                    **super().get_form_kwargs(index),
                    "league": self.instance,
                    "user": request.user,
                }

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

"""Admin pages for ``tournaments``: organisers manage leagues and inspect games.

Games, seats and moves are the referee's record: shown read-only here, since
editing a move log by hand would make a game disagree with its replay.
"""

from __future__ import annotations

from django.contrib import admin

from .models import Competitor, Game, League, Move, Outcome, Seat, Tournament


@admin.register(Competitor)
class CompetitorAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "user", "created_at")
    list_filter = ("kind",)
    search_fields = ("name", "user__username")


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("name", "engine", "created_at")
    list_filter = ("engine",)
    prepopulated_fields = {"slug": ("name",)}
    search_fields = ("name",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "engine", "league", "created_at")
    list_filter = ("engine",)
    search_fields = ("name",)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ("position", "competitor", "forfeited", "fault_count")


class ReadOnlyAdmin(admin.ModelAdmin):
    """The referee writes these rows; people only read them."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("pk", "engine", "status", "rated", "league", "next_ply", "finished_at")
    list_filter = ("engine", "status", "rated")
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("game", "ply", "seat", "source", "fault_kind", "latency_ms")
    list_filter = ("source", "fault_kind")


@admin.register(Outcome)
class OutcomeAdmin(ReadOnlyAdmin):
    list_display = ("game", "ranks", "scores", "recorded_at")

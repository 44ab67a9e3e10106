"""Admin pages for lobby tables: to look, not to change.

A started table points at its game, whose record is the referee's; a table
edited or deleted in the admin could contradict it or free a seat of a
running game. So: no add, no change, no delete (a user's deletion still
removes their tables through the foreign key, not through these pages).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from lobby.models import LobbySeat, LobbyTable


class ReadOnly:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnly, admin.TabularInline):
    model = LobbySeat
    fields = ("position", "competitor", "added_by")
    readonly_fields = fields
    extra = 0


@admin.register(LobbyTable)
class LobbyTableAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("id", "engine", "num_players", "host", "status", "rated", "game", "created_at")
    list_filter = ("status", "engine", "rated")
    search_fields = ("host__username",)
    list_select_related = ("host", "game")
    inlines = [SeatInline]
    actions = None

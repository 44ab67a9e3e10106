"""Admin pages of games: the referee's record, to inspect, never to change.

Games, seats, moves and outcomes are the referee's record: shown here, never
added, edited or deleted (no admin path may leave a game that disagrees with
its replay, or a rating whose game is gone). What the database would have to
destroy with a competitor, league or tournament is protected by its foreign
keys, and the admin's delete page names the protected rows.

Tournaments and leagues -- the organiser's side -- are in ``web.admin.events``
and ``web.admin.leagues``, registered on the same site.

Hidden information stays hidden here too (``games.spectator.is_public``
decides, as for the public pages): until a game is finished, its seed, its
moves' actions and the bots' request/reply excerpts (which carry a seat's
private view) are not shown, and the seed is not searchable.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from common.readonly_admin import ReadOnlyAdmin
from games.models import Competitor, Game, GameRecord, Move, Outcome, Seat
from games.spectator import is_public

HIDDEN = "hidden until the game is finished"


class NamesProtectedRecords:
    """A ModelAdmin mixin: a delete that would reach the record names the rows that stop it.

    Django's delete pages list the ``PROTECT``-ed rows (seats, rating changes)
    that refuse a delete -- unless the cascade also reaches a model the user may
    not delete (ratings), when they only say "no permission". The protected
    rows are the real reason, so they are what the page shows; the delete is
    refused either way.
    """

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> tuple[Any, ...]:
        deleted, counts, perms_needed, protected = super().get_deleted_objects(  # type: ignore[misc]
            objs, request
        )
        if protected:
            perms_needed = set()
        return deleted, counts, perms_needed, protected


def game_links(game: Game) -> SafeString:
    """Links to the game's public page and to its verification."""
    return format_html(
        '<a href="{}">public page</a> | <a href="{}">verification</a>',
        reverse("tournaments:game", args=[game.pk]),
        reverse("games-api:game-verify", args=[game.pk]),
    )


@admin.register(Competitor)
class CompetitorAdmin(NamesProtectedRecords, admin.ModelAdmin):
    """Competitors are made by bot registration and by people playing; seats refer to them.

    Name, kind and user are what the records say who played, so they are not
    edited here; a competitor with seats cannot be deleted (``Seat.competitor``
    is ``PROTECT``), and the delete page says so.
    """

    list_display = ("name", "kind", "user", "created_at")
    list_filter = ("kind",)
    search_fields = ("name", "user__username")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ("position", "competitor", "forfeited", "substituted", "fault_count")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = (
        "pk",
        "engine",
        "status",
        "rated",
        "league",
        "next_ply",
        "finished_at",
        "links",
    )
    list_filter = ("engine", "status", "rated", "unrated_reason", "purpose")
    search_fields = ("seats__competitor__name",)
    fields = (
        "links",
        "engine",
        "engine_version",
        "num_players",
        "options",
        "seed_shown",
        "seed_commitment",
        "status",
        "status_reason",
        "rated",
        "unrated_reason",
        "purpose",
        "created_by",
        "league",
        "tournament",
        "round_number",
        "move_time_ms",
        "time_bank_ms",
        "next_ply",
        "created_at",
        "started_at",
        "last_progress_at",
        "finished_at",
    )
    readonly_fields = ("links", "seed_shown")
    inlines = [SeatInline]

    @admin.display(description="public page and verification")
    def links(self, game: Game) -> SafeString:
        return game_links(game)

    @admin.display(description="seed")
    def seed_shown(self, game: Game) -> str:
        return game.seed if is_public(game) else HIDDEN

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Game], search_term: str
    ) -> tuple[QuerySet[Game], bool]:
        """Competitor names, and the exact seed of a finished game (never of another)."""
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip()
        if term:
            by_seed = queryset.filter(Q(status=Game.Status.FINISHED) & Q(seed=term))
            found = found | by_seed
        return found, may_have_duplicates


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("game", "ply", "seat", "source", "fault_kind", "latency_ms", "links")
    list_filter = ("source", "fault_kind")
    list_select_related = ("game",)
    fields = (
        "links",
        "game",
        "ply",
        "seat",
        "source",
        "action_shown",
        "latency_ms",
        "fault_kind",
        "fault_detail_shown",
        "request_excerpt_shown",
        "reply_excerpt_shown",
        "created_at",
    )
    readonly_fields = (
        "links",
        "action_shown",
        "fault_detail_shown",
        "request_excerpt_shown",
        "reply_excerpt_shown",
    )

    @admin.display(description="game's public page and verification")
    def links(self, move: Move) -> SafeString:
        return game_links(move.game)

    @admin.display(description="action")
    def action_shown(self, move: Move) -> Any:
        return move.action if is_public(move.game) else HIDDEN

    @admin.display(description="fault detail")
    def fault_detail_shown(self, move: Move) -> str:
        return move.fault_detail if is_public(move.game) else HIDDEN

    @admin.display(description="request excerpt")
    def request_excerpt_shown(self, move: Move) -> str:
        return move.request_excerpt if is_public(move.game) else HIDDEN

    @admin.display(description="reply excerpt")
    def reply_excerpt_shown(self, move: Move) -> str:
        return move.reply_excerpt if is_public(move.game) else HIDDEN


@admin.register(Outcome)
class OutcomeAdmin(ReadOnlyAdmin):
    list_display = ("game", "ranks", "scores", "recorded_at")


@admin.register(GameRecord)
class GameRecordAdmin(ReadOnlyAdmin):
    """The stored public record: derived from the log, so shown only, never changed here.

    Changing it could only make a page disagree with the game's replay; a
    missing or stale one is rebuilt by the pages or ``manage.py
    build_game_records``. Its plies (actions included) are not shown here: the
    game page shows them by the spectator's rules. Checkpoints hold whole states,
    secrets included: not registered.
    """

    list_display = ("game", "rules_version", "plies_count", "replayable", "built_at", "links")
    list_select_related = ("game",)
    fields = ("links", "game", "rules_version", "replayable", "plies_count", "built_at")
    readonly_fields = ("links", "plies_count")

    def get_queryset(self, request: HttpRequest) -> QuerySet[GameRecord]:
        return super().get_queryset(request).defer("plies")  # up to a few hundred KiB each

    @admin.display(description="plies")
    def plies_count(self, record: GameRecord) -> int:
        return record.game.next_ply

    @admin.display(description="game's public page and verification")
    def links(self, record: GameRecord) -> SafeString:
        return game_links(record.game)

"""Lobby tables and their seats: a game being gathered before it exists.

A :class:`LobbyTable` is what its host chose (engine, players, time control,
rated or not) and where it stands (open, started, cancelled). Its
:class:`LobbySeat` rows are made all at once with the table, one per player:
a seat with no competitor is open for a person to join; a bot's seat was
filled by the host. When the last seat is filled the game is created through
``games.services.create_game`` and the table points at it; from then on
the game is the record, and the table only says how it came about.

Write these rows only through :mod:`lobby.services`, which checks every rule
under a lock on the table.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournaments.models import engine_choices

from . import time_controls


class LobbyTable(models.Model):
    """A table a host opened: the game's settings, and whether it has started."""

    class Status(models.TextChoices):
        OPEN = "open", "open"
        STARTED = "started", "started"
        CANCELLED = "cancelled", "cancelled"

    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lobby_tables"
    )
    engine = models.CharField(max_length=30, choices=engine_choices)
    num_players = models.PositiveSmallIntegerField()
    time_control = models.CharField(max_length=20, choices=time_controls.choices)
    move_time_ms = models.PositiveIntegerField()
    time_bank_ms = models.PositiveIntegerField()
    rated = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    start_problem = models.CharField(
        max_length=500,
        blank=True,
        help_text="Why a full table has not started yet (a busy bot, a missing consent).",
    )
    game = models.OneToOneField(
        "games.Game",
        null=True,
        blank=True,
        # The game is the record: no table may take it away.
        on_delete=models.PROTECT,
        related_name="lobby_table",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(
        null=True, blank=True, help_text="When the table was cancelled."
    )
    touched_at = models.DateTimeField(
        default=timezone.now,
        help_text="When a person last changed the table (opened it, joined, left, seated or "
        "removed a bot): an open table untouched for "
        "LOBBY_TABLE_IDLE_S is closed (lobby.services.close_idle_tables).",
    )
    closed_reason = models.CharField(
        max_length=300,
        blank=True,
        help_text="Why the table was closed, in a sentence, when the lobby closed it itself.",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "-created_at"], name="lobby_table_open")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status="started", game__isnull=False)
                | (~models.Q(status="started") & models.Q(game__isnull=True)),
                name="lobby_table_game_iff_started",
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.pk} ({self.engine}, {self.status})"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class LobbySeat(models.Model):
    """One seat of a table: empty (open for a person), a person, or a bot the host added."""

    table = models.ForeignKey(LobbyTable, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    competitor = models.ForeignKey(
        "games.Competitor",
        null=True,
        blank=True,
        # A deleted account empties its seat; a started game keeps its own seats.
        on_delete=models.SET_NULL,
        related_name="lobby_seats",
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who filled the seat: the person themselves, or the host for a bot.",
    )

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="lobby_seat_position"),
            # Empty seats hold NULL, which never collides: only a taken seat is unique.
            models.UniqueConstraint(fields=["table", "competitor"], name="lobby_seat_once"),
        ]

    def __str__(self) -> str:
        return f"seat {self.position} of table {self.table_id}"

    @property
    def is_empty(self) -> bool:
        return self.competitor_id is None

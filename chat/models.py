"""Table chat's rows: messages, each game's chat setting, and who muted whom.

A message belongs to its game and stays with it after the game (its players
read it back on the play page). Nothing here is ever part of a game's record
or of what a bot is sent: the games layer below does not know this app.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Message(models.Model):
    """One thing someone said at a table, as they typed it (pages escape it when shown)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(
        "games.Competitor", on_delete=models.CASCADE, related_name="chat_messages"
    )
    from_player = models.BooleanField(
        help_text="The author held a seat of the game when writing (else a spectator)."
    )
    text = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The staff member who hid the message (kept with when).",
    )

    class Meta:
        indexes = [
            models.Index(fields=["game", "id"], name="chat_message_game_id"),
            models.Index(fields=["author", "created_at"], name="chat_message_author_at"),
        ]

    def __str__(self) -> str:
        return f"{self.author_id} in game {self.game_id}: {self.text[:40]}"


class TableChat(models.Model):
    """A game's chat setting, chosen by its players or its creator; absent means the default."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, primary_key=True, related_name="chat_setting"
    )
    spectators_apart = models.BooleanField(
        default=False,
        help_text="While the game runs, spectators' messages are shown to spectators only.",
    )
    set_by = models.ForeignKey(
        "games.Competitor", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    set_at = models.DateTimeField(auto_now=True)


class Mute(models.Model):
    """``muter`` no longer sees what ``muted`` writes, at any table; nobody else is affected."""

    muter = models.ForeignKey("games.Competitor", on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey("games.Competitor", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["muter", "muted"], name="chat_mute_once"),
        ]

"""A person's account beside Django's user: their competitor and their choices.

A person plays as a :class:`games.models.Competitor` of kind ``person``.
:class:`Profile` ties the user to exactly one such competitor (both links are
one-to-one, so the database refuses a second profile or a shared competitor)
and holds what the person chooses about their play. Create profiles through
:mod:`people.services`, which makes the user's competitor and profile together.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Profile(models.Model):
    """One per user who plays: their person competitor and their consent to bot opponents."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    competitor = models.OneToOneField(
        "games.Competitor",
        # RESTRICT: the competitor is not deleted alone, but deleting the user deletes
        # both (the competitor's seats still protect a person who has played).
        on_delete=models.RESTRICT,
        related_name="profile",
        help_text="The person's seat-holding, rated identity (kind 'person').",
    )
    accepts_bot_opponents = models.BooleanField(
        default=False,
        help_text="The person agrees to meet bots in rated games. Off until they say so: "
        "consent is given, never assumed. Unrated (friendly) games with bots need no consent.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["user__username"]

    def __str__(self) -> str:
        return f"profile of {self.user}"

"""Who may do what to an event: the organiser, an entrant's owner, the person entering.

Every service takes ``by``, the user acting. ``None`` is the service itself
(the demo, beat, a caller that has already checked permissions, such as an
admin action), which acts as the organiser. Staff users organise every event;
otherwise the event's ``organiser`` does.
"""

from __future__ import annotations

from typing import Any

from games.models import Competitor
from tournaments.events.errors import EventError
from tournaments.models import Tournament


def is_organiser(tournament: Tournament, user: Any) -> bool:
    """Whether ``user`` runs ``tournament`` (its organiser, or staff); None is the service."""
    if user is None:
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff) or user.pk == tournament.organiser_id


def require_organiser(tournament: Tournament, user: Any, doing: str) -> None:
    """Raise EventError unless ``user`` may ``doing`` (e.g. "start it") as the organiser."""
    if not is_organiser(tournament, user):
        raise EventError(f"only the organiser of {tournament.name} (or staff) may {doing}")


def speaks_for(competitor: Competitor, user: Any) -> bool:
    """Whether ``user`` decides for ``competitor``: the bot's owner, or the person themselves."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return competitor.user_id == user.pk

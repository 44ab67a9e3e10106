"""Check-in: an event that asks for it drops, at the start, whoever has not checked in.

When ``Tournament.check_in`` is on, each entrant says it is there before the
start (:func:`check_in`: the bot's owner, the person, or the organiser on
their behalf), while entries are open. :func:`drop_absentees`, called by
``start`` inside its transaction, withdraws every active or waiting entry
that has not checked in, with the reason :data:`REASON` (the event's page
lists it beside the entrant, and :func:`dropped_sentence` says it in one
line). Should the start then refuse (too few left for the format), its
rollback restores them: nothing changes.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.events.errors import EventError
from tournaments.events.locks import lock_tournament
from tournaments.events.roles import is_organiser, speaks_for
from tournaments.models import Entrant, Tournament

REASON = "did not check in before the start"
"""The reason recorded on an entry dropped for not checking in."""

CAN_CHECK_IN = (Entrant.Status.ACTIVE, Entrant.Status.PENDING)


def check_in(entrant: Entrant, *, by: Any = None) -> Entrant:
    """Check ``entrant`` in (idempotent: checking in again keeps the first time)."""
    with transaction.atomic():
        event = lock_tournament(entrant.tournament_id)
        row = Entrant.objects.select_related("competitor").get(pk=entrant.pk)
        name = row.competitor.name
        if not (is_organiser(event, by) or speaks_for(row.competitor, by)):
            raise EventError(
                f"only {name}'s owner (or the person), or the organiser, may check it in"
            )
        if not event.check_in:
            raise EventError(
                f"{event.name} does not ask for check-in: every entrant plays without it"
            )
        if event.status != Tournament.Status.ENTRIES_OPEN:
            raise EventError(
                f"{event.name} is {event.get_status_display()}: check-in is open only while "
                "entries are open, before the start"
            )
        if row.status not in CAN_CHECK_IN:
            raise EventError(f"{name} is {row.get_status_display()}: enter it again first")
        if row.checked_in_at is None:
            row.checked_in_at = timezone.now()
            row.save(update_fields=["checked_in_at"])
    entrant.refresh_from_db()
    return entrant


def drop_absentees(event: Tournament) -> list[str]:
    """Withdraw the entries of the locked ``event`` that did not check in; their names."""
    if not event.check_in:
        return []
    rows = list(
        event.entrants.filter(status__in=CAN_CHECK_IN, checked_in_at__isnull=True)
        .select_related("competitor")
        .order_by("pk")
    )
    Entrant.objects.filter(pk__in=[row.pk for row in rows]).update(
        status=Entrant.Status.WITHDRAWN, reason=REASON
    )
    return [row.competitor.name for row in rows]


def dropped_sentence(names: list[str]) -> str:
    """One line for the event's page: who was dropped at the start for not checking in."""
    if not names:
        return ""
    count = len(names)
    return (
        f"{count} entrant{'s' if count > 1 else ''} did not check in and "
        f"{'were' if count > 1 else 'was'} dropped at the start: {', '.join(names)}."
    )

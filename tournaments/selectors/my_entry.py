"""A signed-in person's own entry in an event, for the enter, withdraw and check-in buttons.

What the page offers follows the same rules ``tournaments.events.enter``
applies (the buttons are a convenience; the service decides): entries open,
the league's pool takes people, the person not entered yet (or withdrawn),
and the consent a rated event with bots needs (``people.seating``). Check-in
is offered for each of their entries still in — themselves and every bot they
own — while an event that asks for it has entries open (``events.check_in``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.models import Competitor
from people.models import Profile
from tournaments.events.eligibility import person_entry_refusal, pool_refusal
from tournaments.models import Entrant, Tournament

STILL_IN = (Entrant.Status.ACTIVE, Entrant.Status.PENDING)


@dataclass(frozen=True)
class MyEntry:
    """What the page shows a signed-in person about entering this event."""

    entrant: Entrant | None
    """Their entry (any status), or None."""
    can_enter: bool
    can_withdraw: bool
    why_not: str
    """Why they may not enter, when entries are open (a sentence naming what to fix)."""
    check_ins: tuple[Entrant, ...] = ()
    """Their entries (themselves, their bots) a check-in button is offered for, oldest first."""


def my_entry(tournament: Tournament, user: Any) -> MyEntry | None:
    """The person's entry and buttons, or None for a visitor who is not signed in."""
    if user is None or not user.is_authenticated:
        return None
    competitor = Profile.objects.filter(user=user).values_list("competitor_id", flat=True).first()
    entrant = None
    if competitor is not None:
        entrant = Entrant.objects.filter(tournament=tournament, competitor_id=competitor).first()
    open_ = tournament.status == Tournament.Status.ENTRIES_OPEN
    in_ = entrant is not None and entrant.status in STILL_IN
    why_not = ""
    if open_ and not in_:
        me = Competitor(
            pk=competitor, kind=Competitor.Kind.PERSON, user=user, name=user.get_username()
        )
        why_not = pool_refusal(tournament, me) or ""
        if not why_not and entrant is not None and entrant.status == Entrant.Status.DISQUALIFIED:
            why_not = f"you were disqualified from {tournament.name}: {entrant.reason}"
        if not why_not:
            why_not = person_entry_refusal(tournament, me, user) or ""
    return MyEntry(
        entrant=entrant,
        can_enter=open_ and not in_ and not why_not,
        can_withdraw=open_ and in_,
        why_not=why_not,
        check_ins=_check_ins(tournament, user) if open_ and tournament.check_in else (),
    )


def _check_ins(tournament: Tournament, user: Any) -> tuple[Entrant, ...]:
    """The user's entries still in (the person, each bot they own), as ``check_in`` takes."""
    return tuple(
        Entrant.objects.filter(tournament=tournament, status__in=STILL_IN, competitor__user=user)
        .select_related("competitor")
        .order_by("pk")
    )

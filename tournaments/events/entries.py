"""Entering an event, approval, withdrawal and disqualification.

Rules:

* **Who enters.** A bot is entered by its owner, or added by the organiser
  (the issue's "its owner agrees": the owner enters it, or the organiser,
  who runs the event, adds it). A person enters only themselves (their
  consent); not even the organiser enters a person, and a rated event where
  bots may play takes a person only with their consent to bot opponents
  (``people.seating``, the one gate every path that seats a person asks). The competitor must be
  able to play (``eligibility``: a bot active and playing the engine) and fit
  the league's pool (bots only, people only, or mixed).
* **When.** While entries are open; the organiser may also add entrants to a
  draft. After the start nobody enters (the formats pair the entrants they
  were started with).
* **Approval.** Simple: an entry is active at once, whoever makes it. An
  organiser who wants to vet entries passes ``approved=False`` (the entry
  waits as ``pending``) and later :func:`approve`\\s it; the start refuses
  while any entry still waits, so nobody is left out by oversight.
* **Again.** A competitor enters an event once (the database's unique
  constraint backs this up); one that withdrew before the start may enter
  again while entries are open. A disqualified one may not.
* **Leaving.** :func:`withdraw` (the organiser, the bot's owner or the person)
  and :func:`disqualify` (the organiser) keep the row with its reason. During
  the event the entrant is paired no more, and its seats in games still
  running are *forfeited*: the referee plays default actions for them and
  ranks them last, and the seats are marked ``withdrawn`` so their result
  changes no rating (the others at the table are rated among themselves).

  Why forfeit rather than a house bot taking over the seat: the seat, its
  moves and its rating belong to one competitor (``Seat.competitor`` cannot
  change under a game's log), a substitute would need its own capacity and
  endpoint at once, and its play would be credited to nobody. A forfeit is
  what the referee already does for a bot that faults out, needs no one else,
  and finishes the game quickly so the round is not held up.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from games.models import Competitor, Game, Seat
from games.referee.dispatch import schedule_advance
from games.referee.house_bot import forfeit_seats
from tournaments.events.eligibility import person_entry_refusal, pool_refusal, why_cannot_play
from tournaments.events.errors import EventError
from tournaments.events.locks import lock_tournament
from tournaments.events.roles import is_organiser, require_organiser, speaks_for
from tournaments.models import Entrant, Tournament

OPEN = (Tournament.Status.DRAFT, Tournament.Status.ENTRIES_OPEN)
UNDER_WAY = (Tournament.Status.RUNNING, Tournament.Status.PAUSED)
OVER = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def enter(
    tournament: Tournament, competitor: Competitor, *, by: Any, approved: bool | None = None
) -> Entrant:
    """Enter ``competitor`` in ``tournament`` on behalf of ``by``; the new (or renewed) entry.

    ``approved``: None follows the rule (active at once); False leaves the
    entry pending the organiser's approval; True is the organiser's own
    approval (refused from anyone else).
    """
    with transaction.atomic():
        event = lock_tournament(tournament)
        organiser = is_organiser(event, by)
        _check_entry_window(event, organiser)
        if approved is True and not organiser:
            raise EventError(f"only the organiser of {event.name} approves entries")
        _check_consent(event, competitor, by, organiser)
        refusal = pool_refusal(event, competitor) or why_cannot_play(event, competitor)
        if refusal:
            raise EventError(f"{competitor.name} cannot enter {event.name}: {refusal}")
        status = Entrant.Status.PENDING if approved is False else Entrant.Status.ACTIVE
        entrant = Entrant.objects.filter(tournament=event, competitor=competitor).first()
        if entrant is not None:
            return _enter_again(event, entrant, status, by)
        try:
            with transaction.atomic():
                return Entrant.objects.create(
                    tournament=event,
                    competitor=competitor,
                    seed_order=0,
                    status=status,
                    entered_by=by if by is not None and by.is_authenticated else None,
                )
        except IntegrityError:  # entered meanwhile (only where the lock is a no-op)
            raise EventError(f"{competitor.name} is already entered in {event.name}") from None


def _check_entry_window(event: Tournament, organiser: bool) -> None:
    if event.status == Tournament.Status.ENTRIES_OPEN:
        return
    if event.status == Tournament.Status.DRAFT:
        if organiser:
            return
        raise EventError(f"entries to {event.name} are not open yet")
    raise EventError(f"entries to {event.name} are closed: it is {event.get_status_display()}")


def _check_consent(event: Tournament, competitor: Competitor, by: Any, organiser: bool) -> None:
    if competitor.kind == Competitor.Kind.PERSON:
        refusal = person_entry_refusal(event, competitor, by)
        if refusal:
            raise EventError(refusal)
        return
    if not organiser and not speaks_for(competitor, by):
        raise EventError(
            f"only the owner of bot {competitor.name} or the organiser of {event.name} can enter it"
        )


def _enter_again(event: Tournament, entrant: Entrant, status: str, by: Any) -> Entrant:
    name = entrant.competitor.name
    if entrant.status == Entrant.Status.WITHDRAWN:
        entrant.status, entrant.reason = status, ""
        entrant.entered_by = by if by is not None and by.is_authenticated else None
        entrant.save(update_fields=["status", "reason", "entered_by"])
        return entrant
    if entrant.status == Entrant.Status.DISQUALIFIED:
        raise EventError(f"{name} was disqualified from {event.name}: {entrant.reason}")
    raise EventError(f"{name} is already entered in {event.name} ({entrant.get_status_display()})")


def approve(entrant: Entrant, *, by: Any = None) -> Entrant:
    """Make a pending entry active (the organiser, before the start)."""
    with transaction.atomic():
        event = lock_tournament(entrant.tournament_id)
        require_organiser(event, by, "approve entries")
        row = _entrant(entrant)
        name = row.competitor.name
        if event.status not in OPEN:
            raise EventError(
                f"{event.name} is {event.get_status_display()}: entries are approved "
                "before the start"
            )
        if row.status != Entrant.Status.PENDING:
            raise EventError(f"{name}'s entry is {row.get_status_display()}, not pending")
        refusal = why_cannot_play(event, row.competitor)
        if refusal:
            raise EventError(f"{name} cannot be approved: {refusal}")
        row.status = Entrant.Status.ACTIVE
        row.save(update_fields=["status"])
    entrant.refresh_from_db()
    return entrant


def withdraw(entrant: Entrant, *, reason: str, by: Any = None) -> Entrant:
    """Take an entrant out of the event (the organiser, the bot's owner or the person)."""
    return _leave(entrant, Entrant.Status.WITHDRAWN, reason, by)


def disqualify(entrant: Entrant, *, reason: str, by: Any = None) -> Entrant:
    """Put an entrant out of the event (the organiser only); it may not enter again."""
    return _leave(entrant, Entrant.Status.DISQUALIFIED, reason, by)


def _leave(entrant: Entrant, status: str, reason: str, by: Any) -> Entrant:
    reason = (reason or "").strip()
    verb, done = (
        ("withdraw", "withdrawn")
        if status == Entrant.Status.WITHDRAWN
        else ("disqualify", "disqualified")
    )
    with transaction.atomic():
        event = lock_tournament(entrant.tournament_id)
        row = _entrant(entrant)
        name = row.competitor.name
        if status == Entrant.Status.DISQUALIFIED or not speaks_for(row.competitor, by):
            require_organiser(event, by, f"{verb} {name}")
        if not reason:
            raise EventError(f"say why {name} is {done}; the reason is shown with it")
        if event.status in OVER:
            raise EventError(f"{event.name} is {event.get_status_display()}: its entrants stay")
        if row.status not in (Entrant.Status.ACTIVE, Entrant.Status.PENDING):
            raise EventError(f"{name} is already {row.get_status_display()}")
        row.status, row.reason = status, reason
        row.save(update_fields=["status", "reason"])
        if event.status in UNDER_WAY:
            forfeit_running_seats(event, row.competitor_id)
    entrant.refresh_from_db()
    return entrant


def _entrant(entrant: Entrant) -> Entrant:
    row = Entrant.objects.select_related("competitor").filter(pk=entrant.pk).first()
    if row is None:
        raise EventError(f"there is no entrant {entrant.pk}")
    return row


def forfeit_running_seats(event: Tournament, competitor_id: int) -> list[int]:
    """Forfeit ``competitor_id``'s seats in the event's unfinished games; the game ids.

    The games are locked first (by key, as the referee's ``finish`` locks a
    game), so a game finishing at this moment is either finished before (and
    left alone) or finished after, with the seat forfeited and unrated. Each
    game is advanced after the commit, so a forfeited seat waiting for its
    move gets its default at once. A person's seat is also substituted: the
    house bot plays it to the end, so the others' game stays a real game
    (``games.referee.house_bot``), as when a person resigns.
    """
    seated = Seat.objects.filter(
        competitor_id=competitor_id,
        game__tournament=event,
        game__status__in=(Game.Status.SCHEDULED, Game.Status.RUNNING),
    ).values("game_id")
    games = list(
        Game.objects.select_for_update()
        .filter(pk__in=seated, status__in=(Game.Status.SCHEDULED, Game.Status.RUNNING))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    forfeit_seats(
        Seat.objects.filter(game_id__in=games, competitor_id=competitor_id), withdrawn=True
    )
    for game_id in games:
        schedule_advance(game_id)
    return games

"""The steps of an event an organiser takes in the admin, each one service of ``events``.

A step names its service, its button, the statuses it is offered in, whether
it asks a reason, and what to tell the organiser when it is done. Running a
step (:func:`run_step`) is one transaction: an ``EventError`` becomes an
error message and, since the transaction is rolled back, changes nothing,
even where a service wrote before it refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest

from tournaments import events
from tournaments.models import Tournament

Status = Tournament.Status
BEFORE_START = (Status.DRAFT, Status.ENTRIES_OPEN)
UNDER_WAY = (Status.RUNNING, Status.PAUSED)
OVER = (Status.FINISHED, Status.CANCELLED)


@dataclass(frozen=True)
class Step:
    """One step: ``run(subject, reason, user)`` calls the service (subject: tournament or entrant).

    ``done`` is the success message, with ``{name}`` for the subject's name.
    """

    name: str
    label: str
    run: Callable[[Any, str, Any], Any]
    done: str
    asks_reason: bool = False
    reason_required: bool = False
    statuses: tuple[str, ...] = ()
    explanation: str = ""


EVENT_STEPS = {
    step.name: step
    for step in (
        Step(
            "open_entries",
            "Open entries",
            lambda t, reason, by: events.open_entries(t, by=by),
            "Entries are open for {name}.",
            statuses=(Status.DRAFT,),
            explanation="Draws the secret event seed and publishes its commitment; owners may "
            "then enter their bots, and you can add more.",
        ),
        Step(
            "start",
            "Start",
            lambda t, reason, by: events.start(t, by=by),
            "{name} has started: round 1 is paired (if it reviews each round, its tables wait "
            "for you to release them).",
            statuses=BEFORE_START,
            explanation="Fixes the seed order, pairs round 1 and starts its games.",
        ),
        Step(
            "pause",
            "Pause",
            lambda t, reason, by: events.pause(t, reason=reason, by=by),
            "{name} is paused: no new round until you resume it.",
            asks_reason=True,
            statuses=(Status.RUNNING,),
            explanation="Games under way play out; no new round is paired until you resume.",
        ),
        Step(
            "resume",
            "Resume",
            lambda t, reason, by: events.resume(t, by=by),
            "{name} has resumed.",
            statuses=(Status.PAUSED,),
            explanation="Pairs the next round at once if the last one has finished.",
        ),
        Step(
            "cancel",
            "Cancel the event",
            lambda t, reason, by: events.cancel(t, reason=reason, by=by),
            "{name} is cancelled.",
            asks_reason=True,
            reason_required=True,
            statuses=(*BEFORE_START, *UNDER_WAY),
            explanation="Ends the event for good: games under way are aborted (never rated), "
            "the event seed is revealed, no further round is played.",
        ),
    )
}

ENTRANT_STEPS = {
    step.name: step
    for step in (
        Step(
            "approve",
            "Approve",
            lambda e, reason, by: events.approve(e, by=by),
            "{name} is approved.",
        ),
        Step(
            "check_in",
            "Check in",
            lambda e, reason, by: events.check_in(e, by=by),
            "{name} is checked in.",
        ),
        Step(
            "withdraw",
            "Withdraw",
            lambda e, reason, by: events.withdraw(e, reason=reason, by=by),
            "{name} is withdrawn.",
            asks_reason=True,
            reason_required=True,
            explanation="The entrant leaves the event and is not paired again. Its seats in "
            "games under way are forfeited (default moves, ranked last) and change no rating.",
        ),
        Step(
            "disqualify",
            "Disqualify",
            lambda e, reason, by: events.disqualify(e, reason=reason, by=by),
            "{name} is disqualified.",
            asks_reason=True,
            reason_required=True,
            explanation="Like a withdrawal, recorded as a disqualification: it may not enter "
            "again.",
        ),
    )
}


def run_service(request: HttpRequest, done: str, call: Callable[[], Any]) -> bool:
    """Call one service in a transaction; its EventError becomes an error message.

    True when it succeeded (and ``done`` was shown as a success message).
    """
    try:
        with transaction.atomic():
            call()
    except events.EventError as exc:
        messages.error(request, str(exc))
        return False
    messages.success(request, done)
    return True


def run_step(request: HttpRequest, step: Step, subject: Any, name: str, reason: str) -> bool:
    """Take ``step`` on ``subject`` as the request's user; True when it was done."""
    return run_service(
        request, step.done.format(name=name), lambda: step.run(subject, reason, request.user)
    )

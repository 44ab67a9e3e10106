"""Entrants who cannot play the next round: wait a grace period, then leave them out at 0.

Before every round after the first the scheduler checks each active entrant
(:func:`unable`): a bot suspended, disabled or no longer playing the engine
(``eligibility.why_cannot_play``), a bot already playing as many games as it
allows (its game limit), a person whose account was closed. A withdrawn or
disqualified entrant is not active and is never paired.

The documented treatment (docs/organising.md, "When an entrant cannot play"):

1. **The round waits.** The first time the scheduler finds one, it records
   ``Tournament.pairing_held_since`` and pairs nothing for the event's grace
   period (``absence_grace_s``, 60 s by default), so the organiser or the
   owner can react: the problems panel names who and why, and when the wait
   ends. A fix within the grace (the bot reactivated, a game of its freed)
   lets the round be paired with everyone, as soon as beat looks again.
2. **Then it is paired without them.** Who still cannot play is *absent*
   from that round (``Round.absent``, with the reason): no table, no bye and
   no points (an absence is never a bye worth points). The Swiss pairs the
   others; a knockout passes an absent entrant over as it does a withdrawn
   one; a round robin pairs the others from then on.

Each later round checks again (and waits again, once per round) until the
entrant can play or the organiser withdraws it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from botapi.selectors.capacity import bots_at_capacity
from games.models import Game
from tournaments.events.eligibility import why_cannot_play
from tournaments.models import Entrant, Tournament


@dataclass(frozen=True)
class Unable:
    """An active entrant who cannot play now, and why (a sentence)."""

    key: int
    name: str
    reason: str


def unable(event: Tournament) -> list[Unable]:
    """The event's active entrants who cannot be seated now, in seed order."""
    rows = list(
        event.entrants.filter(status=Entrant.Status.ACTIVE)
        .select_related("competitor__user")
        .order_by("seed_order", "pk")
    )
    found: dict[int, str] = {}
    for row in rows:
        why = why_cannot_play(event, row.competitor)
        if why:
            found[row.pk] = why
    able = [row.competitor for row in rows if row.pk not in found]
    full = {bot.competitor_id: bot for bot in bots_at_capacity(able, purpose=Game.Purpose.EVENT)}
    for row in rows:
        bot = full.get(row.competitor_id)
        if bot is not None:
            found[row.pk] = (
                f"bot {row.competitor.name} already plays {bot.max_concurrent_games} game(s) "
                "at once, its limit"
            )
    return [Unable(row.pk, row.competitor.name, found[row.pk]) for row in rows if row.pk in found]


def grace_ends(event: Tournament) -> datetime | None:
    """When the current wait ends (None: the scheduler is not waiting)."""
    if event.pairing_held_since is None:
        return None
    return event.pairing_held_since + timedelta(seconds=event.absence_grace_s)


def absent_rows(found: list[Unable]) -> list[dict[str, object]]:
    """``Round.absent`` entries: who was left out, and why."""
    return [{"entrant": one.key, "reason": one.reason} for one in found]


def absent_keys(absent: list) -> set[int]:
    """The entrant ids of a ``Round.absent`` list."""
    return {int(row["entrant"]) for row in absent or ()}

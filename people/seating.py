"""The one gate for seating a person: who may put them in a pool of players, and at which tables.

A person's consent to meet bots in rated games (``Profile.accepts_bot_opponents``)
is theirs alone, and every path that can seat them asks this module, so
the rule and its sentence are the same everywhere (issue #31, point 2):

* putting a person in a pool that later seats them — an event's entries
  (the tournament page, the API, the admin's add-entrants page, all through
  ``tournaments.events.enter``) and a league's arena (its ``join``, which
  the admin's arena rows go through) — asks :func:`entry_refusal`: only the
  person puts themselves in, and a rated pool where bots may play needs
  their consent;
* every game's creation (``games.services.create_game``, for the lobby, the
  arena, the events and the API alike) asks the people's seat player, which
  asks :func:`table_refusal`: no rated table with a bot seats a person
  without consent, whichever path chose the table — the last word, should
  a person withdraw their consent after entering.

These are checks, not writes: each returns the sentence that explains a
refusal (naming what to change), or None.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.models import Competitor

from .models import Profile

CONSENT_BOX = "“I accept bot opponents in rated games”"
CONSENT_WHERE = f"tick {CONSENT_BOX} on your profile page (/me/)"
"""Where a person gives their consent: the same words on every refusal."""
THEIR_CONSENT_WHERE = f"tick {CONSENT_BOX} on their profile page (/me/)"
"""The same, said of someone else."""


def consenting(competitors: Sequence[Competitor]) -> set[int]:
    """Ids of the person competitors among ``competitors`` who accept bot opponents (one query)."""
    ids = [c.pk for c in competitors if c.kind == Competitor.Kind.PERSON]
    if not ids:
        return set()
    return set(
        Profile.objects.filter(competitor_id__in=ids, accepts_bot_opponents=True).values_list(
            "competitor_id", flat=True
        )
    )


def without_consent(
    competitors: Sequence[Competitor], *, rated: bool, bot_present: bool | None = None
) -> list[Competitor]:
    """The people who may not sit at this table: a rated one with a bot, and no consent.

    ``bot_present`` None looks for a bot among ``competitors``; True asks
    about a table a bot may join later (an event's or an arena's pool).
    """
    if bot_present is None:
        bot_present = any(c.kind == Competitor.Kind.BOT for c in competitors)
    if not rated or not bot_present:
        return []
    agreed = consenting(competitors)
    return [c for c in competitors if c.kind == Competitor.Kind.PERSON and c.pk not in agreed]


def table_refusal(competitors: Sequence[Competitor], *, rated: bool) -> str | None:
    """Why these competitors may not share one game, rated or not; None when they may."""
    missing = without_consent(competitors, rated=rated)
    if not missing:
        return None
    names = ", ".join(c.name for c in missing)
    return (
        f"{names} {'has' if len(missing) == 1 else 'have'} not accepted bot opponents in rated "
        f"games, so no rated game seats them with a bot; they can {THEIR_CONSENT_WHERE}, or the "
        "game can be unrated"
    )


def entry_refusal(
    competitor: Competitor, *, by: Any, where: str, rated: bool, bots_may_play: bool
) -> str | None:
    """Why ``by`` may not put the person ``competitor`` in ``where``'s pool; None when they may.

    ``where`` names the event or arena for the sentence; ``rated`` and
    ``bots_may_play`` say whether its games are rated and may seat a bot
    (its league's pool). ``by`` None is the service itself (the demo, a
    caller that checked who acts): it may put a person in, but never one
    without the consent the pool needs. A bot is not this gate's: None.
    """
    if competitor.kind != Competitor.Kind.PERSON:
        return None
    themselves = (
        by is not None
        and getattr(by, "is_authenticated", False)
        and competitor.user_id is not None
        and competitor.user_id == by.pk
    )
    if by is not None and not themselves:
        return (
            f"{competitor.name} is a person: only they can enter themselves in {where} "
            "(signed in, from its page)"
        )
    if without_consent([competitor], rated=rated, bot_present=bots_may_play):
        who = "you have" if themselves else f"{competitor.name} has"
        fix = CONSENT_WHERE if themselves else f"they can {THEIR_CONSENT_WHERE}"
        return (
            f"{where} plays rated games with bots, and {who} not accepted bot opponents in "
            f"rated games; {fix}, then enter"
        )
    return None

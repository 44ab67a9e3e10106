"""Whether a competitor may play an event: the same rules at entry, at the start, and after.

A bot plays only if it is active and plays the event's engine; a person only
with an active account and, in a rated event where bots may play, their
consent to bot opponents (asked of ``people.seating``, the one gate for
seating a person, so a consent taken back after entering is seen at the
start and by the problems panel). A league's pool keeps bots-only and people-only
leagues apart. Each check returns the sentence that explains a refusal, or
None.
"""

from __future__ import annotations

from typing import Any

import engines
from botapi.models import Bot
from games.models import Competitor
from people import seating as person_seating
from tournaments.models import League, Tournament


def engine_label(slug: str) -> str:
    try:
        return engines.get(slug).name
    except Exception:  # an engine no longer registered: its slug says enough
        return slug


def bot_of(competitor: Competitor):
    """The competitor's bot, or None (a person, or a bot row that is gone)."""
    try:
        return competitor.bot
    except Bot.DoesNotExist:
        return None


def why_cannot_play(tournament: Tournament, competitor: Competitor) -> str | None:
    """Why ``competitor`` cannot play ``tournament``'s games now, or None if it can."""
    if competitor.kind == Competitor.Kind.BOT:
        bot = bot_of(competitor)
        if bot is None:
            return f"{competitor.name} has no bot behind it any more"
        if not bot.is_active:
            reason = f" ({bot.status_reason})" if bot.status_reason else ""
            return f"bot {competitor.name} is {bot.status}{reason}"
        if tournament.engine not in bot.engines:
            return (
                f"bot {competitor.name} does not play {engine_label(tournament.engine)} "
                f"(it plays {', '.join(engine_label(e) for e in bot.engines) or 'nothing'})"
            )
        return None
    user = competitor.user
    if user is None or not user.is_active:
        return f"{competitor.name} has no active account"
    if bots_may_play(tournament) and person_seating.without_consent(
        [competitor], rated=tournament.rated, bot_present=True
    ):
        return (
            f"{competitor.name} has not accepted bot opponents in rated games, and "
            f"{tournament.name} seats them with bots in rated games; they can "
            f"{person_seating.THEIR_CONSENT_WHERE}"
        )
    return None


def bots_may_play(tournament: Tournament) -> bool:
    """Whether the event's tables may seat a bot: its league's pool is not people only."""
    league = tournament.league
    return league is None or league.pool != League.Pool.PEOPLE


def person_entry_refusal(tournament: Tournament, competitor: Competitor, by: Any) -> str | None:
    """Why ``by`` may not enter the person ``competitor`` (``people.seating``'s rule), or None.

    ``by`` None is the service itself (the demo, a caller that checked): it
    may enter a person, though never one without consent where it is needed.
    """
    return person_seating.entry_refusal(
        competitor,
        by=by,
        where=tournament.name,
        rated=tournament.rated,
        bots_may_play=bots_may_play(tournament),
    )


def pool_refusal(tournament: Tournament, competitor: Competitor) -> str | None:
    """Why the event's league does not take ``competitor`` (its pool), or None."""
    league = tournament.league
    if league is None:
        return None
    is_bot = competitor.kind == Competitor.Kind.BOT
    if league.pool == League.Pool.BOTS and not is_bot:
        return f"the league {league.name} is for bots only; {competitor.name} is a person"
    if league.pool == League.Pool.PEOPLE and is_bot:
        return f"the league {league.name} is for people only; {competitor.name} is a bot"
    return None

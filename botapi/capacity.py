"""How many games a bot plays at once (``Bot.max_concurrent_games``), and who may take them.

The limit protects a bot's server (and its opponents' clocks) from more
simultaneous requests than its owner said it can answer. It is a scheduling
rule, checked where games are made (game creation, tournament pairing), not
at call time: refusing or delaying a call in the middle of a game would cost
the bot a timeout it did not earn, while a game that is never started costs
nothing. A game counts from creation until it is finished or aborted; a bot
seated twice at one table (self-play) plays one game.

The limit is the bot's, not its owner's: games created by anyone count (the
owner's own, challenges by other users, tournament pairings), and the refusal
names the bot as ``owner/bot``, since bots of different owners may share a name.

**A fair share of a bot open to others.** One user must not take every
game of another owner's bot (a challenge bot, or a house bot anyone may
seat). Among the games users make (``Game.Purpose.CASUAL``), a *challenger*
— the user creating the game, when it is not the bot's owner — may hold at
most :func:`challenger_share` of the bot's games at once (half its limit,
rounded up), and all challengers together at most its limit minus one, so
the owner always has a game left (a bot that plays one game at a time is
first come, first served). Games the service made (``created_by`` empty:
the demo, local tests) are the owner's. A refused challenger gets
:class:`BotShareUsed` saying how many they hold; there is no queue: the
game is not made, and asking again once one of theirs has finished works.

**Events apart on the house bots.** A house bot counts events (tournaments,
the arena: ``purpose="event"``) and the games users make against its limit
separately, so users' challenges never make it refuse an event, nor events
a user's game; the service runs the house bots and sized them for both. A
user's bot has one limit, its server's, which every game counts.

Call :func:`check_capacity` inside the transaction that creates the game: it
locks the bots' rows (in primary-key order, so two creators cannot deadlock),
so two games created at the same moment cannot both take a bot's last slot,
nor a challenger's last share of it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from botapi.seating import is_house_bot
from games.models import Competitor, Game, Seat

from .models import Bot

UNFINISHED = (Game.Status.SCHEDULED, Game.Status.RUNNING)
CASUAL, EVENT = Game.Purpose.CASUAL, Game.Purpose.EVENT


class BotAtCapacity(ValueError):
    """Seating would give a bot more games at once than its ``max_concurrent_games``."""

    code = "bot_at_capacity"
    lead = "a bot is busy"

    def __init__(self, bots: list[Bot]) -> None:
        self.bots = bots
        names = ", ".join(f"{bot.competitor.name} ({bot.max_concurrent_games})" for bot in bots)
        super().__init__(f"already playing as many games as they allow at once: {names}")


class BotShareUsed(BotAtCapacity):
    """The creator already holds their fair share of another owner's bot; the message says so."""

    code = "bot_share_used"
    lead = "a bot is busy for you"

    def __init__(self, bots: list[Bot], reasons: list[str]) -> None:
        self.bots = bots
        ValueError.__init__(self, "; ".join(reasons))


@dataclass(frozen=True)
class HeldGame:
    """One unfinished game a bot sits in: who asked for it, and for what."""

    created_by_id: int | None
    purpose: str


def unfinished_games(competitor_ids: Iterable[int]) -> dict[int, int]:
    """Competitor id -> number of scheduled or running games it sits in."""
    rows = (
        Seat.objects.filter(competitor_id__in=list(competitor_ids), game__status__in=UNFINISHED)
        .values("competitor_id")
        .annotate(games=Count("game_id", distinct=True))
    )
    return {row["competitor_id"]: row["games"] for row in rows}


def held_games(competitor_ids: Iterable[int]) -> dict[int, list[HeldGame]]:
    """Competitor id -> its scheduled or running games (each once, however many seats)."""
    rows = (
        Seat.objects.filter(competitor_id__in=list(competitor_ids), game__status__in=UNFINISHED)
        .values_list("competitor_id", "game_id", "game__created_by_id", "game__purpose")
        .order_by()  # no ordering column in the DISTINCT: a game counts once per bot
        .distinct()
    )
    games: dict[int, list[HeldGame]] = defaultdict(list)
    for competitor_id, _game_id, created_by_id, purpose in rows:
        games[competitor_id].append(HeldGame(created_by_id, purpose))
    return games


def challenger_share(limit: int) -> int:
    """How many of a bot's ``limit`` games at once one challenger may hold: half, rounded up."""
    return math.ceil(limit / 2)


def _seated_bots(competitors: Iterable[Competitor], *, lock: bool) -> list[Bot]:
    """The bots among ``competitors``, in key order, locked when asked (not their owners)."""
    by_id = {competitor.pk: competitor for competitor in competitors}
    bots = Bot.objects.filter(competitor_id__in=sorted(by_id)).select_related("owner")
    if lock:
        bots = bots.select_for_update(of=("self",))
    bots = list(bots.order_by("pk"))
    for bot in bots:
        bot.competitor = by_id[bot.competitor_id]  # for the names: no query, no lock
    return bots


def counted_games(bot: Bot, games: list[HeldGame], purpose: str) -> list[HeldGame]:
    """The games that count against ``bot``'s limit for one more game of ``purpose``."""
    if is_house_bot(bot):
        return [game for game in games if game.purpose == purpose]
    return games


def share_refusal(bot: Bot, games: list[HeldGame], creator_id: int | None) -> str | None:
    """Why ``creator_id`` may not seat another owner's ``bot`` in one more game, if so."""
    if creator_id is None or creator_id == bot.owner_id:
        return None
    casual = [game for game in games if game.purpose == CASUAL]
    limit, name = bot.max_concurrent_games, bot.competitor.name
    mine = sum(game.created_by_id == creator_id for game in casual)
    share = challenger_share(limit)
    house = house_share_note(share) if is_house_bot(bot) else ""
    if mine >= share:
        return (
            f"you already play {mine} of {name}'s {limit} games at once; "
            f"wait for one of them to finish{house}"
        )
    others = sum(game.created_by_id not in (None, bot.owner_id) for game in casual)
    if limit > 1 and others >= limit - 1:
        return (
            f"other users already play {others} of {name}'s {limit} games at once, and its "
            f"last free game is kept for its owner; wait for one of them to finish{house}"
        )
    return None


def house_share_note(share: int) -> str:
    """What a refused user is told about an example bot, where a new bot author first meets it.

    Someone trying the site seats the example bots in several games at once and
    would otherwise read the refusal as a fault of the bot or of the site.
    """
    return (
        f" (the example bots are shared by every user: each user may play at most {share} "
        "games at once with each one; seat another example bot, or a bot of your own, "
        "where only its own limit applies)"
    )


def _full(bots: list[Bot], games: dict[int, list[HeldGame]], purpose: str) -> list[Bot]:
    return [
        bot
        for bot in bots
        if len(counted_games(bot, games[bot.competitor_id], purpose)) >= bot.max_concurrent_games
    ]


def bots_at_capacity(
    competitors: Iterable[Competitor], *, lock: bool = False, purpose: str = CASUAL
) -> list[Bot]:
    """The bots among ``competitors`` that may not join one more game of ``purpose`` now."""
    bots = _seated_bots(competitors, lock=lock)
    return _full(bots, held_games(bot.competitor_id for bot in bots), purpose)


def check_capacity(
    competitors: Iterable[Competitor], *, created_by: Any = None, purpose: str = CASUAL
) -> None:
    """Raise unless seating ``competitors`` in a new game keeps every bot's limit and share.

    :class:`BotAtCapacity` when a bot plays its limit; :class:`BotShareUsed`
    when ``created_by`` (the user asking; None for the service) already holds
    their share of another owner's bot. Events (``purpose="event"``) have no
    share. Must run inside the creating transaction (it locks the bots' rows).
    """
    bots = _seated_bots(competitors, lock=True)
    games = held_games(bot.competitor_id for bot in bots)
    full = _full(bots, games, purpose)
    if full:
        raise BotAtCapacity(full)
    if purpose == EVENT or created_by is None:
        return
    refusals = [(bot, share_refusal(bot, games[bot.competitor_id], created_by.pk)) for bot in bots]
    refused = [(bot, reason) for bot, reason in refusals if reason is not None]
    if refused:
        raise BotShareUsed([bot for bot, _ in refused], [reason for _, reason in refused])

"""How many games a bot plays at once: ``Bot.max_concurrent_games``, enforced when seating it.

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

Call :func:`check_capacity` inside the transaction that creates the game: it
locks the bots' rows (in primary-key order, so two creators cannot deadlock),
so two games created at the same moment cannot both take a bot's last slot.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count

from tournaments.models import Competitor, Game, Seat

from .models import Bot

UNFINISHED = (Game.Status.SCHEDULED, Game.Status.RUNNING)


class BotAtCapacity(ValueError):
    """Seating would give a bot more games at once than its ``max_concurrent_games``."""

    def __init__(self, bots: list[Bot]) -> None:
        self.bots = bots
        names = ", ".join(f"{bot.competitor.name} ({bot.max_concurrent_games})" for bot in bots)
        super().__init__(f"already playing as many games as they allow at once: {names}")


def unfinished_games(competitor_ids: Iterable[int]) -> dict[int, int]:
    """Competitor id -> number of scheduled or running games it sits in."""
    rows = (
        Seat.objects.filter(competitor_id__in=list(competitor_ids), game__status__in=UNFINISHED)
        .values("competitor_id")
        .annotate(games=Count("game_id", distinct=True))
    )
    return {row["competitor_id"]: row["games"] for row in rows}


def bots_at_capacity(competitors: Iterable[Competitor], *, lock: bool = False) -> list[Bot]:
    """The bots among ``competitors`` that may not join one more game now."""
    by_id = {competitor.pk: competitor for competitor in competitors}
    bots = Bot.objects.filter(competitor_id__in=sorted(by_id)).order_by("pk")
    if lock:
        bots = bots.select_for_update()
    bots = list(bots)
    for bot in bots:
        bot.competitor = by_id[bot.competitor_id]  # for the names: no query, no lock
    playing = unfinished_games(bot.competitor_id for bot in bots)
    return [bot for bot in bots if playing.get(bot.competitor_id, 0) >= bot.max_concurrent_games]


def check_capacity(competitors: Iterable[Competitor]) -> None:
    """Raise :class:`BotAtCapacity` if seating ``competitors`` in a new game breaks a bot's limit.

    Must run inside the creating transaction (it locks the bots' rows).
    """
    full = bots_at_capacity(competitors, lock=True)
    if full:
        raise BotAtCapacity(full)

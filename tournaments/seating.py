"""Who may seat which bot in a game they create.

A user may seat their own bots and the *example bots*: the bots of the
example-bot account (``settings.EXAMPLE_BOTS_USERNAME``, default
``"examples"``; ``make demo`` registers its greedy and random bots there), so
anyone can try a bot against them. Other users' bots are not theirs to commit
to games (and their existence is not confirmed: the error is the same as for
a bot that does not exist). A seated bot must be active and play the engine.
People get seats later (lobby and play page).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet

from botapi.models import Bot

DEFAULT_EXAMPLE_BOTS_USERNAME = "examples"


class SeatRefused(ValueError):
    """This bot cannot take a seat in this game; the message says why."""


def example_bots_username() -> str:
    return getattr(settings, "EXAMPLE_BOTS_USERNAME", DEFAULT_EXAMPLE_BOTS_USERNAME)


def seatable_bots(user: Any) -> QuerySet[Bot]:
    """The bots ``user`` may seat: their own and the example bots."""
    mine = Q(owner=user) if user is not None and user.is_authenticated else Q(pk__in=[])
    return Bot.objects.filter(mine | Q(owner__username=example_bots_username())).select_related(
        "competitor", "owner"
    )


def seatable_bots_by_id(user: Any, bot_ids: Iterable[int]) -> dict[int, Bot]:
    """The bots among ``bot_ids`` that ``user`` may seat, by id, in one query."""
    return seatable_bots(user).in_bulk(set(bot_ids))


def check_seat(bot: Bot | None, bot_id: int, engine: str) -> Bot:
    """The per-seat rule: ``bot`` (the seatable bot ``bot_id``, or None) may play ``engine``."""
    if bot is None:
        raise SeatRefused(f"no bot {bot_id} among yours or the example bots")
    if not bot.is_active:
        reason = f": {bot.status_reason}" if bot.status_reason else ""
        raise SeatRefused(f"bot {bot.competitor.name} is {bot.status}{reason}")
    if engine not in bot.engines:
        raise SeatRefused(
            f"bot {bot.competitor.name} does not play {engine} (it plays {', '.join(bot.engines)})"
        )
    return bot


def bot_for_seat(user: Any, bot_id: int, engine: str) -> Bot:
    """The bot ``user`` wants at a table of ``engine``, or SeatRefused saying why not."""
    return check_seat(seatable_bots(user).filter(pk=bot_id).first(), bot_id, engine)

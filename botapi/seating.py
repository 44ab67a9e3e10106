"""Who may seat which bot in a game they create, and when that game is a challenge.

A user may seat:

* their own bots, whatever their visibility;
* the *example bots* (house bots): the bots of the example-bot account
  (``settings.EXAMPLE_BOTS_USERNAME``, default ``"examples"``; ``make demo``
  registers its greedy and random bots there), whatever their visibility, so
  anyone can try a bot against them;
* another owner's bot whose visibility is ``challenge``.

A game that seats a bot of another owner (house bots aside) is a
*challenge*, and a challenge is always unrated: the challenged owner did not
choose the game, its opponents or its timing, so its result must not move
their ratings (rated play between owners is for tournaments and the arena,
which the tournament code pairs itself). That rule, and the one against
rating one owner's bots against each other, live in ``games.rating_rules``.

Another owner's ``tournament`` bot is public (it is listed) but cannot be
challenged; the refusal says so. Another owner's private bot is refused
exactly like a bot that does not exist: same words, and nothing about its
status or engines, so nobody learns that it exists. The status reason of
another owner's open bot is the owner's own text and is not repeated either.
A seated bot must be active and play the engine.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q, QuerySet

from botapi.models import Bot
from games.rating_rules import example_bots_username


class SeatRefused(ValueError):
    """This bot cannot take a seat in this game; the message says why."""


def _user_id(user: Any) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def is_house_bot(bot: Bot) -> bool:
    """Whether ``bot`` is one of the example bots anyone may seat."""
    return bot.owner.get_username() == example_bots_username()


def _open() -> Q:
    return ~Q(visibility=Bot.Visibility.PRIVATE) | Q(owner__username=example_bots_username())


def open_bots() -> QuerySet[Bot]:
    """Bots anyone may look at: those open to challenges or tournaments, and the house bots.

    This is the public listing's set; it never holds another owner's private bot.
    """
    return Bot.objects.filter(_open()).select_related("competitor", "owner")


def challengeable() -> Q:
    """Bots any user may seat now: open to challenges (or house bots) and active."""
    open_to_all = Q(visibility=Bot.Visibility.CHALLENGE) | Q(
        owner__username=example_bots_username()
    )
    return open_to_all & Q(status=Bot.Status.ACTIVE)


def is_challengeable(bot: Bot) -> bool:
    """:func:`challengeable` for one bot already loaded (with its owner)."""
    open_to_all = bot.visibility == Bot.Visibility.CHALLENGE or is_house_bot(bot)
    return open_to_all and bot.is_active


def seatable_bots(user: Any) -> QuerySet[Bot]:
    """The bots ``user`` may name at a table: their own and the open ones.

    A ``tournament`` bot of another owner is among them only so that the
    refusal can say why (it is listed publicly anyway); :func:`check_seat`
    refuses it.
    """
    user_id = _user_id(user)
    mine = Q(owner_id=user_id) if user_id is not None else Q(pk__in=[])
    return Bot.objects.filter(mine | _open()).select_related("competitor", "owner")


def is_challenged(user: Any, bot: Bot) -> bool:
    """Whether seating ``bot`` makes ``user``'s game a challenge (another owner's, not house)."""
    return bot.owner_id != _user_id(user) and not is_house_bot(bot)


def no_such_bot(bot_id: int) -> str:
    """The one refusal for a missing bot and for another owner's private bot."""
    return f"no bot {bot_id} among yours, the example bots or the bots open to challenges"


def check_seat(user: Any, bot: Bot, engine: str) -> None:
    """Raise SeatRefused unless ``user`` may seat ``bot`` (found by :func:`seatable_bots`)."""
    challenged = is_challenged(user, bot)
    if challenged and bot.visibility != Bot.Visibility.CHALLENGE:
        if bot.visibility == Bot.Visibility.PRIVATE:  # not found by seatable_bots; be safe
            raise SeatRefused(no_such_bot(bot.pk))
        raise SeatRefused(
            f"bot {bot.competitor.name} plays only in tournaments and the arena; "
            "its owner does not accept challenges"
        )
    if not bot.is_active:
        # Another owner's reason is their own text: the status alone is public.
        reason = f": {bot.status_reason}" if bot.status_reason and not challenged else ""
        raise SeatRefused(f"bot {bot.competitor.name} is {bot.status}{reason}")
    if engine not in bot.engines:
        raise SeatRefused(
            f"bot {bot.competitor.name} does not play {engine} (it plays {', '.join(bot.engines)})"
        )


def seatable_bots_by_id(user: Any, bot_ids: Iterable[int]) -> dict[int, Bot]:
    """The bots among ``bot_ids`` that ``user`` may name at a table, by id, in one query."""
    return seatable_bots(user).in_bulk(set(bot_ids))


def seat_bot(user: Any, bot: Bot | None, bot_id: int, engine: str) -> Bot:
    """``bot`` (what :func:`seatable_bots` found for ``bot_id``, or None) if ``user`` may seat it.

    Raises SeatRefused saying why not; a missing bot is refused like a private one.
    """
    if bot is None:
        raise SeatRefused(no_such_bot(bot_id))
    check_seat(user, bot, engine)
    return bot


def bot_for_seat(user: Any, bot_id: int, engine: str) -> Bot:
    """The bot ``user`` wants at a table of ``engine``, or SeatRefused saying why not."""
    return seat_bot(user, seatable_bots(user).filter(pk=bot_id).first(), bot_id, engine)

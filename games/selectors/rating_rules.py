"""Whether a game is rated, and if not, why: the rules that keep ratings from being farmed.

A rating says how a competitor does against opponents who try to win. Two
kinds of table cannot say that, whoever sets them (``create_game`` applies
both rules, the game API asks first to answer a 400 on ``rated``):

* **One owner holds several seats** (``same_owner``): a user's bots against
  each other, a bot against itself, a person against their own bot. The
  owner plays every side, so one seat can lose on purpose (a silent puppet)
  to lift another up the leaderboard. An owner is a user: the owner of the
  bot in a seat, or the person in it. The house bots (the example bots,
  owned by the service's account) are exempt: the service does not farm, and
  the demo's ladder is filled by them. An organiser's event may rate such a
  table (``same_owner_allowed``, only with ``purpose="event"``): there the
  organiser, not the owner, chose it.
* **A challenge** (``challenge``): a game a user makes that seats another
  owner's bot (house bots aside). The challenged owner chose neither the
  game, the opponents nor the time. Another *person* in a seat is no
  challenge: they took the seat themselves (the lobby). Events pair bots themselves: no
  challenge.

Both are *forced*: asking for a rated game anyway is refused
(:class:`RatedRefused`, naming the bots), never silently turned unrated.
Otherwise a game is unrated by its creator's choice: ``chosen_seed`` when the
seed was given (the game API insists: its dice are known in advance),
``creator`` when not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.conf import settings

from games.models import Competitor, Game

Reason = Game.UnratedReason

DEFAULT_EXAMPLE_BOTS_USERNAME = "examples"


def example_bots_username() -> str:
    """The account whose bots are the house bots (``settings.EXAMPLE_BOTS_USERNAME``)."""
    return getattr(settings, "EXAMPLE_BOTS_USERNAME", DEFAULT_EXAMPLE_BOTS_USERNAME)


class OwnedBot(Protocol):
    """What the rules read of a bot (``botapi.models.Bot``, with competitor and owner loaded)."""

    competitor: Competitor
    owner_id: int
    owner: Any


class RatedRefused(ValueError):
    """A rated game was asked for, but a rule makes it unrated; the message names the bots."""


@dataclass(frozen=True)
class Holder:
    """Who holds a seat, as far as the rating rules care."""

    name: str  # the competitor's name: owner/bot for a bot
    owner_id: int | None  # the user behind the seat; None when nobody's (test players)
    house: bool  # an example bot, owned by the service
    person: bool = False  # a person in the seat: never a challenge, but still its own owner


@dataclass(frozen=True)
class Decision:
    rated: bool
    reason: str  # a Game.UnratedReason value, "" when rated


def holders_of_bots(bots: Iterable[OwnedBot]) -> list[Holder]:
    """The holders of seats given to ``bots`` (each with its competitor and owner loaded)."""
    house = example_bots_username()
    return [
        Holder(bot.competitor.name, bot.owner_id, bot.owner.get_username() == house) for bot in bots
    ]


def holders_of_competitors(competitors: Sequence[Competitor]) -> list[Holder]:
    """The holders of seats given to ``competitors``, their owners read in one query."""
    owners = dict(
        Competitor.objects.filter(pk__in={c.pk for c in competitors}).values_list(
            "pk", "user__username"
        )
    )
    house = example_bots_username()
    return [
        Holder(c.name, c.user_id, owners.get(c.pk) == house, c.kind == Competitor.Kind.PERSON)
        for c in competitors
    ]


def _names(holders: Iterable[Holder]) -> str:
    return ", ".join(sorted({holder.name for holder in holders}))


def forced_reasons(
    holders: Sequence[Holder],
    *,
    creator_id: int | None = None,
    purpose: str = Game.Purpose.CASUAL,
    same_owner_allowed: bool = False,
) -> list[tuple[str, str]]:
    """The rules that make this table unrated, each as (reason, refusal), strongest first.

    ``creator_id`` is the user making the game (None: the service); a game an
    event pairs (``purpose="event"``) is never a challenge.
    """
    owned = [holder for holder in holders if holder.owner_id is not None and not holder.house]
    reasons = []
    if creator_id is not None and purpose != Game.Purpose.EVENT:
        challenged = [
            holder for holder in owned if holder.owner_id != creator_id and not holder.person
        ]
        if challenged:
            reasons.append(
                (
                    Reason.CHALLENGE,
                    f"a game seating another owner's bot ({_names(challenged)}) is a challenge, "
                    "and challenges are unrated; set rated to false or leave it out",
                )
            )
    seats_per_owner = Counter(holder.owner_id for holder in owned)
    shared = [holder for holder in owned if seats_per_owner[holder.owner_id] > 1]
    if shared and not same_owner_allowed:
        reasons.append(
            (
                Reason.SAME_OWNER,
                f"one owner holds several seats ({_names(shared)}), and such a game is "
                "unrated; set rated to false or leave it out",
            )
        )
    return reasons


def decide(
    holders: Sequence[Holder],
    requested: bool | None,
    *,
    creator_id: int | None = None,
    purpose: str = Game.Purpose.CASUAL,
    same_owner_allowed: bool = False,
    seed_chosen: bool = False,
) -> Decision:
    """Rated or not, and why not; ``requested`` None means the creator did not say.

    Not said: rated unless a rule forbids it. Said true where a rule forbids
    it: :class:`RatedRefused` with the first rule's words.
    """
    if same_owner_allowed and purpose != Game.Purpose.EVENT:
        raise ValueError("only an organiser's event (purpose='event') may rate one owner's table")
    forced = forced_reasons(
        holders,
        creator_id=creator_id,
        purpose=purpose,
        same_owner_allowed=same_owner_allowed,
    )
    if forced:
        reason, refusal = forced[0]
        if requested:
            raise RatedRefused(refusal)
        return Decision(False, reason)
    if requested is False:
        return Decision(False, Reason.CHOSEN_SEED if seed_chosen else Reason.CREATOR)
    return Decision(True, "")


def _user_id(user: Any) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def decide_rated(user: Any, bots: Iterable[OwnedBot], requested: bool | None) -> bool:
    """Whether ``user``'s game of ``bots`` (the game API's seats) is rated.

    Raises :class:`RatedRefused` when ``rated: true`` was asked for a
    challenge or for a table where one owner holds several seats.
    """
    return decide(holders_of_bots(bots), requested, creator_id=_user_id(user)).rated

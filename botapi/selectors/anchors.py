"""The house anchors: bots of known, fixed strength the service runs itself.

A bot author's first question on a ladder is "how good is good?". The
anchors answer it: they play every engine in the arenas, in events and at
lobby tables like any bot, rated on the same ladders, but each is one of the
SDK's example policies at a fixed budget, so its rating is a known strength
to read one's own against (docs/anchors.md; the measured strengths are the
table in sdk/python/README.md).

This module is the catalogue: what each anchor is, for the pages, the API
and :mod:`botapi.services.anchors`, which creates them. Nothing here writes
and nothing here plays: the in-process player is ``botapi.anchor_player``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from botapi.models import Bot
from ratings.models import Rating, RatingScope


@dataclass(frozen=True)
class Anchor:
    """One house anchor: its bot's name, the policy it runs and what that means."""

    slug: str
    """``Bot.anchor`` and the bot's name (``examples/anchor-<slug>``)."""
    policy: str
    """``random``, ``greedy`` or ``search`` (the SDK's example bots)."""
    iterations: int
    """The search bot's budget: rollouts per decision (0 for the others)."""
    summary: str
    """One sentence for the pages and the API."""
    max_games: int
    """``Bot.max_concurrent_games``: with the budget, what bounds its CPU use."""
    cpu: str
    """CPU time of one decision, as measured (docs/anchors.md says how)."""


ANCHORS: tuple[Anchor, ...] = (
    Anchor(
        "random",
        "random",
        0,
        "plays a uniformly random legal action: the floor of every ladder",
        16,
        "under 1 ms",
    ),
    Anchor(
        "greedy",
        "greedy",
        0,
        "the SDK's greedy example bot: each game's one-move heuristic, no look-ahead",
        16,
        "about 1 ms",
    ),
    Anchor(
        "search-8",
        "search",
        8,
        "the SDK's information-set search bot with 8 rollouts per decision",
        8,
        "10-40 ms",
    ),
    Anchor(
        "search-32",
        "search",
        32,
        "the SDK's information-set search bot with 32 rollouts per decision",
        8,
        "45-175 ms",
    ),
)
"""Weakest first; the order of the pages' explanation."""

BY_SLUG = {anchor.slug: anchor for anchor in ANCHORS}

NAME_PREFIX = "anchor-"


def bot_name(anchor: Anchor) -> str:
    """The anchor's bot name (its competitor is ``<house user>/anchor-<slug>``)."""
    return f"{NAME_PREFIX}{anchor.slug}"


def anchor_of(bot: Bot) -> Anchor | None:
    """The catalogue entry of ``bot``, or None for any other bot."""
    return BY_SLUG.get(bot.anchor) if bot.anchor else None


def describe(slug: str) -> str:
    """The one-sentence summary of the anchor ``slug`` ("" for a blank or unknown one)."""
    anchor = BY_SLUG.get(slug)
    return anchor.summary if anchor is not None else ""


def anchor_bots() -> QuerySet[Bot]:
    """The anchors' bots (with competitor and owner), in no particular order."""
    return Bot.objects.exclude(anchor="").select_related("competitor", "owner")


@dataclass(frozen=True)
class AnchorRow:
    """One anchor on the anchors page: the catalogue entry, its bot and its ladder scores."""

    anchor: Anchor
    bot: Bot | None
    scores: dict[str, tuple[float, int]]
    """Engine slug -> (TrueSkill's conservative score mu - 3 sigma, rated games) on the
    engine's global ladder; engines it has no rating in are absent."""


def anchor_rows() -> list[AnchorRow]:
    """Every anchor, weakest first, with its global TrueSkill scores (two queries)."""
    bots = {bot.anchor: bot for bot in anchor_bots()}
    scores: dict[str, dict[str, tuple[float, int]]] = {}
    ratings = Rating.objects.filter(
        competitor__bot__anchor__in=list(BY_SLUG),
        scope__kind=RatingScope.Kind.GLOBAL,
        system="trueskill",
    ).values_list("competitor__bot__anchor", "scope__engine", "score", "games")
    for slug, engine, score, games in ratings:
        scores.setdefault(slug, {})[engine] = (score, games)
    return [AnchorRow(a, bots.get(a.slug), scores.get(a.slug, {})) for a in ANCHORS]

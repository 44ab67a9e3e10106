"""What a person's account does: its competitor, its consent, and what its pages show.

Views and the sign-up adapter call these; they never write a profile or a
person competitor themselves. The pages' data (ratings by scope, recent games)
is gathered here from :mod:`ratings` and :mod:`tournaments.listings`, whose
rules decide what is public about a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet

from botapi.models import Bot
from games.models import Competitor, Game, Seat
from ratings.models import Rating, RatingScope
from tournaments import game_cursor, listings
from tournaments.models import League

from .models import Profile

RECENT_GAMES = 10


def ensure_person(user: Any) -> Profile:
    """The user's profile, with its person competitor; made on first call, exactly once.

    Sign-up calls it (``people.adapter``); accounts made another way (the
    admin, the demo, ``createsuperuser``) get theirs the first time they need
    it. Creating locks the user row and looks again, so two requests cannot
    both create one; the one-to-one links make the database refuse a second anyway.
    """
    profile = Profile.objects.filter(user=user).select_related("competitor").first()
    if profile is not None:
        return profile
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        profile = Profile.objects.filter(user=user).select_related("competitor").first()
        if profile is not None:
            return profile
        competitor = Competitor.objects.create(
            kind=Competitor.Kind.PERSON, name=user.get_username(), user=user
        )
        return Profile.objects.create(user=user, competitor=competitor)


def set_consent(user: Any, accepts_bot_opponents: bool) -> Profile:
    """Record whether the person accepts bot opponents in rated games."""
    profile = ensure_person(user)
    profile.accepts_bot_opponents = bool(accepts_bot_opponents)
    profile.save(update_fields=["accepts_bot_opponents", "updated_at"])
    return profile


def profile_of_username(username: str) -> Profile | None:
    """The profile of an active account called ``username``, or None."""
    return (
        Profile.objects.select_related("user", "competitor")
        .filter(user__username=username, user__is_active=True)
        .first()
    )


# ------------------------------------------------------------------ ratings
POOL_TEXT = {
    League.Pool.MIXED: "mixed",
    League.Pool.BOTS: "bots only",
    League.Pool.PEOPLE: "people only",
}
POOL_TITLE = {
    League.Pool.MIXED: "bots and people play in it",
    League.Pool.BOTS: "only bots play in it",
    League.Pool.PEOPLE: "only people play in it",
}
GLOBAL_TITLE = "every rated game of the engine counts: bots and people"


@dataclass(frozen=True)
class ScopeRatings:
    """A competitor's ratings in one scope: which ladder, who plays in it, each system."""

    engine: str
    engine_name: str
    scope_name: str
    is_global: bool
    pool: str
    """A :class:`League.Pool` value: mixed, bots or people (the global ladder is mixed)."""
    pool_text: str
    pool_title: str
    games: int
    elo: float | None
    trueskill: Rating | None
    openskill: Rating | None


def ratings_by_scope(competitor: Competitor) -> list[ScopeRatings]:
    """Every scope the competitor is rated in: engine's global ladder first, then its leagues.

    The global ladder counts every rated game of its engine, whoever played, so
    it is mixed; a league's scope counts only its own games, and its ``pool``
    says whether people only, bots only or both sit at its tables.
    """
    ratings = Rating.objects.filter(competitor=competitor).select_related("scope__league")
    by_scope: dict[int, dict[str, Rating]] = {}
    scopes: dict[int, RatingScope] = {}
    for rating in ratings:
        scopes[rating.scope_id] = rating.scope
        by_scope.setdefault(rating.scope_id, {})[rating.system] = rating
    rows = []
    for scope_id, systems in by_scope.items():
        scope = scopes[scope_id]
        is_global = scope.kind == RatingScope.Kind.GLOBAL
        if is_global:
            pool, title, name = League.Pool.MIXED, GLOBAL_TITLE, "global ladder"
        else:
            league = scope.league
            pool = League.Pool(league.pool)
            title, name = POOL_TITLE[pool], f"league {league.name}"
        elo = systems.get("elo")
        rows.append(
            ScopeRatings(
                engine=scope.engine,
                engine_name=listings.engine_name(scope.engine),
                scope_name=name,
                is_global=is_global,
                pool=str(pool.value),
                pool_text=POOL_TEXT[pool],
                pool_title=title,
                games=max((rating.games for rating in systems.values()), default=0),
                elo=elo.value if elo is not None else None,
                trueskill=systems.get("trueskill"),
                openskill=systems.get("openskill"),
            )
        )
    rows.sort(key=lambda row: (row.engine_name, not row.is_global, row.scope_name))
    return rows


# -------------------------------------------------------------------- games
def games_of(competitor: Competitor) -> QuerySet[Game]:
    """The competitor's listed games (a semi-join on their seats, index-only: no DISTINCT)."""
    seats = Seat.objects.filter(competitor=competitor).values("game_id")
    return listings.listed_games().filter(pk__in=seats)


def recent_games(
    competitor: Competitor, before: game_cursor.Cursor | None = None, limit: int = RECENT_GAMES
) -> listings.GameList:
    """A page of the competitor's listed games, newest first, from just after ``before``."""
    return listings.games_page(games_of(competitor), before, limit)


# --------------------------------------------------------------------- bots
@dataclass(frozen=True)
class OwnBot:
    """One of the person's bots as their profile lists it."""

    bot: Bot
    engine_names: list[str]


def bots_of(user: Any) -> list[OwnBot]:
    """The bots the user owns, by name, with the names of the games they play."""
    return [
        OwnBot(bot, [listings.engine_name(slug) for slug in bot.engines])
        for bot in Bot.objects.filter(owner=user).order_by("name", "id")
    ]

"""What a person's pages read: their profile, ratings by scope, recent games and bots.

The games' data comes from :mod:`games.listings`, whose rules decide what is
public about a game; nothing here writes (that is ``people.services``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from botapi.models import Bot
from games import cursor as game_cursor
from games import listings
from games.models import Competitor, Game, Seat
from people.models import Profile
from ratings.models import Rating, RatingScope

RECENT_GAMES = 10


def profile_of_username(username: str) -> Profile | None:
    """The profile of an active account called ``username``, or None."""
    return (
        Profile.objects.select_related("user", "competitor")
        .filter(user__username=username, user__is_active=True)
        .first()
    )


# ------------------------------------------------------------------ ratings
POOL_TEXT = {
    "mixed": "mixed",
    "bots": "bots only",
    "people": "people only",
}
POOL_TITLE = {
    "mixed": "bots and people play in it",
    "bots": "only bots play in it",
    "people": "only people play in it",
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
    """A league's pool: "mixed", "bots" or "people" (the global ladder is mixed)."""
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
            pool, title, name = "mixed", GLOBAL_TITLE, "global ladder"
        else:
            league = scope.league
            pool = league.pool
            title, name = POOL_TITLE[pool], f"league {league.name}"
        elo = systems.get("elo")
        rows.append(
            ScopeRatings(
                engine=scope.engine,
                engine_name=listings.engine_name(scope.engine),
                scope_name=name,
                is_global=is_global,
                pool=pool,
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

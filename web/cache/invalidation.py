"""Which saved rows bump which page-cache token (:mod:`web.cache.tokens`).

The writes of results (games created and finished, ratings) bump their narrow
tokens where they happen (``web.cache.bumps``, called by
``create_game``, ``apply_game_result`` and ``recompute_scope``), since they use
bulk statements that send no signal; games finished or aborted arrive here as
the ``games_settled`` signal, connected below. What remains is the rows whose
names and visibility the public pages show, saved one at a time (forms, the
admin, the bot API): bumped here broadly, on any save or delete, since a stale
name or a bot shown after it was hidden is worse than a cold page. Saves that
only touch fields no page shows (a sign-in's ``last_login``, a bot's pings
and secrets, a tournament's round and status) bump only what shows them, so
play and sign-ins do not empty the cache.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save

from botapi.models import Bot
from games.models import Competitor
from games.signals import game_created, games_settled
from people.models import Profile
from ratings import signals as ratings_signals
from tournaments.models import ArenaEntry, Entrant, League, Tournament
from web.cache import bumps as pagecache_bumps
from web.cache import pagecache, tokens

# A bot's fields the public pages show (its page, and its competitor's name elsewhere).
BOT_PUBLIC_FIELDS = frozenset(
    {"name", "owner", "owner_id", "competitor", "competitor_id", "description", "engines",
     "status", "visibility"}
)  # fmt: skip
USER_PUBLIC_FIELDS = frozenset({"username", "is_active"})
# A league's or tournament's fields the competitor and game pages show (its name; a
# league's pool and engine in a person's ratings); the league and event pages show all.
EVENT_NAME_FIELDS = frozenset({"name", "slug", "pool", "engine", "league", "league_id"})


def _touches(update_fields: Any, public: frozenset[str]) -> bool:
    return update_fields is None or bool(public & set(update_fields))


def _people(sender: Any, **kwargs: Any) -> None:
    pagecache.bump_on_commit(pagecache.PEOPLE)


def _results(sender: Any, **kwargs: Any) -> None:
    pagecache.bump_on_commit(pagecache.RESULTS)


def _event_saved(sender: Any, update_fields: Any = None, **kwargs: Any) -> None:
    if _touches(update_fields, EVENT_NAME_FIELDS):
        pagecache.bump_on_commit(pagecache.RESULTS, tokens.EVENTS)
    else:
        pagecache.bump_on_commit(pagecache.RESULTS)


def _event_deleted(sender: Any, **kwargs: Any) -> None:
    pagecache.bump_on_commit(pagecache.RESULTS, tokens.EVENTS)


def _bot_saved(sender: Any, update_fields: Any = None, **kwargs: Any) -> None:
    if _touches(update_fields, BOT_PUBLIC_FIELDS):
        pagecache.bump_on_commit(pagecache.PEOPLE)


def _user_saved(sender: Any, update_fields: Any = None, **kwargs: Any) -> None:
    if _touches(update_fields, USER_PUBLIC_FIELDS):
        pagecache.bump_on_commit(pagecache.PEOPLE)


def connect() -> None:
    """Connect the receivers (``WebConfig.ready``)."""
    user = get_user_model()
    post_save.connect(_user_saved, sender=user, dispatch_uid="pagecache-user-save")
    post_save.connect(_bot_saved, sender=Bot, dispatch_uid="pagecache-bot-save")
    for model in (user, Bot, Competitor, Profile):
        post_delete.connect(_people, sender=model, dispatch_uid=f"pagecache-del-{model.__name__}")
    post_save.connect(_people, sender=Competitor, dispatch_uid="pagecache-competitor-save")
    post_save.connect(_people, sender=Profile, dispatch_uid="pagecache-profile-save")
    for model in (Entrant, ArenaEntry):
        name = model.__name__
        post_save.connect(_results, sender=model, dispatch_uid=f"pagecache-save-{name}")
        post_delete.connect(_results, sender=model, dispatch_uid=f"pagecache-del-{name}")
    for model in (League, Tournament):
        name = model.__name__
        post_save.connect(_event_saved, sender=model, dispatch_uid=f"pagecache-save-{name}")
        post_delete.connect(_event_deleted, sender=model, dispatch_uid=f"pagecache-del-{name}")
    # A new game: the lists and its competitors' pages show it once it commits.
    game_created.connect(_game_created, dispatch_uid="pagecache-created")
    # Games finished or aborted: their pages, their sets', engines' and competitors'.
    games_settled.connect(pagecache_bumps.games_settled, dispatch_uid="pagecache-settled")
    # Ratings applied or recomputed: their ladders, games and competitors.
    ratings_signals.game_rated.connect(
        pagecache_bumps.on_game_rated, dispatch_uid="pagecache-rated"
    )
    ratings_signals.scope_recomputed.connect(
        pagecache_bumps.on_scope_recomputed, dispatch_uid="pagecache-recomputed"
    )


def _game_created(sender: Any, game: Any, competitor_ids: list[int], **kwargs: Any) -> None:
    pagecache_bumps.game_created(game, competitor_ids)

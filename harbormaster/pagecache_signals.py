"""Which saved rows bump which page-cache token (:mod:`harbormaster.pagecache`).

The writes of results (games created and finished, ratings) bump
``results`` where they happen (``create_game``, ``referee.finish``,
``apply_game_result``, ``recompute_scope``, aborting an event's games), since
they use bulk statements that send no signal. What remains is the rows whose
names and visibility the public pages show, saved one at a time (forms, the
admin, the bot API): bumped here broadly, on any save or delete, since a stale
name or a bot shown after it was hidden is worse than a cold page. Saves that
only touch fields no page shows (a sign-in's ``last_login``, a bot's pings
and secrets) bump nothing, so play and sign-ins do not empty the cache.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save

from . import pagecache

# A bot's fields the public pages show (its page, and its competitor's name elsewhere).
BOT_PUBLIC_FIELDS = frozenset(
    {"name", "owner", "owner_id", "competitor", "competitor_id", "description", "engines",
     "status", "visibility"}
)  # fmt: skip
USER_PUBLIC_FIELDS = frozenset({"username", "is_active"})


def _touches(update_fields: Any, public: frozenset[str]) -> bool:
    return update_fields is None or bool(public & set(update_fields))


def _people(sender: Any, **kwargs: Any) -> None:
    pagecache.bump_on_commit(pagecache.PEOPLE)


def _results(sender: Any, **kwargs: Any) -> None:
    pagecache.bump_on_commit(pagecache.RESULTS)


def _bot_saved(sender: Any, update_fields: Any = None, **kwargs: Any) -> None:
    if _touches(update_fields, BOT_PUBLIC_FIELDS):
        pagecache.bump_on_commit(pagecache.PEOPLE)


def _user_saved(sender: Any, update_fields: Any = None, **kwargs: Any) -> None:
    if _touches(update_fields, USER_PUBLIC_FIELDS):
        pagecache.bump_on_commit(pagecache.PEOPLE)


def connect() -> None:
    """Connect the receivers (``HarbormasterConfig.ready``)."""
    from botapi.models import Bot
    from people.models import Profile
    from tournaments.models import ArenaEntry, Competitor, Entrant, League, Tournament

    user = get_user_model()
    post_save.connect(_user_saved, sender=user, dispatch_uid="pagecache-user-save")
    post_save.connect(_bot_saved, sender=Bot, dispatch_uid="pagecache-bot-save")
    for model in (user, Bot, Competitor, Profile):
        post_delete.connect(_people, sender=model, dispatch_uid=f"pagecache-del-{model.__name__}")
    post_save.connect(_people, sender=Competitor, dispatch_uid="pagecache-competitor-save")
    post_save.connect(_people, sender=Profile, dispatch_uid="pagecache-profile-save")
    for model in (League, Tournament, Entrant, ArenaEntry):
        name = model.__name__
        post_save.connect(_results, sender=model, dispatch_uid=f"pagecache-save-{name}")
        post_delete.connect(_results, sender=model, dispatch_uid=f"pagecache-del-{name}")

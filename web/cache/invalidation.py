"""Which write retires which fragments: the version names, and the receivers that bump them.

The one place where the web layer learns that something a page shows changed
(decision 0032). The pages keep their costly parts as ``{% cache %}``
fragments keyed by the versions (:mod:`web.cache.versions`) of the names
below; the domain tells what happened through its signals, and the
receivers here bump the names after the commit. No domain service imports
this: the games, ratings, events and lobby only send signals (or save rows,
whose ``post_save`` Django sends). When in doubt a write bumps more: a cold
fragment is only slow, a stale one is a bug.

======================================  =============================================
fragment                                names
======================================  =============================================
game lists (home, ``/games/``)          :data:`RESULTS`, :data:`PEOPLE`
``/leaderboards/``                      :func:`ladder` of every engine, :data:`EVENTS`,
                                        :data:`PEOPLE`
``/leaderboards/<engine>/``             :func:`ladder`, :data:`PEOPLE`; its newest
                                        games :func:`engine_games`, :data:`PEOPLE`
a person's, a bot's sections (and the   :func:`person` / :func:`bot`, :data:`EVENTS`,
owner's log)                            :data:`RECOMPUTE`, :data:`PEOPLE`
an event's page                         :func:`event`, :data:`EVENTS`, :data:`PEOPLE`
a league's page                         :data:`RESULTS`, :data:`EVENTS`, :data:`PEOPLE`
the tournaments list                    :data:`EVENT_LIST`
the lobby's lists                       :data:`LOBBY`, :data:`PEOPLE`
the leaderboard exports (API)           :func:`ladder`, :data:`PEOPLE`
======================================  =============================================

Which write bumps which:

- a game created (``game_created``): :data:`RESULTS`, :func:`engine_games`,
  its event, its competitors (every version of a bot seated).
- games finished or aborted (``games_settled``): :data:`RESULTS`, and for those
  games *and every other game of their duplicate sets* (whose records may
  have just become public) their engines' games, events and competitors.
- ratings applied (``game_rated``): :data:`RESULTS` (a league's ladder), the
  engine's :func:`ladder`, the rated competitors.
- a scope recomputed (``scope_recomputed``): :data:`RESULTS`, :data:`RECOMPUTE`,
  the engine's :func:`ladder` (a global scope).
- leagues, tournaments, entrants, rounds, tables, arena entries saved or
  deleted: the event's name, :data:`RESULTS`, :data:`EVENT_LIST`, and
  :data:`EVENTS` when a name shown elsewhere changed.
- names and visibility of users, competitors, profiles and bots: :data:`PEOPLE`.
- lobby tables and seats: :data:`LOBBY`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import quote

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.db.models.signals import post_delete, post_save

from botapi.models import Bot
from games.models import Competitor, Game, Seat
from games.signals import game_created, games_settled
from lobby.models import LobbySeat, LobbyTable
from people.models import Profile
from ratings import signals as ratings_signals
from tournaments.models import (
    Adjudication,
    ArenaEntry,
    Entrant,
    League,
    Round,
    Table,
    Tournament,
)
from tournaments.signals import event_changed
from web.cache import versions

RESULTS = "results"
"""The game lists: any game created or settled, any rating."""
PEOPLE = "people"
"""Names and visibility of competitors, people and bots: every fragment reads it."""
EVENTS = "events"
"""Names of leagues and tournaments, shown on competitor pages and the leaderboards."""
EVENT_LIST = "event-list"
"""The tournaments list: any league, tournament or entrant."""
RECOMPUTE = "recompute"
"""Bumped by every recompute: the competitor pages show ratings of any scope."""
LOBBY = "lobby"
"""The lobby's open tables and seats."""


def _part(text: str) -> str:
    """A URL's piece in a name: case folded (lookups that ignore case share it), quoted."""
    return quote(str(text).lower(), safe="")


def ladder(engine: str) -> str:
    return f"ladder:{_part(engine)}"


def engine_games(engine: str) -> str:
    return f"engine-games:{_part(engine)}"


def person(username: str) -> str:
    return f"person:{_part(username)}"


def bot(owner: str, name: str) -> str:
    """A bot's page; bumped for every version of the bot (the owner's page compares them)."""
    return f"bot:{_part(owner)}/{_part(name)}"


def event(pk: int | None) -> str:
    return f"event:{int(pk or 0)}"


def fragments(*names: str) -> versions.Versions:
    """The versions a page's fragment is keyed by: ``names`` and :data:`PEOPLE`."""
    return versions.current([*names, PEOPLE])


# -- receivers ---------------------------------------------------------------------------


class _Ids(threading.local):
    """This thread's ids waiting for the commit, named by :func:`_resolve`."""

    def __init__(self) -> None:
        self.competitors: set[int] = set()
        self.games: set[int] = set()


_ids = _Ids()


def discard_pending() -> None:
    """Forget ids and bumps waiting for a commit that will never come (tests)."""
    _ids.competitors, _ids.games = set(), set()
    versions.discard_pending()


def _game_created(sender: Any, game: Game, competitor_ids: Sequence[int], **kwargs: Any) -> None:
    _ids.competitors.update(competitor_ids)
    names = [RESULTS, engine_games(game.engine)]
    if game.tournament_id:
        names.append(event(game.tournament_id))
    versions.bump_on_commit(*names, later=_resolve)


def _games_settled(sender: Any = None, game_ids: Iterable[int] = (), **kwargs: Any) -> None:
    _ids.games.update(game_ids)
    versions.bump_on_commit(RESULTS, later=_resolve)


def _game_rated(sender: Any, game: Game, competitor_ids: Iterable[int], **kwargs: Any) -> None:
    _ids.competitors.update(competitor_ids)
    versions.bump_on_commit(RESULTS, ladder(game.engine), later=_resolve)


def _scope_recomputed(sender: Any, engine: str, is_global: bool, **kwargs: Any) -> None:
    names = [RESULTS, RECOMPUTE]
    if is_global:
        names.append(ladder(engine))
    versions.bump_on_commit(*names)


def _resolve() -> list[str]:
    """The names of the pending games and competitors (after the commit; a few queries)."""
    games, competitors = _ids.games, _ids.competitors
    _ids.games, _ids.competitors = set(), set()
    names: set[str] = set()
    if games:
        in_their_sets = Q(game_id__in=games) | Q(
            game__table_id__in=Game.objects.filter(pk__in=games, table__isnull=False).values(
                "table_id"
            )
        )
        seats = Seat.objects.filter(in_their_sets).values_list(
            "game__engine", "game__tournament_id", "competitor_id"
        )
        for engine, tournament_id, competitor_id in seats:
            names.add(engine_games(engine))
            if tournament_id:
                names.add(event(tournament_id))
            competitors.add(competitor_id)
    names.update(competitor_names(competitors))
    return sorted(names)


def competitor_names(competitor_ids: Iterable[int]) -> list[str]:
    """The names of these competitors' pages: a person's; each version's of a bot. <= 2 queries."""
    ids = set(competitor_ids)
    if not ids:
        return []
    rows = list(Competitor.objects.filter(pk__in=ids).values_list("kind", "user__username"))
    names = [person(user) for kind, user in rows if kind == Competitor.Kind.PERSON and user]
    if any(kind == Competitor.Kind.BOT for kind, _ in rows):
        owners = Bot.objects.filter(competitor_id__in=ids).values("owner_id")
        bots = Bot.objects.filter(owner_id__in=owners).values_list(
            "pk", "previous_version_id", "competitor_id", "owner__username", "name"
        )
        names += [bot(owner, name) for owner, name in _versions_of(list(bots), ids)]
    return names


def _versions_of(bots: list[tuple], competitor_ids: set[int]) -> set[tuple[str, str]]:
    """(owner, name) of every bot in the version chain of a bot of ``competitor_ids``.

    ``bots``: (id, previous version id, competitor id, owner's username, name) of
    their owners' bots; a chain is a connected part of the previous-version links.
    """
    root = {pk: pk for pk, *_ in bots}

    def find(pk: int) -> int:
        while root[pk] != pk:
            root[pk] = root[root[pk]]
            pk = root[pk]
        return pk

    for pk, previous, *_ in bots:
        if previous in root:
            root[find(pk)] = find(previous)
    played = {find(pk) for pk, _, competitor, *_ in bots if competitor in competitor_ids}
    return {(owner, name) for pk, _, _, owner, name in bots if find(pk) in played}


# Fields the public pages show: a save touching none of them bumps nothing (sign-ins, pings).
BOT_PUBLIC_FIELDS = frozenset(
    {"name", "owner", "owner_id", "competitor", "competitor_id", "description", "engines",
     "status", "visibility"}
)  # fmt: skip
USER_PUBLIC_FIELDS = frozenset({"username", "is_active"})
EVENT_NAME_FIELDS = frozenset({"name", "slug", "pool", "engine", "league", "league_id"})


def _touches(update_fields: Any, public: frozenset[str]) -> bool:
    return update_fields is None or bool(public & set(update_fields))


def _people(sender: Any, **kwargs: Any) -> None:
    versions.bump_on_commit(PEOPLE)


def _bot_saved(sender: Any, update_fields: Any = None, **kwargs: Any) -> None:
    if _touches(update_fields, BOT_PUBLIC_FIELDS):
        versions.bump_on_commit(PEOPLE)


def _user_saved(sender: Any, update_fields: Any = None, **kwargs: Any) -> None:
    if _touches(update_fields, USER_PUBLIC_FIELDS):
        versions.bump_on_commit(PEOPLE)


def _event_of(instance: Any) -> int | None:
    """The tournament a saved event row belongs to (None for a league's rows)."""
    if isinstance(instance, Tournament):
        return instance.pk
    if isinstance(instance, (Entrant, Round)):
        return instance.tournament_id
    if isinstance(instance, Adjudication):
        return (
            Game.objects.filter(pk=instance.game_id).values_list("tournament_id", flat=True).first()
        )
    return None


def _event_row(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    names = [RESULTS, EVENT_LIST]
    tournament = _event_of(instance)
    if tournament:
        names.append(event(tournament))
    if isinstance(instance, (League, Tournament)) and (
        kwargs.get("signal") is post_delete or _touches(update_fields, EVENT_NAME_FIELDS)
    ):
        names.append(EVENTS)
    if isinstance(instance, Table):
        round_id = instance.round_id
        versions.bump_on_commit(*names, later=lambda: _table_event(round_id))
    else:
        versions.bump_on_commit(*names)


def _table_event(round_id: int) -> list[str]:
    tournament = Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()
    return [event(tournament)] if tournament else []


def _event_changed(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    versions.bump_on_commit(RESULTS, EVENT_LIST, event(tournament_id))


def _lobby(sender: Any, **kwargs: Any) -> None:
    versions.bump_on_commit(LOBBY)


def connect() -> None:
    """Connect the receivers (``WebConfig.ready``)."""
    user = get_user_model()
    post_save.connect(_user_saved, sender=user, dispatch_uid="fragments-user-save")
    post_save.connect(_bot_saved, sender=Bot, dispatch_uid="fragments-bot-save")
    for model in (user, Bot, Competitor, Profile):
        post_delete.connect(_people, sender=model, dispatch_uid=f"fragments-del-{model.__name__}")
    post_save.connect(_people, sender=Competitor, dispatch_uid="fragments-competitor-save")
    post_save.connect(_people, sender=Profile, dispatch_uid="fragments-profile-save")
    for model in (League, Tournament, Entrant, Round, Table, ArenaEntry, Adjudication):
        name = model.__name__
        post_save.connect(_event_row, sender=model, dispatch_uid=f"fragments-save-{name}")
        post_delete.connect(_event_row, sender=model, dispatch_uid=f"fragments-del-{name}")
    for model in (LobbyTable, LobbySeat):
        name = model.__name__
        post_save.connect(_lobby, sender=model, dispatch_uid=f"fragments-save-{name}")
        post_delete.connect(_lobby, sender=model, dispatch_uid=f"fragments-del-{name}")
    event_changed.connect(_event_changed, dispatch_uid="fragments-event-changed")
    game_created.connect(_game_created, dispatch_uid="fragments-created")
    games_settled.connect(_games_settled, dispatch_uid="fragments-settled")
    ratings_signals.game_rated.connect(_game_rated, dispatch_uid="fragments-rated")
    ratings_signals.scope_recomputed.connect(_scope_recomputed, dispatch_uid="fragments-recomputed")

"""Which page-cache tokens a write of results bumps (``web.cache.tokens``).

The writers call these inside their transaction; the tokens are bumped after
the commit (``pagecache.bump_on_commit``), all of one transaction in one
``set_many``. What needs a query to name -- a game's seats and duplicate set,
a competitor's username, a bot's versions -- is kept as ids and looked up only
then, in at most three queries for the whole transaction (none while its
locks are held):

- :func:`game_created`: the game lists, the engine's newest games, the
  competitors seated.
- :func:`games_settled` (the ``games_settled`` receiver: finished or aborted
  games): the game lists, and for those games and every other game of their
  duplicate sets (their records may have just become public, and with them
  their rows on the competitors' pages) the game's page, its engine's newest
  games and its competitors.
- :func:`game_rated` (``apply_game_result``): the game lists (a league's
  ladder), the engine's ladder, the game's page, the rated competitors.
- :func:`scope_recomputed`: the game lists, the engine's ladder (a global
  scope) and the broad ``recompute`` token every competitor and game page reads.

A competitor's tokens: a person's page by username; a bot's page by owner
and name, for *every version of the bot* (``Bot.previous_version`` chains,
always among one owner's bots), since the owner's page compares the versions.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from django.db.models import Q

from botapi.models import Bot
from games.models import Competitor, Game, Seat
from web.cache import pagecache, tokens


class _Ids(threading.local):
    """This thread's ids waiting for the commit, resolved into names by :func:`_resolve`."""

    def __init__(self) -> None:
        self.competitors: set[int] = set()
        self.games: set[int] = set()


_ids = _Ids()


def discard_pending() -> None:
    """Forget ids waiting for a commit that will never come (tests)."""
    _ids.competitors, _ids.games = set(), set()


def game_created(game: Game, competitor_ids: Iterable[int]) -> None:
    """``create_game``: the lists show it, and its competitors' pages list it."""
    _ids.competitors.update(competitor_ids)
    pagecache.bump_on_commit(tokens.RESULTS, tokens.engine_games(game.engine), later=_resolve)


def games_settled(sender: object = None, game_ids: Iterable[int] = (), **kwargs: object) -> None:
    """Games finished or aborted (the ``games.signals.games_settled`` receiver)."""
    _ids.games.update(game_ids)
    pagecache.bump_on_commit(tokens.RESULTS, later=_resolve)


def game_rated(game: Game, competitor_ids: Iterable[int]) -> None:
    """``apply_game_result``: its ladders, its page (rating effects), its competitors."""
    _ids.competitors.update(competitor_ids)
    pagecache.bump_on_commit(
        tokens.RESULTS, tokens.ladder(game.engine), tokens.game(game.pk), later=_resolve
    )


def scope_recomputed(engine: str, is_global: bool) -> None:
    """``recompute_scope``: every rating of the scope, its changes on every game page."""
    names = [tokens.RESULTS, tokens.RECOMPUTE]
    if is_global:
        names.append(tokens.ladder(engine))
    pagecache.bump_on_commit(*names)


def on_game_rated(sender: Any, game: Game, competitor_ids: Iterable[int], **kwargs: Any) -> None:
    """The ``ratings.signals.game_rated`` receiver."""
    game_rated(game, competitor_ids)


def on_scope_recomputed(sender: Any, engine: str, is_global: bool, **kwargs: Any) -> None:
    """The ``ratings.signals.scope_recomputed`` receiver."""
    scope_recomputed(engine, is_global)


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
        for game_id, engine, competitor_id in Seat.objects.filter(in_their_sets).values_list(
            "game_id", "game__engine", "competitor_id"
        ):
            names.update((tokens.game(game_id), tokens.engine_games(engine)))
            competitors.add(competitor_id)
        names.update(tokens.game(pk) for pk in games)  # a game without seats too
    names.update(competitor_names(competitors))
    return sorted(names)


def competitor_names(competitor_ids: Iterable[int]) -> list[str]:
    """The tokens of these competitors' pages: a person's; each version's of a bot. <= 2 queries."""

    ids = set(competitor_ids)
    if not ids:
        return []
    rows = list(Competitor.objects.filter(pk__in=ids).values_list("kind", "user__username"))
    person = Competitor.Kind.PERSON
    names = [tokens.person(user) for kind, user in rows if kind == person and user]
    if any(kind == Competitor.Kind.BOT for kind, _ in rows):
        owners = Bot.objects.filter(competitor_id__in=ids).values("owner_id")
        bots = Bot.objects.filter(owner_id__in=owners).values_list(
            "pk", "previous_version_id", "competitor_id", "owner__username", "name"
        )
        names += [tokens.bot(owner, name) for owner, name in _versions_of(list(bots), ids)]
    return names


def _versions_of(bots: list[tuple], competitor_ids: set[int]) -> set[tuple[str, str]]:
    """(owner, name) of every bot in the version chain of a bot of ``competitor_ids``.

    ``bots``: (id, previous version id, competitor id, owner's username, name)
    of their owners' bots. A chain is a connected part of the previous-version
    links, found by joining each bot to its previous version.
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

"""The page cache's token names: which page reads which, and which write bumps it.

Two broad tokens were all there was (``results``, ``people``), and every
public page read both, so any game created or finished emptied every page
under steady play. Now a page reads the tokens of what it shows, so a finished
game empties the game lists, its engine's ladder, its own page and its
competitors' pages, and nothing else. Correctness before hit rate: when in
doubt a write bumps more (a cold page is only slow; a stale one is a bug).

The names are built here, from what the page's URL holds (an engine slug, a
username, a bot's owner and name, a game id), so the cache is read before any
query runs; this module knows no model (``web.cache.pagecache`` does not
either). The writes that find the names from rows (whose seats, whose bots)
are ``web.cache.bumps``.

Which page reads which token (``people`` on every page: names, visibility):

======================================  =============================================
page                                    tokens
======================================  =============================================
``/``, ``/games/``, ``GET /api/v1/      :data:`RESULTS`
games/``, ``/leagues/<slug>/``, a
league's leaderboard API
``/leaderboards/<engine>/``             :func:`ladder`, :func:`engine_games`,
                                        :data:`EVENTS`
``/leaderboards/``                      :func:`ladder` of every engine,
                                        :data:`EVENTS` (the leagues)
``GET /api/v1/leaderboards/<engine>/``  :func:`ladder`
(JSON and CSV)
``/people/<username>/``                 :func:`person`, :data:`EVENTS`, :data:`RECOMPUTE`
``/bots/<owner>/<name>/`` (and the      :func:`bot`, :data:`EVENTS`, :data:`RECOMPUTE`
owner's log fragment: :func:`bot_page`)
``/games/<id>/`` (once public)          :func:`game`, :data:`EVENTS`, :data:`RECOMPUTE`
======================================  =============================================

Which write bumps which (after its commit, one ``set_many`` per transaction):

- ``create_game``: :data:`RESULTS`, :func:`engine_games`, its competitors'
  :func:`person` / :func:`bot` (every version of a bot seated).
- a game finished or aborted (``games_settled``: the referee's finish, an
  event's games aborted): :data:`RESULTS`, and for those games *and every
  other game of their duplicate sets* (which may have become public) their
  :func:`game`, :func:`engine_games` and competitors' tokens.
- ``apply_game_result``: :data:`RESULTS` (a league's ladder), :func:`ladder`
  of the engine, :func:`game`, the rated competitors' tokens.
- ``recompute_scope``: :data:`RESULTS`, :data:`RECOMPUTE` (every competitor
  and game page: a recompute is rare) and the engine's :func:`ladder`.
- a league or tournament saved with a name (or created, deleted):
  :data:`RESULTS` and :data:`EVENTS`; an entrant or arena entry: :data:`RESULTS`.
- names and visibility of competitors, people, bots: :data:`PEOPLE`
  (``web.cache.invalidation``).
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import quote

from web.cache.pagecache import PEOPLE, RESULTS

EVENTS = "events"
"""Names of leagues and tournaments, shown on competitor and game pages."""
RECOMPUTE = "recompute"
"""Bumped by every recompute: the competitor and game pages show ratings of any scope."""

__all__ = [
    "EVENTS", "PEOPLE", "RECOMPUTE", "RESULTS", "bot", "bot_page", "engine_games", "game",
    "game_page", "ladder", "ladder_api", "ladder_page", "ladders_overview", "lists", "person",
    "person_page",
]  # fmt: skip


def _part(text: str) -> str:
    """A URL's piece as a token name's: case folded (lookups that ignore case share it),
    quoted (no space or control character in a cache key)."""
    return quote(text.lower(), safe="")


def ladder(engine: str) -> str:
    """The ratings of an engine's global ladder (its leaderboard, the API, the overview)."""
    return f"ladder:{_part(engine)}"


def engine_games(engine: str) -> str:
    """An engine's games as its leaderboard page lists them (the newest few)."""
    return f"engine-games:{_part(engine)}"


def person(username: str) -> str:
    """What a person's page shows of their games, tallies and ratings."""
    return f"person:{_part(username)}"


def bot(owner: str, name: str) -> str:
    """What a bot's page shows of its games, tallies and ratings.

    Bumped for every version of the bot (``botapi.versions``) when any of them
    plays: the owner's page compares the versions' ratings and head-to-head.
    """
    return f"bot:{_part(owner)}/{_part(name)}"


def game(pk: int) -> str:
    """A finished game's page (stored only once its record is public)."""
    return f"game:{int(pk)}"


# -- what each page reads -------------------------------------------------------------


def lists(*_: object, **__: object) -> list[str]:
    """Home, ``/games/``, the games API, a league's page and leaderboard API."""
    return [RESULTS, PEOPLE]


def ladder_page(request: object, engine: str) -> list[str]:
    """``/leaderboards/<engine>/``: the ladder and the engine's newest games."""
    return [ladder(engine), engine_games(engine), EVENTS, PEOPLE]


def ladder_api(engine: str) -> list[str]:
    """``GET /api/v1/leaderboards/<engine>/``, JSON pages and CSV."""
    return [ladder(engine), PEOPLE]


def ladders_overview(engines: Iterable[str]) -> list[str]:
    """``/leaderboards/``: the top of every engine's ladder, and the leagues' names."""
    return [*(ladder(engine) for engine in engines), EVENTS, PEOPLE]


def person_page(request: object, username: str) -> list[str]:
    """``/people/<username>/``."""
    return [person(username), EVENTS, RECOMPUTE, PEOPLE]


def bot_page(request: object, owner: str, name: str) -> list[str]:
    """``/bots/<owner>/<name>/``; the owner's log fragment reads the same
    (``bot_page(None, owner_username, bot.name)``)."""
    return [bot(owner, name), EVENTS, RECOMPUTE, PEOPLE]


def game_page(request: object, pk: int) -> list[str]:
    """``/games/<id>/``."""
    return [game(pk), EVENTS, RECOMPUTE, PEOPLE]

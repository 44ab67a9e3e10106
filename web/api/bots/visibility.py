"""What a bot's owner may see of a game the bot sits in.

The rule of thumb is *show less when in doubt*; the reasons:

* **Chance moves of an unfinished game are never shown** (not even as a
  placeholder row): a chance action can name a card drawn into a hand, the
  order of a shuffled deck or a tile still face down. Once the game is
  finished the whole log is public.
* **Other seats' actions of an unfinished game are hidden** (``action`` is
  null). Most player actions are public in these games, but an engine may
  let a player choose something secret (a card to keep, a hidden bid); the
  public record during play is the event log in the views, which engines
  guarantee secret-free. Finished: every action is shown.
* **Latency, faults, source and request/reply excerpts only for the bot's
  own seats**, finished or not: they are the bot's private diagnostics, and
  another owner's faults are theirs. The excerpts of the bot's own moves hold
  exactly what was sent to and received from this bot, so nothing in them is
  new to its owner.
* A game counts as finished only once its record is public
  (:func:`record_public`): with status ``finished``, and for a game of a
  duplicate set once the whole set is, since the set's other games (the bot's
  own among them) still play the same deal. An aborted game keeps its secrets
  (its seed is never revealed either).
"""

from __future__ import annotations

from typing import Any

from botapi.models import Bot
from engines import CHANCE
from games import spectator
from games.models import Game, Move, Seat


def record_public(game: Game) -> bool:
    """Whether ``game`` counts as finished here: the public pages' rule, ``spectator.is_public``."""
    return spectator.is_public(game)


def own_seats(bot: Bot, game: Game) -> set[int]:
    """Positions the bot holds in ``game`` (several when it plays itself)."""
    return {seat.position for seat in game.seats.all() if seat.competitor_id == bot.competitor_id}


def seat_entry(seat: Seat, bot: Bot, game: Game) -> dict[str, Any]:
    mine = seat.competitor_id == bot.competitor_id
    finished = record_public(game)
    return {
        "position": seat.position,
        "competitor": seat.competitor.name,
        "this_bot": mine,
        "forfeited": seat.forfeited if (mine or finished) else None,
        "fault_count": seat.fault_count if mine else None,
    }


def visible_moves(game: Game, finished: bool):
    """The moves that may appear at all: every move when finished, else no chance move."""
    moves = Move.objects.filter(game=game).order_by("ply")
    if not finished:
        moves = moves.exclude(seat=CHANCE)
    return moves


def move_entry(move: Move, own: set[int], finished: bool) -> dict[str, Any]:
    """One move reduced to what the bot's owner may see (see the module doc)."""
    mine = move.seat in own
    if move.seat == CHANCE and not finished:  # pragma: no cover - excluded by visible_moves
        raise ValueError("a chance move of an unfinished game must never be shown")
    entry: dict[str, Any] = {
        "ply": move.ply,
        "seat": move.seat,
        "this_bot": mine,
        "action": move.action if (mine or finished) else None,
        "source": None,
        "latency_ms": None,
        "fault_kind": None,
        "fault_detail": None,
        "request_excerpt": None,
        "reply_excerpt": None,
        "created_at": move.created_at,
    }
    if mine:
        entry.update(
            source=move.source,
            latency_ms=move.latency_ms,
            fault_kind=move.fault_kind,
            fault_detail=move.fault_detail,
            request_excerpt=move.request_excerpt,
            reply_excerpt=move.reply_excerpt,
        )
    return entry

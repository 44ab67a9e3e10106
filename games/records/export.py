"""A finished, public game's full record as JSON: everything ``engines.replay`` needs, and more.

The spectator's record (``spectator.game_record``) is what a page shows: the
move log with descriptions and events. This is the *file* a bot author or an
auditor downloads to rebuild the game on their own machine: engine, rules
version, options, seed and commitment, the seats, every move in order with
who made it and how (a bot, a person, chance, a default after a fault, a
house bot), and the outcome. ``engines.replay(engine, num_players, options,
[(m["seat"], m["action"]) for m in moves])`` rebuilds the final state; its
``outcome()`` ranks, with forfeited seats moved last
(``games.selectors.ranks.final_ranks``), are the record's ranks.

Only once the record is public (``spectator.is_public``): before, the actions
and the seed are secret (a chance move names a dealt card, the seed all of
them), and a game of a duplicate set stays closed until its whole set is over.
Latency, fault details and request/reply excerpts are never included.
"""

from __future__ import annotations

from typing import Any

from games.models import Game, Move
from games.selectors import spectator

FORMAT = "harbormaster-game-record/1"
"""Names this layout, so a reader can tell if it ever changes."""


class NotPublic(Exception):
    """The game's record is still secret: not finished, or its duplicate set still playing."""


def why_not_public(game: Game) -> str:
    """The sentence a refused export (or verify page) gives, naming no secret."""
    if game.status == Game.Status.ABORTED:
        return f"game {game.pk} was aborted: an aborted game keeps its seed and its moves secret"
    if game.status != Game.Status.FINISHED:
        return f"game {game.pk} is {game.status}: its record is published when it has finished"
    return (
        f"game {game.pk} is part of a duplicate set still being played on the same deal: "
        "its record is published when the whole set has finished"
    )


def full_record(game: Game) -> dict[str, Any]:
    """``game``'s downloadable record; :class:`NotPublic` while it is secret.

    ``game`` should come with its outcome and seats (``listings.games_with_seats``
    or the game API's queryset): the moves are then the only other query.
    """
    if not spectator.is_public(game):
        raise NotPublic(why_not_public(game))
    seats = sorted(game.seats.all(), key=lambda seat: seat.position)
    moves = (
        Move.objects.filter(game_id=game.pk, ply__lt=game.next_ply)
        .order_by("ply")
        .values_list("ply", "seat", "action", "source", "fault_kind")
    )
    return {
        "format": FORMAT,
        "id": game.pk,
        "engine": game.engine,
        "engine_version": game.engine_version,
        "num_players": game.num_players,
        "options": game.options,
        "seed": game.seed,
        "seed_commitment": game.seed_commitment,
        "rated": game.rated,
        "unrated_reason": game.unrated_reason or None,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "seats": [
            {
                "position": seat.position,
                "competitor_id": seat.competitor_id,
                "competitor": seat.competitor.name,
                "kind": seat.competitor.kind,
                "forfeited": seat.forfeited,
                "withdrawn": seat.withdrawn,
                "substituted": seat.substituted,
                "rank_note": spectator.LEFT_RANKED_LAST if seat.forfeited else None,
            }
            for seat in seats
        ],
        "moves": [
            {
                "ply": ply,
                "seat": seat,
                "action": action,
                "source": source,
                "default": spectator.default_mark(source, fault_kind),
            }
            for ply, seat, action, source, fault_kind in moves
        ],
        "outcome": spectator.outcome_of(game),
    }

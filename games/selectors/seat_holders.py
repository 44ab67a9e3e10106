"""Which seats of a game a signed-in user holds, for what they may see of it before it is public.

A user holds a seat when they are the person in it or own the bot in it. This
is wider than ``person_moves.viewer_for`` (who may *act* from a socket: persons
only, since a bot's moves come from the bot) and is used only for *seeing*:
during a game, a seat's holder may replay their own seat's view, the actions
it was offered and took, and for a bot its latency and fault kind -- what the
play page and the bot API already showed them, and never another seat's.
"""

from __future__ import annotations

from typing import Any

from games.models import Competitor, Game


def seats_held_by(game: Game, user: Any) -> frozenset[int]:
    """The positions of ``game`` that ``user`` holds (none for anonymous users).

    ``game`` should come with its seats and competitors prefetched
    (``listings.games_with_seats``): persons then cost no query, and bots one
    when the game seats any (``Bot.owner`` is the authority on who owns a bot).
    """
    if user is None or not getattr(user, "is_authenticated", False):
        return frozenset()
    seats = list(game.seats.all())
    held = {
        seat.position
        for seat in seats
        if seat.competitor.kind == Competitor.Kind.PERSON and seat.competitor.user_id == user.pk
    }
    bots = {seat.competitor_id for seat in seats if seat.competitor.kind == Competitor.Kind.BOT}
    if bots:
        owned = set(
            Competitor.objects.filter(pk__in=bots, bot__owner=user).values_list("pk", flat=True)
        )
        held |= {seat.position for seat in seats if seat.competitor_id in owned}
    return frozenset(held)

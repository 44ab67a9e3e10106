"""The house bot that plays a substituted seat: the greedy example bot, called in-process.

When a person's seat is substituted (they timed out ``BOT_MAX_FAULTS_PER_GAME``
times, or resigned), the referee asks this module for that seat's moves
instead of playing the engine's default, so the other players still play a
real game to the end.

The house bot is given exactly what a bot is given in an ``act`` request:
``state.view(seat)`` and ``state.legal_actions(seat)``, both as JSON (the
shape the greedy policies are written for), never the state itself, so it
cannot play with another seat's secrets. It is deterministic: the greedy
policy breaks ties with a generator seeded from (game id, seat, ply), exactly
as the greedy bot served over HTTP seeds it from the same request, so a test
or a second look at a move gets the same choice. (The game seed is not
needed for that, and a player's choice should not depend on the secret that
fixes the dice.)

Whatever goes wrong in the policy (an exception, an index that is not one of
the legal actions) is logged and the engine's default is played instead, as
for a seat that forfeited: the referee never crashes because of it.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from django.db.models import QuerySet
from harbormaster_bot.examples.greedy import CHOOSERS
from harbormaster_bot.examples.greedy.common import request_rng

from engines import State
from games.models import Competitor, Move, Seat
from games.referee.decisions import FORFEITED, Decision, default_decision

log = logging.getLogger(__name__)


def choose(engine: str, view: Any, legal: list[dict[str, Any]], key: tuple[Any, int, int]) -> int:
    """Index into ``legal`` the greedy policy of ``engine`` picks for ``view``.

    ``key`` is (game id, seat, ply), which seeds the tie-breaking exactly as a
    greedy bot's request would. Only the seat's view and the legal actions are
    read; raises whatever the policy raises, and ``LookupError`` for an engine
    without a greedy policy.
    """
    if len(legal) == 1:
        return 0
    chooser = CHOOSERS[engine]
    game_id, seat, ply = key
    rng = request_rng({"game": {"id": game_id, "seat": seat}, "ply": ply})
    return chooser(_as_json(view), _as_json(legal), rng)


def decide(engine: str, game_id: int, seat: int, state: State, ply: int) -> Decision:
    """The house bot's decision for ``seat`` at ``ply``: source ``house``, with its latency.

    Falls back to the engine's default (logged) if the policy raises or answers
    with anything but the index of a legal action.
    """
    legal = state.legal_actions(seat)
    view = state.view(seat)
    started = time.perf_counter()
    try:
        index = choose(engine, view, legal, (game_id, seat, ply))
    except Exception as exc:  # a policy bug must never stop the game
        log.exception("game %s seat %s ply %s: the house bot failed", game_id, seat, ply)
        return _fallback(
            state, seat, f"the house bot failed ({type(exc).__name__}); default action"
        )
    latency_ms = round((time.perf_counter() - started) * 1000)
    if type(index) is not int or not 0 <= index < len(legal):
        log.error(
            "game %s seat %s ply %s: the house bot answered %r, not one of %d legal actions",
            game_id, seat, ply, index, len(legal),
        )  # fmt: skip
        return _fallback(state, seat, f"the house bot answered {index!r}; default action")
    return Decision(legal[index], source=Move.Source.HOUSE, latency_ms=latency_ms)


def _fallback(state: State, seat: int, detail: str) -> Decision:
    return default_decision(state, seat, FORFEITED, detail)


def _as_json(value: Any) -> Any:
    """``value`` as a bot receives it over HTTP (tuples become lists, keys strings), a copy."""
    return json.loads(json.dumps(value))


def forfeit_seats(seats: QuerySet[Seat], **fields: Any) -> None:
    """Forfeit ``seats`` (with ``fields`` set too); a person's is also substituted.

    The one rule for every way a seat forfeits mid-game (the fault limit, a
    resignation, a withdrawal from the event): the house bot plays a person's
    seat to the end, so the others keep a real game; a bot's seat gets the
    engine's defaults, since its owner is the one who has to fix it.
    """
    seats.filter(competitor__kind=Competitor.Kind.PERSON).update(
        forfeited=True, substituted=True, **fields
    )
    seats.exclude(competitor__kind=Competitor.Kind.PERSON).update(forfeited=True, **fields)

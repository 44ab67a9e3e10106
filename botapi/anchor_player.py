"""The house anchors' moves, computed in-process by the referee: no port, no HTTP.

``botapi.referee.ask_bot`` hands an anchor's seat here instead of calling an
endpoint. The anchor is given exactly what a push bot's ``act`` request
carries, built by the same :func:`botapi.protocol.act_request` from
``state.view(seat)`` and ``state.legal_actions(seat)`` (a JSON copy, as it
would arrive over HTTP), never the state: an anchor cannot play with another
seat's secrets. Its answer is returned to the referee, which submits it like
any bot's (``referee.submit``: checked, claimed exactly once, on the seat's
clock: the time it took is charged to the seat's bank as for a push bot).

Where it runs: in the referee's ``advance_game`` Celery task (queue
``referee``), the task that would otherwise call a push bot, so the move
costs a worker the time it thinks. That time is bounded by the anchor's
fixed budget, not by a clock: random and greedy answer in about a
millisecond; the search bot runs its ``iterations`` rollouts (8 or 32), a
few tens of milliseconds of CPU per decision, with :data:`CPU_SECONDS` as a
cap for an unusual position, and it stops early, like the served bot, when
the move time is nearly up. How many games an anchor plays at once is its
``max_concurrent_games`` (the catalogue's ``max_games``), enforced by
``create_game`` as for every bot.

Deterministic: the random anchor's choice is seeded from (game, seat, ply),
greedy's tie-breaking and the search's samples from the request exactly as
the served bots do, so a second look at a move gets the same choice.

A failure of the policy (an exception, an answer that is not a legal index)
is logged and the engine's default is played as a fault of kind
``anchor_error``: the record says what happened, and the move counts against
nobody's health, since an anchor is never suspended for it
(``botapi.services.bots.record_game_health``).
"""

from __future__ import annotations

import json
import logging
import time
import zlib
from collections.abc import Callable
from typing import Any

from harbormaster_bot import Turn
from harbormaster_bot.examples.greedy import GreedyBot
from harbormaster_bot.examples.random_bot import RandomBot
from harbormaster_bot.examples.search import SearchBot
from harbormaster_bot.server import answer_budget_ms

from botapi.selectors.anchors import BY_SLUG, Anchor
from games.models import Move
from games.referee.decisions import Decision

log = logging.getLogger(__name__)

FAULT_KIND = "anchor_error"
"""Fault kind of the default played when an anchor's own policy failed."""

CPU_SECONDS = 2.0
"""Cap on the CPU time of one search decision (its iteration budget normally ends it first)."""


def handler(anchor: Anchor, key: tuple[Any, int, int]) -> Any:
    """A fresh SDK handler for one decision of ``anchor``; ``key`` is (game id, seat, ply)."""
    if anchor.policy == "random":
        return RandomBot(seed=zlib.crc32("/".join(map(str, key)).encode()))
    if anchor.policy == "greedy":
        return GreedyBot()
    if anchor.policy == "search":
        return SearchBot(seed=0, iterations=anchor.iterations, cpu_seconds=CPU_SECONDS)
    raise LookupError(f"no policy {anchor.policy!r}")


def decide(
    slug: str, request: dict[str, Any], deadline_ms: int, fallback: Callable[..., Decision]
) -> Decision:
    """The anchor ``slug``'s decision on the ``act`` request ``request`` (source ``bot``).

    ``request`` is what a push bot would be sent; only its JSON copy reaches
    the policy. The policy may think until the deadline less the SDK's
    network margin, as the served bot would. ``fallback(kind, detail, **extra)``
    is the referee's default for a seat that did not answer properly (the
    engine's ``default_action``, asked only when the policy failed).
    """
    legal = request["legal_actions"]
    turn = Turn(
        json.loads(json.dumps(request)),
        answer_by=time.monotonic() + answer_budget_ms(deadline_ms) / 1000,
    )
    key = (request["game"]["id"], request["game"]["seat"], request["ply"])
    started = time.perf_counter()
    try:
        anchor = BY_SLUG[slug]
        index = handler(anchor, key).act(turn)
    except Exception as exc:  # a policy bug must never stop the game
        log.exception("anchor %s, game %s seat %s ply %s: the policy failed", slug, *key)
        return fallback(FAULT_KIND, f"the anchor's policy failed ({exc!r})")
    latency_ms = round((time.perf_counter() - started) * 1000)
    if type(index) is not int or not 0 <= index < len(legal):
        log.error("anchor %s, game %s seat %s ply %s: answered %r", slug, *key, index)
        return fallback(FAULT_KIND, f"the anchor answered {index!r}", latency_ms=latency_ms)
    return Decision(legal[index], source=Move.Source.BOT, latency_ms=latency_ms)

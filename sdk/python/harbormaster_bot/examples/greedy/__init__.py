"""Greedy example bots: one simple heuristic per game, clearly better than random.

    from harbormaster_bot.examples.greedy import greedy_bot
    bot = greedy_bot("manila")       # or None: plays whichever game it is asked
    serve(bot, port=8002)

or from a shell::

    .venv/bin/python -m harbormaster_bot.examples.greedy --engine manila --secret ...

Each game's heuristic lives in its own module (``manila``, ``batavia``,
``cargo_noir``, ``grog_island``) as ``choose(view, legal_actions, rng)``
returning an index into the legal actions. They read only the act request
(standard library only, no engine code), answer in well under a millisecond
or two, and are deterministic: ties are broken by a generator seeded from
the request. ``bench/bots.py`` measures them against the random bot.
"""

from __future__ import annotations

import logging

from harbormaster_bot.server import Turn

from . import batavia, cargo_noir, grog_island, manila
from .common import Chooser, request_rng

log = logging.getLogger("harbormaster.bot.greedy")

CHOOSERS: dict[str, Chooser] = {
    "manila": manila.choose,
    "batavia": batavia.choose,
    "cargo_noir": cargo_noir.choose,
    "grog_island": grog_island.choose,
}
"""Engine slug -> that game's greedy ``choose(view, legal, rng)``."""


class GreedyBot:
    """An SDK handler that plays each request with its game's greedy heuristic."""

    def __init__(self, engine: str | None = None) -> None:
        if engine is not None and engine not in CHOOSERS:
            raise ValueError(f"no greedy bot for {engine!r}; known: {', '.join(CHOOSERS)}")
        self.engine = engine

    def act(self, turn: Turn) -> int:
        """Index of the chosen action in ``turn.legal_actions``.

        A game this module has no heuristic for (e.g. the ``sample`` request of
        ``harbormaster_bot.check``) gets the first legal action; one of the four
        games other than the bot's own ``engine`` is refused with an error, so
        a bot registered for the wrong game shows up as a fault.
        """
        slug = turn.game["engine"]
        if self.engine is not None and slug != self.engine and slug in CHOOSERS:
            raise ValueError(f"this greedy bot plays {self.engine}, not {slug}")
        legal = turn.legal_actions
        chooser = CHOOSERS.get(slug)
        if chooser is None:
            log.warning("no greedy heuristic for %r: playing the first legal action", slug)
            return 0
        if len(legal) == 1:
            return 0
        return chooser(turn.view, legal, request_rng(turn.request))


def greedy_bot(engine: str | None = None) -> GreedyBot:
    """The greedy bot for ``engine`` (a slug), or for every game when None."""
    return GreedyBot(engine)


__all__ = ["CHOOSERS", "GreedyBot", "greedy_bot"]

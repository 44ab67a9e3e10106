"""A bot that plays a uniformly random legal action, in any Harbormaster game.

Run it::

    HARBORMASTER_SECRET=your-secret .venv/bin/python -m harbormaster_bot.examples.random_bot

It listens on 127.0.0.1:8001 unless told otherwise (``--port``): ``make demo``
serves the site on 8000, and the greedy example bot defaults to 8002, so all
three run side by side.

It never looks at the view: every game lists its legal actions in each
request, so choosing among them by index always works. Start from here and
make ``act`` smarter.
"""

from __future__ import annotations

import argparse
import logging
import random
from typing import Any

from harbormaster_bot import DEFAULT_PORT, Turn, serve

log = logging.getLogger(__name__)


class RandomBot:
    """Picks a random index into ``turn.legal_actions``."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, turn: Turn) -> int:
        return self.rng.randrange(len(turn.legal_actions))

    def start(self, request: dict[str, Any]) -> None:
        game = request["game"]
        log.info("game %s of %s begins; I am seat %s", game["id"], game["engine"], game["seat"])

    def finish(self, request: dict[str, Any]) -> None:
        seat = request["game"]["seat"]
        log.info(
            "game %s over; my rank: %s", request["game"]["id"], request["outcome"]["ranks"][seat]
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port to listen on (default {DEFAULT_PORT}; 0 = any free one)",
    )
    parser.add_argument("--secret", help="signing secret (default: $HARBORMASTER_SECRET)")
    parser.add_argument("--seed", type=int, help="random seed, for reproducible play")
    parser.add_argument("--name", default="random", help="name reported to pings")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    serve(
        RandomBot(args.seed),
        host=args.host,
        port=args.port,
        secret=args.secret,
        name=args.name,
        version="1",
    )


if __name__ == "__main__":
    main()

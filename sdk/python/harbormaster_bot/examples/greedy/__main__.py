"""Serve a greedy example bot.

    HARBORMASTER_SECRET=... .venv/bin/python -m harbormaster_bot.examples.greedy --engine manila

Without ``--engine`` the bot plays whichever of the four games it is asked.
It listens on 127.0.0.1:8002 unless told otherwise (``--port``): ``make demo``
serves on 8000 and the random example bot on 8001.
"""

from __future__ import annotations

import argparse
import logging

from harbormaster_bot import serve

from . import CHOOSERS, greedy_bot

DEFAULT_PORT = 8002


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve a greedy Harbormaster example bot.")
    parser.add_argument("--engine", choices=sorted(CHOOSERS), help="the only game it accepts")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port to listen on (default {DEFAULT_PORT}; 0 = any free one)",
    )
    parser.add_argument("--secret", help="signing secret (default: $HARBORMASTER_SECRET)")
    parser.add_argument("--name", help="name reported to pings (default: greedy-<engine>)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    serve(
        greedy_bot(args.engine),
        host=args.host,
        port=args.port,
        secret=args.secret,
        name=args.name or f"greedy-{args.engine or 'all'}",
        version="1",
    )


if __name__ == "__main__":
    main()

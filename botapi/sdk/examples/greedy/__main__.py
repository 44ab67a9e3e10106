"""Serve a greedy example bot.

    HARBORMASTER_SECRET=... python -m botapi.sdk.examples.greedy --engine manila --port 8001

Without ``--engine`` the bot plays whichever of the four games it is asked.
"""

from __future__ import annotations

import argparse
import logging

from botapi.sdk import serve

from . import CHOOSERS, greedy_bot


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve a greedy Harbormaster example bot.")
    parser.add_argument("--engine", choices=sorted(CHOOSERS), help="the only game it accepts")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8001, help="port to listen on (0 = any)")
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

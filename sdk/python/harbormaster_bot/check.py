"""Check a running bot endpoint: ``.venv/bin/python -m harbormaster_bot.check URL --secret S``.

Sends a signed ``ping`` and a signed ``act`` request the way the referee
does, checks the replies against protocol v1 and prints what happened, so a
bot author can test an endpoint before registering it. Standard library
only. With ``--engine SLUG`` (where the ``engines`` package is installed:
``harbormaster-engines``, or a Harbormaster checkout) the act request is a
real opening position of that game; otherwise it is a small made-up one.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request
import uuid
from typing import Any

from harbormaster_bot.signing import sign_headers

from .server import SECRET_ENV

SAMPLE_LEGAL = [{"type": "pass"}, {"type": "bid", "amount": 1}, {"type": "bid", "amount": 2}]


def sample_act_request(deadline_ms: int) -> dict[str, Any]:
    """A made-up but well-formed act request."""
    return {
        "protocol": 1,
        "kind": "act",
        "request_id": uuid.uuid4().hex,
        "game": {
            "id": "check",
            "engine": "sample",
            "engine_version": "1",
            "num_players": 2,
            "options": {},
            "seat": 0,
        },
        "ply": 0,
        "deadline_ms": deadline_ms,
        "view": {"you": 0, "private": {}},
        "legal_actions": SAMPLE_LEGAL,
        "default_action_index": 0,
        "events": [],
    }


def engine_act_request(slug: str, deadline_ms: int) -> dict[str, Any]:
    """An act request for the first player decision of a real engine.

    Needs the ``engines`` package (the ``harbormaster-engines`` distribution,
    or a Harbormaster checkout) but nothing of the server, so it works where
    a bot author installed the two distributions; the request has the shape
    the referee's (``botapi.protocol.act_request_for_state``).
    """
    import engines

    engine = engines.get(slug)
    state = engine.new_game(engine.min_players)
    dealer = engines.Dealer(1)
    ply = 0
    while state.to_move == [engines.CHANCE]:
        state.apply(engines.CHANCE, dealer.choose(state))
        ply += 1
    seat = state.to_move[0]
    request = sample_act_request(deadline_ms)
    request["game"] = {
        "id": "check",
        "engine": engine.slug,
        "engine_version": str(engine.version),
        "num_players": state.num_players,
        "options": dict(state.options),
        "seat": seat,
    }
    request.update(
        ply=ply,
        view=state.view(seat),
        legal_actions=state.legal_actions(seat),
        default_action_index=state.legal_actions(seat).index(state.default_action(seat)),
        events=list(state.events),
    )
    return request


def send(url: str, secret: str, message: dict[str, Any], timeout: float) -> tuple[int, Any, float]:
    """POST a signed message; return (status, parsed JSON or text, milliseconds)."""
    body = json.dumps(message, separators=(",", ":")).encode("utf-8")
    headers = {"Content-Type": "application/json", **sign_headers(secret, body)}
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    elapsed = (time.monotonic() - started) * 1000
    try:
        return status, json.loads(raw), elapsed
    except ValueError:
        return status, raw.decode("utf-8", "replace")[:500], elapsed


def problems_with_act_reply(reply: Any, request: dict[str, Any]) -> list[str]:
    """What is wrong with an act reply (empty when it is fine)."""
    if not isinstance(reply, dict):
        return [f"the reply must be a JSON object, got {reply!r}"]
    found = []
    if reply.get("request_id") != request["request_id"]:
        found.append(f"request_id is {reply.get('request_id')!r}, expected the request's")
    legal = request["legal_actions"]
    if ("action" in reply) == ("action_index" in reply):
        found.append('give exactly one of "action" or "action_index"')
    elif "action_index" in reply:
        index = reply["action_index"]
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(legal):
            found.append(f"action_index {index!r} is not in 0..{len(legal) - 1}")
    elif reply["action"] not in legal:
        found.append(f"action {reply['action']!r} is not among legal_actions")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check a Harbormaster bot endpoint.")
    parser.add_argument("url", help="the bot's endpoint, e.g. http://127.0.0.1:8000/")
    parser.add_argument("--secret", help=f"signing secret (default: ${SECRET_ENV})")
    parser.add_argument(
        "--engine",
        help="use a real opening position of this engine (needs harbormaster-engines)",
    )
    parser.add_argument("--deadline-ms", type=int, default=2000)
    args = parser.parse_args(argv)
    secret = args.secret or os.environ.get(SECRET_ENV, "")
    if not secret:
        parser.error(f"give --secret or set {SECRET_ENV}")
    timeout = args.deadline_ms / 1000
    request = sample_act_request(args.deadline_ms)
    if args.engine:
        try:
            request = engine_act_request(args.engine, args.deadline_ms)
        except (ImportError, ValueError) as error:
            print(f"cannot build a {args.engine!r} position: {error}")
            return 2
    failures = 0
    try:
        ping = {"protocol": 1, "kind": "ping", "request_id": uuid.uuid4().hex}
        status, reply, ms = send(args.url, secret, ping, timeout)
        ok = (
            status == 200
            and isinstance(reply, dict)
            and reply.get("request_id") == ping["request_id"]
        )
        print(f"ping: HTTP {status} in {ms:.0f} ms: {reply}")
        failures += not ok
        status, reply, ms = send(args.url, secret, request, timeout)
        issues = [] if status == 200 else [f"HTTP {status}"]
        if status == 200:
            issues += problems_with_act_reply(reply, request)
        if ms > args.deadline_ms:
            issues.append(f"took {ms:.0f} ms, over the {args.deadline_ms} ms deadline")
        print(f"act:  HTTP {status} in {ms:.0f} ms: {reply}")
        for issue in issues:
            print(f"  problem: {issue}")
        failures += bool(issues)
    except (OSError, urllib.error.URLError) as error:
        print(f"could not reach {args.url}: {error}")
        return 2
    print("OK: the endpoint speaks protocol v1" if not failures else f"{failures} check(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

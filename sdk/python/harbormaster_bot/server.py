"""A bot endpoint in a few lines: ``serve(handler, port=8001, secret=...)``.

Standard library only (no Django, no third-party packages), so a bot author
can run it anywhere Python 3.11 runs. It speaks bot protocol v1:

* checks every request's signature and timestamp, and refuses one it has
  already taken (401 with a JSON error otherwise), so only Harbormaster can
  make the bot move, and only once per request (:mod:`harbormaster_bot.replay`);
* says so when a request's body was cut off (the sender's connection closed
  before ``Content-Length`` bytes came), instead of calling it a bad signature;
* routes ``act`` to ``handler.act(turn)`` (or to ``handler(turn)`` when the
  handler is a plain function), ``start``/``finish`` to the optional
  ``handler.start(request)``/``handler.finish(request)``, and answers
  ``ping`` itself with the bot's name and version;
* answers an ``act`` within the request's deadline: the handler runs in its
  own thread, and if it has not returned shortly before the deadline the
  server answers the request's ``default_action_index`` (the action the
  referee would play for a silent seat: passing wherever legal, never a
  raise) so that the bot is not faulted; only a request without it (an
  older server) gets the first legal action. The handler should watch
  ``turn.time_left()`` instead of relying on it.

``act`` returns either the index of the chosen action in
``turn.legal_actions`` or the action object itself.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from harbormaster_bot.signing import (
    TOLERANCE_SECONDS,
    SignatureError,
    compute_signature,
    verify_signature,
)

from .replay import DEFAULT_CAPACITY, ReplayMemory

log = logging.getLogger("harbormaster.bot")

MAX_REQUEST_BYTES = 4 * 1024 * 1024
SECRET_ENV = "HARBORMASTER_SECRET"
DEFAULT_PORT = 8001
"""Where :func:`serve` listens unless told: next to ``make demo``'s 8000, not on it."""


class PortInUse(OSError):
    """The address is taken; the message says which and what to do (one line, no traceback)."""

    def __init__(self, host: str, port: int) -> None:
        super().__init__(
            errno.EADDRINUSE,
            f"cannot listen on {host}:{port}: port in use "
            "(stop what listens there, or choose another port; 0 picks a free one)",
        )
        self.host = host
        self.port = port

    def __str__(self) -> str:
        return str(self.strerror)


class MissingSecret(ValueError):
    """No signing secret was given: the bot could not tell the referee from anyone else."""


class BodyCutOff(Exception):
    """The request body ended before its ``Content-Length`` (e.g. the sender died)."""

    def __init__(self, received: int, expected: int, why: str) -> None:
        super().__init__(f"request body cut off (got {received} of {expected} bytes): {why}")
        self.received = received
        self.expected = expected


@dataclass
class Turn:
    """One ``act`` request, with shortcuts to its fields and the time left.

    ``turn["view"]`` works too: indexing reads the raw request.
    """

    request: dict[str, Any]
    answer_by: float = field(repr=False)
    """:func:`time.monotonic` value by which the server will answer."""

    @property
    def game(self) -> dict[str, Any]:
        return self.request["game"]

    @property
    def seat(self) -> int:
        return self.request["game"]["seat"]

    @property
    def ply(self) -> int:
        return self.request["ply"]

    @property
    def view(self) -> dict[str, Any]:
        return self.request["view"]

    @property
    def legal_actions(self) -> list[dict[str, Any]]:
        return self.request["legal_actions"]

    @property
    def events(self) -> list[dict[str, Any]]:
        return self.request["events"]

    @property
    def default_action_index(self) -> int:
        """Index in ``legal_actions`` of what the referee plays if you do not answer."""
        return fallback_index(self.request)

    def time_left(self) -> float:
        """Seconds before the server answers for you; search while this is > 0."""
        return max(0.0, self.answer_by - time.monotonic())

    def __getitem__(self, key: str) -> Any:
        return self.request[key]


def answer_budget_ms(deadline_ms: int) -> int:
    """How long the handler may think: the deadline minus a margin for the network."""
    margin = min(150, max(20, deadline_ms // 5))
    return max(1, deadline_ms - margin)


class _Routes:
    """The handler's callables for each message kind."""

    def __init__(self, handler: Any) -> None:
        act = getattr(handler, "act", None)
        if act is None and callable(handler):
            act = handler
        if act is None:
            raise TypeError("the handler needs an act(turn) method, or must be a function")
        self.act: Callable[[Turn], Any] = act
        self.start: Callable[[dict[str, Any]], Any] | None = getattr(handler, "start", None)
        self.finish: Callable[[dict[str, Any]], Any] | None = getattr(handler, "finish", None)


class BotServer(ThreadingHTTPServer):
    """The HTTP server; one thread per connection."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(
        self,
        address: tuple[str, int],
        handler: Any,
        *,
        secret: str | bytes,
        name: str,
        version: str,
        tolerance: int = TOLERANCE_SECONDS,
        replay_capacity: int = DEFAULT_CAPACITY,
    ) -> None:
        if not secret:
            raise MissingSecret(
                f"a signing secret is required: pass secret=... or set {SECRET_ENV} "
                "(Harbormaster shows it once when you register the bot)"
            )
        self.routes = _Routes(handler)
        self.secret = secret
        self.bot_name = name
        self.bot_version = version
        self.tolerance = tolerance
        self.seen = ReplayMemory(replay_capacity)
        super().__init__(address, _RequestHandler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A referee that hung up (e.g. after its deadline) is not worth a traceback."""
        log.debug("connection from %s ended with an error", client_address, exc_info=True)


class _RequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out at once: no 40 ms ACK stall
    server_version = "HarbormasterBotSDK/1"
    server: BotServer

    # ---------------------------------------------------------------- HTTP
    def do_POST(self) -> None:
        length_text = self.headers.get("Content-Length")
        if length_text is None or not (length_text.isascii() and length_text.isdigit()):
            self._send(411, {"error": "length_required", "detail": "send a Content-Length"})
            return
        length = int(length_text)
        if length > MAX_REQUEST_BYTES:
            self.close_connection = True
            self._send(413, {"error": "too_large", "detail": f"at most {MAX_REQUEST_BYTES} bytes"})
            return
        try:
            body = self._read_body(length)
        except BodyCutOff as exc:
            log.warning("refused a request: %s", exc)
            self.close_connection = True
            self._send_if_possible(400, {"error": "incomplete_body", "detail": str(exc)})
            return
        try:
            self._authenticate(body)
        except SignatureError as exc:
            log.warning("refused a request: %s", exc)
            self._send(401, {"error": exc.code, "detail": str(exc)})
            return
        try:
            request = json.loads(body)
            kind = request["kind"]
            request_id = request["request_id"]
        except (ValueError, TypeError, KeyError) as exc:
            self._send(400, {"error": "bad_request", "detail": f"not a protocol message: {exc}"})
            return
        try:
            status, reply = self._route(kind, request_id, request)
        except Exception as exc:
            log.exception("the bot's %s handler failed", kind)
            status, reply = (
                500,
                {"error": "handler_failed", "detail": f"{type(exc).__name__}: {exc}"},
            )
        self._send(status, reply)

    def _read_body(self, length: int) -> bytes:
        """Exactly ``length`` bytes of body, or :class:`BodyCutOff` saying how many came."""
        chunks: list[bytes] = []
        received = 0
        while received < length:
            try:
                chunk = self.rfile.read1(min(length - received, 65536))
            except OSError as exc:
                raise BodyCutOff(received, length, f"connection failed: {exc}") from None
            if not chunk:
                raise BodyCutOff(
                    received, length, "the sender closed the connection before the end"
                )
            chunks.append(chunk)
            received += len(chunk)
        return b"".join(chunks)

    def _authenticate(self, body: bytes) -> None:
        """Signature and timestamp checks, then the replay check (SignatureError if any fails).

        The replay memory keys on the signature under our secret, which is
        unique to (timestamp, body); it is consulted only once the signature
        is verified, so only genuine requests take room in it.
        """
        server = self.server
        now = time.time()
        timestamp = verify_signature(
            server.secret, body, self.headers, now=now, tolerance=server.tolerance
        )
        signature = bytes.fromhex(compute_signature(server.secret, timestamp, body).split("=")[1])
        if not server.seen.first_time(signature, timestamp + server.tolerance, now):
            raise SignatureError(
                "replayed_request",
                f"this exact signed request (timestamp {timestamp}) was already taken; "
                "every request the referee sends is new, so this is a replay",
            )

    def do_GET(self) -> None:
        self._send(
            405,
            {
                "error": "method_not_allowed",
                "detail": f"this is the Harbormaster bot {self.server.bot_name!r}; "
                "the referee POSTs signed JSON here",
            },
        )

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s - %s", self.address_string(), format % args)

    def _send(self, status: int, payload: Mapping[str, Any]) -> None:
        data = json.dumps(payload, separators=(",", ":")).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_if_possible(self, status: int, payload: Mapping[str, Any]) -> None:
        """Answer unless the connection is already gone (then the log says it all)."""
        try:
            self._send(status, payload)
        except OSError:
            log.debug("could not answer %s: the connection is gone", self.address_string())

    # ------------------------------------------------------------- routing
    def _route(self, kind: str, request_id: str, request: dict[str, Any]) -> tuple[int, dict]:
        routes = self.server.routes
        if kind == "ping":
            return 200, {
                "request_id": request_id,
                "name": self.server.bot_name,
                "version": self.server.bot_version,
                "protocol": 1,
            }
        if kind == "act":
            return 200, {"request_id": request_id, **self._decide(request)}
        if kind in ("start", "finish"):
            method = routes.start if kind == "start" else routes.finish
            if method is not None:
                method(request)
            return 200, {"request_id": request_id, "ok": True}
        return 400, {"error": "unknown_kind", "detail": f"unknown message kind {kind!r}"}

    def _decide(self, request: dict[str, Any]) -> dict[str, Any]:
        """Run the handler against the clock; the server's safe default if it is too slow."""
        received = time.monotonic()
        budget = answer_budget_ms(int(request.get("deadline_ms", 1000))) / 1000
        turn = Turn(request=request, answer_by=received + budget)
        outcome: dict[str, Any] = {}

        def think() -> None:
            try:
                outcome["choice"] = self.server.routes.act(turn)
            except BaseException as exc:
                outcome["error"] = exc

        worker = threading.Thread(target=think, name="bot-act", daemon=True)
        worker.start()
        worker.join(timeout=max(0.0, turn.answer_by - time.monotonic()))
        if worker.is_alive():
            index = fallback_index(request)
            log.warning(
                "act took longer than %.0f ms at ply %s; answered the default action (index %d)",
                budget * 1000,
                request.get("ply"),
                index,
            )
            return {"action_index": index, "note": "handler too slow; SDK answered the default"}
        if "error" in outcome:
            raise outcome["error"]
        return _as_reply(outcome.get("choice"), len(turn.legal_actions))


def fallback_index(request: Mapping[str, Any]) -> int:
    """The index to answer for a handler that is too slow.

    The request's ``default_action_index`` is what the referee itself plays
    for a silent seat (the engine's safe default: passing where legal; the
    first legal action can be a costly raise). A request without a usable
    one comes from an older server: then the first legal action.
    """
    index = request.get("default_action_index")
    count = len(request.get("legal_actions") or ())
    if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < count:
        return index
    return 0


def _as_reply(choice: Any, count: int) -> dict[str, Any]:
    if isinstance(choice, int) and not isinstance(choice, bool):
        if not 0 <= choice < count:
            raise ValueError(f"act returned index {choice}; there are {count} legal actions")
        return {"action_index": choice}
    if isinstance(choice, dict) and isinstance(choice.get("type"), str):
        return {"action": choice}
    raise TypeError(
        f"act must return an index into turn.legal_actions or an action dict, not {choice!r}"
    )


# ----------------------------------------------------------------- running
def _make_server(
    handler: Any,
    host: str,
    port: int,
    secret: str | bytes | None,
    name: str,
    version: str,
    tolerance: int,
    replay_capacity: int = DEFAULT_CAPACITY,
) -> BotServer:
    secret = secret or os.environ.get(SECRET_ENV, "")
    try:
        return BotServer(
            (host, port),
            handler,
            secret=secret,
            name=name,
            version=version,
            tolerance=tolerance,
            replay_capacity=replay_capacity,
        )
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise PortInUse(host, port) from None
        raise


def serve(
    handler: Any,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    secret: str | bytes | None = None,
    name: str = "bot",
    version: str = "1",
    *,
    tolerance: int = TOLERANCE_SECONDS,
    replay_capacity: int = DEFAULT_CAPACITY,
) -> None:
    """Run the bot endpoint until interrupted (Ctrl-C).

    ``secret`` defaults to the ``HARBORMASTER_SECRET`` environment variable.
    ``replay_capacity`` bounds how many recent requests are remembered to
    refuse replays (:mod:`harbormaster_bot.replay`).
    Use ``host="0.0.0.0"`` to accept connections from other machines. A port
    already in use, or a missing secret, ends the program with one line saying
    so and exit status 1, as a command-line program should, not a traceback.
    """
    try:
        server = _make_server(
            handler, host, port, secret, name, version, tolerance, replay_capacity
        )
    except (PortInUse, MissingSecret) as exc:
        raise SystemExit(f"bot {name!r}: {exc}") from None
    bound_host, bound_port = server.server_address[:2]
    print(f"bot {name!r} v{version} listening on http://{bound_host}:{bound_port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


class RunningBot:
    """A bot endpoint served by a background thread; stop it with :meth:`stop`."""

    def __init__(self, server: BotServer) -> None:
        self.server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    @property
    def host(self) -> str:
        return str(self.server.server_address[0])

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join()

    def __enter__(self) -> RunningBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve_in_background(
    handler: Any,
    host: str = "127.0.0.1",
    port: int = 0,
    secret: str | bytes | None = None,
    name: str = "bot",
    version: str = "1",
    *,
    tolerance: int = TOLERANCE_SECONDS,
    replay_capacity: int = DEFAULT_CAPACITY,
) -> RunningBot:
    """Start the endpoint in a daemon thread and return at once.

    ``port=0`` picks a free port; read it from ``running.port`` or use
    ``running.url``. Good for tests, notebooks and local matches. A port in
    use raises :class:`PortInUse`.
    """
    server = _make_server(handler, host, port, secret, name, version, tolerance, replay_capacity)
    return RunningBot(server)

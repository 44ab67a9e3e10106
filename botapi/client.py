"""The fault-proof HTTP client the referee uses to ask push bots for decisions.

A bot is a stranger's server: it may be slow, dead, redirect us, answer
HTML, gigabytes, another request's id or an illegal move. Whatever it does,
:class:`BotClient` returns a :class:`CallResult` -- the decision or a fault
with a human-readable detail, the latency and excerpts of both messages for
the bot's owner -- and never raises because of the bot.

Rules (bot protocol v1, ``docs/bot-protocol.md``):

* a :class:`BotClient` is safe to share between threads, and each thread
  calls bots through a pooled ``httpx.Client`` of its own, created on its
  first call: no connection is ever touched by two threads, so no thread can
  close a socket under another's call (decision 0029); :func:`default_client`
  keeps one :class:`BotClient` per address policy for the whole process;
* a hard deadline per call covering DNS, connect, TLS, sending and reading
  (enforced at the socket level by :mod:`botapi.ssrf` and again while the
  body streams in), not just per-phase timeouts;
* the reply body is capped (64 KiB by default), redirects are never
  followed (a 3xx is a fault), replies must be ``application/json``;
* a reply is parsed by :func:`common.jsonparse.loads`: nested at most
  64 levels deep (unknown fields included), UTF-8, no ``NaN``, no number
  beyond a double's range, no lone surrogate -- anything else is an
  ``invalid_json`` fault, never an exception (Python's own parser raises
  ``RecursionError`` on deep input and ``ValueError`` on a 5,000-digit integer);
* should the protocol's checks of a parsed reply raise anyway, the reply is
  an ``unreadable_reply`` fault (logged with its traceback: that is our bug
  to fix, but the game goes on);
* every connection passes the SSRF guard (:mod:`botapi.ssrf`), and host
  names are looked up by :class:`botapi.lookups.Lookups`, per host and
  cached, so one bot's silent DNS server only times out that bot's calls;
* a decision is asked exactly once: no retry, since a retry would be a
  second decision.

Choosing the default action after a fault is the referee's job: the engine
declares it (``State.default_action``, passing wherever the rules allow).
"""

from __future__ import annotations

import enum
import json
import logging
import re
import ssl
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx
from harbormaster_bot.signing import sign_headers

from common import jsonparse

from . import protocol
from .lookups import Lookups
from .per_thread import PerThread
from .ssrf import AddressPolicy, EndpointRefused, GuardedTransport, Resolver, deadline_scope
from .ssrf import system_resolver as _system_resolver

DEFAULT_MAX_REPLY_BYTES = 64 * 1024
DEFAULT_EXCERPT_CHARS = 2000
DEFAULT_NOTIFY_TIMEOUT_MS = 3000
CONNECTIONS_PER_THREAD = 16
"""Connections one thread's pool keeps to bots; opening one more closes its oldest idle one.

A thread calls one bot at a time, so all but one are kept alive for the next
call to the same bot; 24 referee threads keep at most 384 sockets.
"""
MAX_REPLY_DEPTH = jsonparse.MAX_DEPTH
"""Deepest nesting of a reply, unknown fields included (64): deeper is ``invalid_json``.

Python's parser recurses once per level, so an unbounded reply could crash
the referee with ``RecursionError``; no protocol reply needs more than a few levels.
"""
log = logging.getLogger(__name__)

USER_AGENT = f"Harbormaster-Referee (bot protocol {protocol.PROTOCOL_VERSION})"


class Fault(enum.StrEnum):
    """Everything that can go wrong with one call to a bot."""

    TIMEOUT = "timeout"
    CONNECTION_ERROR = "connection_error"
    HTTP_STATUS = "http_status"
    INVALID_JSON = "invalid_json"
    BAD_SCHEMA = "bad_schema"
    WRONG_REQUEST_ID = "wrong_request_id"
    ILLEGAL_ACTION = "illegal_action"
    OVERSIZED = "oversized"
    SSRF_REFUSED = "ssrf_refused"
    UNREADABLE_REPLY = "unreadable_reply"


@dataclass(frozen=True, slots=True)
class CallResult:
    """What one call to a bot produced.

    ``action``/``action_index`` are set for a good act reply (``action`` is
    the referee's copy from ``legal_actions``); ``reply`` is the parsed JSON
    of a good reply (a ping's name and version live there). On a fault,
    ``fault`` and ``detail`` say what went wrong. The excerpts are truncated
    texts of the request sent and the reply received, for the bot's owner.
    """

    kind: str
    endpoint: str
    action: dict[str, Any] | None = None
    action_index: int | None = None
    reply: Any = None
    fault: Fault | None = None
    detail: str = ""
    latency_ms: float = 0.0
    status_code: int | None = None
    request_excerpt: str = ""
    reply_excerpt: str = ""

    @property
    def ok(self) -> bool:
        return self.fault is None

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready summary to store on the move."""
        return {
            "kind": self.kind,
            "fault": None if self.fault is None else str(self.fault),
            "detail": self.detail,
            "latency_ms": round(self.latency_ms, 1),
            "status_code": self.status_code,
            "action_index": self.action_index,
            "request_excerpt": self.request_excerpt,
            "reply_excerpt": self.reply_excerpt,
        }


def excerpt(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how much was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
"""NUL and lone UTF-16 surrogates: PostgreSQL text (and any UTF-8) cannot hold them."""


def storable(value: Any) -> Any:
    """``value`` with every NUL and lone surrogate in its strings replaced by U+FFFD.

    Everything in a CallResult may be stored (on a move, on the bot), and
    PostgreSQL text cannot hold either: a bot must not be able to make its own
    move, or its health record, unstorable by sending one. (The JSON parser
    already refuses surrogate escapes; this also covers texts quoted in details.)
    """
    if isinstance(value, str):
        return _UNSTORABLE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {storable(k): storable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [storable(v) for v in value]
    return value


class _Failure(Exception):
    """Internal: ends an exchange with a fault."""

    def __init__(self, fault: Fault, detail: str) -> None:
        super().__init__(detail)
        self.fault = fault
        self.detail = detail


@dataclass(slots=True)
class _Exchange:
    """The raw outcome of one POST before protocol checks."""

    status_code: int | None = None
    body: bytes = b""
    content_type: str = ""
    location: str = ""
    latency_ms: float = 0.0


class BotClient:
    """Sends signed protocol requests to push bots (see module doc).

    ``allow`` is the SSRF policy (:meth:`AddressPolicy.coerce` accepts a
    setting value such as ``["loopback"]`` or ``True``). ``http`` lets tests
    supply their own ``httpx.Client``, shared by every thread; it then
    replaces the guarded transport, so only pass one you trust. ``resolver`` replaces DNS and
    ``ssl_context`` the trusted certificates (tests).
    """

    def __init__(
        self,
        *,
        allow: Any = None,
        max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES,
        excerpt_chars: int = DEFAULT_EXCERPT_CHARS,
        http: httpx.Client | None = None,
        resolver: Resolver | None = None,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self.policy = AddressPolicy.coerce(allow)
        self.max_reply_bytes = max_reply_bytes
        self.excerpt_chars = excerpt_chars
        # Outlives close(): the lookup cache and the lookups in flight belong to the client.
        self._lookups = Lookups(resolver or _system_resolver)
        self._ssl_context = ssl_context
        self._http = http
        self._pools: PerThread[httpx.Client] = PerThread(self._new_pool, httpx.Client.close)
        self._lock = threading.Lock()

    # ------------------------------------------------------------ plumbing
    @property
    def http(self) -> httpx.Client:
        """The calling thread's pooled client (or the one given), created on first use."""
        return self._http if self._http is not None else self._pools.get()

    def _new_pool(self) -> httpx.Client:
        transport = GuardedTransport(
            self.policy,
            resolver=self._lookups,  # shared: one lookup per host and one cache for all threads
            ssl_context=self._tls(),
            max_connections=CONNECTIONS_PER_THREAD,
            max_keepalive_connections=CONNECTIONS_PER_THREAD,
        )
        return httpx.Client(transport=transport, follow_redirects=False, trust_env=False)

    def _tls(self) -> ssl.SSLContext:
        """The certificates to trust, loaded once for every thread's pool."""
        with self._lock:
            if self._ssl_context is None:
                self._ssl_context = httpx.create_ssl_context()
            return self._ssl_context

    def close(self) -> None:
        """Close every thread's connections (when no call is in flight: shutting down, tests)."""
        with self._lock:
            given, self._http = self._http, None
        if given is not None:
            given.close()
        self._pools.close_all()

    # ---------------------------------------------------------- public API
    def act(
        self,
        endpoint: str,
        secret: str | bytes,
        request: Mapping[str, Any],
        *,
        timeout_ms: int | None = None,
        explain: Callable[[dict[str, Any]], str] | None = None,
    ) -> CallResult:
        """Ask for one decision; ``timeout_ms`` defaults to the request's ``deadline_ms``.

        ``explain(action)`` may give the engine's reason for an illegal action.
        """

        def decide(payload: Any) -> dict[str, Any]:
            index = _plain_index_reply(payload, request)
            if index is not None:
                return {"action": request["legal_actions"][index], "action_index": index}
            action, index = protocol.parse_act_reply(payload, request, explain)
            return {"action": action, "action_index": index}

        limit = request["deadline_ms"] if timeout_ms is None else timeout_ms
        return self._call(endpoint, secret, request, limit, decide)

    def ping(
        self, endpoint: str, secret: str | bytes, *, timeout_ms: int = DEFAULT_NOTIFY_TIMEOUT_MS
    ) -> CallResult:
        """Health check; on success ``result.reply`` holds the bot's name and version."""
        request = protocol.ping_request()
        return self._call(
            endpoint,
            secret,
            request,
            timeout_ms,
            lambda payload: {"reply": protocol.parse_ping_reply(payload, request)},
        )

    def notify(
        self,
        endpoint: str,
        secret: str | bytes,
        request: Mapping[str, Any],
        *,
        timeout_ms: int = DEFAULT_NOTIFY_TIMEOUT_MS,
    ) -> CallResult:
        """Send a ``start`` or ``finish`` message; any 2xx reply acknowledges it."""
        return self._call(endpoint, secret, request, timeout_ms, None)

    # ---------------------------------------------------------- internals
    def _call(
        self,
        endpoint: str,
        secret: str | bytes,
        request: Mapping[str, Any],
        timeout_ms: int,
        interpret: Callable[[Any], dict[str, Any]] | None,
    ) -> CallResult:
        body = json.dumps(request, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        base: dict[str, Any] = {
            "kind": str(request.get("kind", "")),
            "endpoint": endpoint,
            "request_excerpt": excerpt(body.decode("utf-8"), self.excerpt_chars),
        }
        exchange = _Exchange()
        try:
            self._post(endpoint, secret, body, timeout_ms, exchange)
            fields = self._interpret(exchange, interpret)
        except _Failure as failure:
            fields = {"fault": failure.fault, "detail": failure.detail}
        except protocol.ProtocolFault as fault:
            fields = {"fault": Fault(fault.kind), "detail": fault.detail}
        for name in ("detail", "reply"):  # may quote the bot's own text
            if name in fields:
                fields[name] = storable(fields[name])
        return CallResult(
            **base,
            **fields,
            latency_ms=exchange.latency_ms,
            status_code=exchange.status_code,
            reply_excerpt=storable(
                excerpt(exchange.body.decode("utf-8", errors="replace"), self.excerpt_chars)
            ),
        )

    def _post(
        self,
        endpoint: str,
        secret: str | bytes,
        body: bytes,
        timeout_ms: int,
        exchange: _Exchange,
    ) -> None:
        """POST ``body`` and read the reply into ``exchange`` by the deadline."""
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Accept-Encoding": "identity",
            "User-Agent": USER_AGENT,
            **sign_headers(secret, body),
        }
        http = self.http  # created (TLS context loaded) before the clock starts
        seconds = max(timeout_ms, 1) / 1000
        started = time.monotonic()
        deadline = started + seconds
        try:
            with (
                deadline_scope(deadline),
                http.stream(
                    "POST", endpoint, content=body, headers=headers, timeout=seconds
                ) as response,
            ):
                exchange.status_code = response.status_code
                exchange.content_type = response.headers.get("content-type", "")
                exchange.location = response.headers.get("location", "")
                self._read_body(response, deadline, exchange)
        except _Failure:
            raise
        except EndpointRefused as exc:
            raise _Failure(Fault.SSRF_REFUSED, str(exc)) from None
        except httpx.TimeoutException as exc:
            raise _Failure(
                Fault.TIMEOUT, f"no complete reply within {timeout_ms} ms ({_describe(exc)})"
            ) from None
        except (httpx.HTTPError, httpx.InvalidURL, OSError) as exc:
            raise _Failure(Fault.CONNECTION_ERROR, _describe(exc)) from None
        except Exception as exc:  # a bot must never crash the referee
            raise _Failure(Fault.CONNECTION_ERROR, f"unexpected error: {_describe(exc)}") from None
        finally:
            exchange.latency_ms = (time.monotonic() - started) * 1000

    def _read_body(self, response: httpx.Response, deadline: float, exchange: _Exchange) -> None:
        """Read at most the cap, stopping at the deadline, even if bytes trickle in."""
        cap = self.max_reply_bytes
        declared = response.headers.get("content-length", "")
        success = 200 <= response.status_code < 300
        if success and declared.isdigit() and int(declared) > cap:
            raise _Failure(
                Fault.OVERSIZED, f"reply declares {int(declared)} bytes; the limit is {cap}"
            )
        chunks: list[bytes] = []
        size = 0
        for chunk in response.iter_raw():
            chunks.append(chunk)
            size += len(chunk)
            if size > cap:
                exchange.body = b"".join(chunks)[:cap]
                if success:
                    raise _Failure(Fault.OVERSIZED, f"reply is longer than the {cap}-byte limit")
                return
            if time.monotonic() > deadline:
                exchange.body = b"".join(chunks)
                raise _Failure(Fault.TIMEOUT, "the reply body was still arriving at the deadline")
        exchange.body = b"".join(chunks)

    def _interpret(
        self, exchange: _Exchange, interpret: Callable[[Any], dict[str, Any]] | None
    ) -> dict[str, Any]:
        """Status, content type and JSON checks, then the protocol's own checks."""
        status = exchange.status_code or 0
        if 300 <= status < 400:
            target = f" to {exchange.location[:200]!r}" if exchange.location else ""
            raise _Failure(
                Fault.HTTP_STATUS,
                f"HTTP {status} redirect{target}: redirects are not followed; answer directly",
            )
        if not 200 <= status < 300:
            raise _Failure(Fault.HTTP_STATUS, f"HTTP {status}: the bot must answer 200")
        if interpret is None:
            return {}
        media_type = exchange.content_type.split(";")[0].strip().lower()
        if media_type != "application/json" and not media_type.endswith("+json"):
            raise _Failure(
                Fault.INVALID_JSON,
                f"Content-Type is {exchange.content_type or 'missing'!r}; "
                "it must be application/json",
            )
        try:
            payload = jsonparse.loads(exchange.body, max_depth=MAX_REPLY_DEPTH)
        except jsonparse.JSONRefused as refused:
            raise _Failure(Fault.INVALID_JSON, _json_refusal(refused)) from None
        try:
            return {"reply": payload, **interpret(payload)}
        except protocol.ProtocolFault:
            raise
        except Exception as exc:  # a check of ours broke on this reply: refuse it, keep the game
            log.warning("checking a bot's reply raised", exc_info=True)
            raise _Failure(
                Fault.UNREADABLE_REPLY, f"the referee could not check the reply: {_describe(exc)}"
            ) from None


def _plain_index_reply(payload: Any, request: Mapping[str, Any]) -> int | None:
    """The index of the commonest good reply, ``{"request_id": <ours>, "action_index": i}``
    with ``i`` in range, without the schema machinery; None for anything else.

    Saves the full schema validation (a tenth of a millisecond) on the hot path
    and decides exactly as :func:`protocol.parse_act_reply` would: such a reply
    passes the schema (our own request id, an integer >= 0, no ``action``, other
    fields ignored), echoes the id and picks ``legal_actions[i]``. Every other
    reply, good or faulty, goes through ``parse_act_reply``.
    """
    if type(payload) is not dict or "action" in payload:
        return None
    index = payload.get("action_index")
    if type(index) is not int or not 0 <= index < len(request["legal_actions"]):
        return None
    request_id = payload.get("request_id")
    if type(request_id) is not str or request_id != request["request_id"]:
        return None
    return index


def _json_refusal(refused: jsonparse.JSONRefused) -> str:
    """The detail of an ``invalid_json`` fault: what was wrong with the reply's JSON."""
    if refused.reason == "syntax":
        return f"the reply is {refused}"  # "not valid JSON: Expecting ..."
    return f"the reply is not acceptable JSON: {refused}"


def _describe(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


_defaults: dict[AddressPolicy, BotClient] = {}
_defaults_lock = threading.Lock()


def default_client(allow: AddressPolicy | bool | str | Iterable[Any] | None = None) -> BotClient:
    """The process-wide client for an address policy (one connection pool each)."""
    policy = AddressPolicy.coerce(allow)
    with _defaults_lock:
        client = _defaults.get(policy)
        if client is None:
            client = _defaults[policy] = BotClient(allow=policy)
        return client

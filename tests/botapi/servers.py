"""Real HTTP servers on loopback that misbehave on purpose, one way per path.

The client tests send genuine requests over TCP to these servers, so every
fault is produced the way a broken bot would produce it: a socket that stays
silent, a connection closed mid-request, a body that never ends...

Paths (the request body must be an ``act`` or ``ping`` request):

=================  =========================================================
``/action``        good: answers the last legal action as an object
``/index``         good: answers the last legal action by index
``/ping``          good ping reply
``/slow``          says nothing until released (or 10 s)
``/late``          a good index reply, 300 ms late (released: at once)
``/drip``          sends headers, then one body byte every 50 ms for 10 s
``/close``         reads the request and closes the connection, no reply
``/garbage``       200, application/json, a body that is not JSON
``/html``          200, text/html
``/huge``          200, JSON body of 200 KB with a Content-Length
``/huge-chunked``  200, chunked JSON body that keeps growing, no length
``/redirect``      302 to ``/action``
``/error``         500 with a JSON error
``/wrong-id``      a well-formed reply with another request_id
``/illegal``       an action that is not legal
``/out-of-range``  an action_index past the end of legal_actions
``/bad-schema``    JSON without action or action_index
``/nul``           a ping reply whose name holds NUL (``\\u0000``); to ``act``,
                   not JSON, with a raw NUL byte
``/deep``          a good reply (ping or index) plus an extra field nested
                   10,000 levels deep (20 KB)
``/nested``        a good reply (ping or index) plus an extra field nested
                   20 levels deep, as a reasonable bot might send
``/surrogate``     a good reply whose name (ping) or extra field (act) holds a
                   lone UTF-16 surrogate escape (``\\ud800``)
``/latin1``        200, application/json, bytes that are not UTF-8
``/nan``           a good reply with an extra field ``NaN``
``/bigint``        a good reply with an extra field holding a 5,000-digit
                   integer (past Python's 4,300-digit conversion limit)
``/bigindex``      ``action_index`` a 5,000-digit integer (act only)
``/overflow``      a good reply with an extra field ``1e400`` (past a double)
=================  =========================================================

Every request is recorded in ``server.received`` (path, headers, body) so
tests can check signatures, Host headers and that nothing was retried. Given
a server-side ``ssl.SSLContext`` the server speaks HTTPS and records the TLS
server names (SNI) clients asked for in ``server.server_names``.
"""

from __future__ import annotations

import json
import socket
import ssl
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)


class MisbehavingServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # Many clients connecting at once wait in the listen backlog, not in SYN retries.
    request_queue_size = 128

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.server_names: list[str | None] = []
        if tls is not None:
            tls.sni_callback = lambda sock, name, ctx: self.server_names.append(name)
            self.socket = tls.wrap_socket(self.socket, server_side=True)
        self.scheme = "https" if tls is not None else "http"
        self.received: list[Received] = []
        self.release = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.server_address[1]}"

    def url(self, path: str) -> str:
        return f"{self.base_url}{path}"

    def record(self, received: Received) -> None:
        with self._lock:
            self.received.append(received)

    def requests_to(self, path: str) -> list[Received]:
        with self._lock:
            return [r for r in self.received if r.path == path]

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients hang up on purpose here (timeouts, caps): no tracebacks."""

    def start(self) -> MisbehavingServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        self.shutdown()
        self.server_close()
        self._thread.join()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: MisbehavingServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.record(Received(self.path, dict(self.headers.items()), body))
        request = json.loads(body)
        behaviour = getattr(self, "_" + self.path.strip("/").replace("-", "_"), None)
        if behaviour is None:
            self._json(404, {"error": f"no behaviour {self.path}"})
        else:
            behaviour(request)

    # ------------------------------------------------------------- helpers
    def _raw(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, payload: Any) -> None:
        self._raw(status, json.dumps(payload).encode())

    # ---------------------------------------------------------- behaviours
    def _action(self, request: dict) -> None:
        legal = request["legal_actions"]
        self._json(200, {"request_id": request["request_id"], "action": legal[-1]})

    def _index(self, request: dict) -> None:
        last = len(request["legal_actions"]) - 1
        self._json(200, {"request_id": request["request_id"], "action_index": last})

    def _ping(self, request: dict) -> None:
        self._json(200, {"request_id": request["request_id"], "name": "loopy", "version": "2.1"})

    def _slow(self, request: dict) -> None:
        self.server.release.wait(10)
        self._action(request)

    def _late(self, request: dict) -> None:
        self.server.release.wait(0.3)
        self._index(request)

    def _drip(self, request: dict) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "200")
        self.end_headers()
        self.wfile.flush()
        for _ in range(200):
            if self.server.release.wait(0.05):
                break
            try:
                self.wfile.write(b" ")
                self.wfile.flush()
            except OSError:
                break
        self.close_connection = True

    def _close(self, request: dict) -> None:
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)

    def _garbage(self, request: dict) -> None:
        self._raw(200, b'{"request_id": "oops", this is not json')

    def _html(self, request: dict) -> None:
        self._raw(200, b"<html><body>hello</body></html>", "text/html; charset=utf-8")

    def _huge(self, request: dict) -> None:
        padding = "x" * 200_000
        self._json(200, {"request_id": request["request_id"], "action_index": 0, "pad": padding})

    def _huge_chunked(self, request: dict) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        chunk = b"[" + b"0," * 8191 + b"0]"
        try:
            for _ in range(100):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.write(b"0\r\n\r\n")
        except OSError:
            pass
        self.close_connection = True

    def _redirect(self, request: dict) -> None:
        self.send_response(302)
        self.send_header("Location", "/action")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _nul(self, request: dict) -> None:
        if request["kind"] == "ping":
            reply = {"request_id": request["request_id"], "name": "nul\u0000bot", "version": "1"}
            self._json(200, reply)
        else:
            self._raw(200, b'{"action_index": 0\x00}')

    def _good(self, request: dict) -> dict:
        """The well-formed reply to ``request`` (a ping or an act by index)."""
        if request["kind"] == "ping":
            return {"request_id": request["request_id"], "name": "loopy", "version": "2.1"}
        return {"request_id": request["request_id"], "action_index": 0}

    def _with_extra(self, request: dict, extra: str) -> None:
        """The good reply with ``"extra": <extra>`` (raw JSON text) added."""
        good = json.dumps(self._good(request))
        self._raw(200, f'{good[:-1]}, "extra": {extra}}}'.encode())

    def _deep(self, request: dict) -> None:
        self._with_extra(request, "[" * 10_000 + "]" * 10_000)

    def _nested(self, request: dict) -> None:
        self._with_extra(request, '{"a": ' * 20 + "1" + "}" * 20)

    def _surrogate(self, request: dict) -> None:
        if request["kind"] == "ping":
            body = json.dumps(self._good(request)).replace('"loopy"', '"loopy\\ud800"')
            self._raw(200, body.encode())
        else:
            self._with_extra(request, '"\\udc00 alone"')

    def _latin1(self, request: dict) -> None:
        reply = {**self._good(request), "name": "caf\u00e9"}
        self._raw(200, json.dumps(reply, ensure_ascii=False).encode("latin-1"))

    def _nan(self, request: dict) -> None:
        self._with_extra(request, "NaN")

    def _bigint(self, request: dict) -> None:
        self._with_extra(request, "9" * 5000)

    def _bigindex(self, request: dict) -> None:
        good = json.dumps(self._good(request))  # action_index 0
        self._raw(200, good.replace('"action_index": 0', '"action_index": ' + "9" * 5000).encode())

    def _overflow(self, request: dict) -> None:
        self._with_extra(request, "1e400")

    def _error(self, request: dict) -> None:
        self._json(500, {"error": "the bot crashed"})

    def _wrong_id(self, request: dict) -> None:
        self._json(200, {"request_id": "someone-else", "action_index": 0})

    def _illegal(self, request: dict) -> None:
        self._json(200, {"request_id": request["request_id"], "action": {"type": "teleport"}})

    def _out_of_range(self, request: dict) -> None:
        self._json(200, {"request_id": request["request_id"], "action_index": 999})

    def _bad_schema(self, request: dict) -> None:
        self._json(200, {"request_id": request["request_id"], "move": "north"})


def unused_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])

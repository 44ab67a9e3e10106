"""A websocket client on a bare TCP socket, for tests that need what a library would not send.

A client library builds a whole message in memory before sending it and
keeps one event loop; these tests send a frame's header announcing 15 MB and
then stream its payload, and hold hundreds of sockets from plain threads.
"""

from __future__ import annotations

import socket
import struct
from collections.abc import Mapping

KEY = "dGhlIHNhbXBsZSBub25jZQ=="
TEXT, CLOSE = 0x1, 0x8


def handshake(
    port: int,
    path: str,
    origin: str | None = None,
    timeout: float = 20,
    *,
    source: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> socket.socket:
    """A socket on which ``path`` was upgraded to a websocket (101), or AssertionError.

    ``source``: the local address the connection leaves from (any of 127.0.0.0/8);
    ``headers``: more request headers (``X-Forwarded-For``...).
    """
    conn = socket.create_connection(
        ("127.0.0.1", port), timeout=timeout, source_address=(source, 0) if source else None
    )
    origin = origin or f"http://127.0.0.1:{port}"
    more = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    conn.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {KEY}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: {origin}\r\n{more}\r\n".encode()
    )
    head = b""
    while not head.endswith(b"\r\n\r\n"):  # a byte at a time: the first frame may follow
        more = conn.recv(1)
        if not more:
            break
        head += more
    assert head.startswith(b"HTTP/1.1 101"), head
    return conn


def _exactly(conn: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        more = conn.recv(n - len(data))
        if not more:
            raise ConnectionError("the server closed the connection")
        data += more
    return data


def read_frame(conn: socket.socket) -> tuple[int, bytes]:
    """The next frame from the server: (opcode, payload)."""
    first, second = _exactly(conn, 2)
    length = second & 0x7F
    if length == 126:
        (length,) = struct.unpack("!H", _exactly(conn, 2))
    elif length == 127:
        (length,) = struct.unpack("!Q", _exactly(conn, 8))
    return first & 0x0F, _exactly(conn, length)


def close_code(payload: bytes) -> int:
    """The status code of a close frame's payload."""
    return struct.unpack("!H", payload[:2])[0]


def frame_header(length: int, opcode: int = TEXT) -> bytes:
    """A final client frame's header announcing ``length`` bytes, masked with the zero key.

    The zero key leaves the payload as it is, so it can be streamed unchanged.
    """
    if length < 126:
        size = bytes([0x80 | length])
    elif length < 1 << 16:
        size = bytes([0x80 | 126]) + struct.pack("!H", length)
    else:
        size = bytes([0x80 | 127]) + struct.pack("!Q", length)
    return bytes([0x80 | opcode]) + size + b"\0\0\0\0"

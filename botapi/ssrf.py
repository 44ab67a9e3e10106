"""The SSRF guard: bots may only be reached on public addresses.

A bot endpoint is a URL chosen by a stranger. Without a guard the referee
could be made to POST to ``http://169.254.169.254/`` (cloud metadata), to
``http://localhost:6379/`` or to anything else inside our network. Two checks
stop that:

* :func:`check_endpoint` -- at registration: the scheme is http/https, there
  is a host, no credentials, and *every* address the host resolves to is
  permitted. It gives a clear message for the REST API.
* :class:`GuardedTransport` -- at every connection. DNS can change between
  registration and play (or on purpose, "DNS rebinding"), so the check at
  registration proves nothing later. The transport plugs a custom httpcore
  *network backend* into a normal connection pool: when the pool opens a
  connection, the backend resolves the host once, checks every address,
  and opens the TCP socket to that checked IP itself. Nothing resolves the
  name a second time, so there is no window between check and use. Because
  only the socket is redirected, httpx still builds the request from the
  URL: the ``Host`` header, TLS SNI and certificate verification all use the
  registered host name, exactly as without the guard. Pooled keep-alive
  connections are reused only for the same origin and stay bound to the IP
  checked when they were opened.

The client uses ``trust_env=False`` so no ``HTTP_PROXY`` variable can route
requests around the guard.

The backend also enforces the caller's *hard deadline*: the client sets a
per-thread deadline (:func:`deadline_scope`) and every DNS lookup, connect,
TLS handshake, write and read is given at most the time left, so a bot that
trickles its reply one byte at a time cannot hold the referee past it.
Lookups go through :class:`botapi.lookups.Lookups` (one lookup in flight per
host, no shared queue, a short cache), so a bot whose DNS server never
answers times out alone instead of making other bots' lookups wait.

Which addresses are refused: every range in :data:`NON_PUBLIC_NETWORKS`
(loopback, private, shared, link-local, site-local, unique local, multicast,
documentation, benchmarking, reserved, Teredo, anycast service ranges ...,
from IANA's special-purpose registries), IPv6 outside ``2000::/3``, and
anything else :mod:`ipaddress` calls non-global. An IPv4-mapped
(``::ffff:127.0.0.1``), NAT64 (``64:ff9b::/96``) or 6to4 IPv6 address is
judged by the IPv4 address it delivers to. An :class:`AddressPolicy` may
allow networks (tests and the demo allow loopback) or every address
(``allow_private=True``).
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
import socket
import ssl
import time
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import httpcore
import httpx

from .lookups import Lookups, LookupsBusy, LookupTimedOut
from .lookups import Resolver as Resolver

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

LOOPBACK_NETWORKS = ("127.0.0.0/8", "::1/128")
_HOST_NAME = re.compile(r"(?!-)[A-Za-z0-9_-]{1,63}(?:\.(?!-)[A-Za-z0-9_-]{1,63})*\.?")
"""An ASCII (IDNA-encoded) DNS name: dot-separated labels of letters, digits, - and _."""


class EndpointRefused(ValueError):
    """An endpoint the guard will not talk to.

    ``reason`` is a stable code (``scheme``, ``host``, ``port``, ``credentials``,
    ``unresolvable``, ``forbidden_address``); the message names the problem
    for the bot's owner.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


# ------------------------------------------------------------------ policy
def check_port(port: int) -> int:
    """``port`` if it is a TCP port (1-65535); else :class:`EndpointRefused` naming it.

    Out-of-range ports must be refused rather than passed on: the C resolver
    truncates them to 16 bits, so ``:73661`` would reach port 8125.
    """
    if not 1 <= port <= 65535:
        raise EndpointRefused(
            "port", f"port {port} is not a TCP port: an endpoint's port must be 1 to 65535"
        )
    return port


def _named(*entries: tuple[str, str]) -> tuple[tuple[IPNetwork, str], ...]:
    return tuple((ipaddress.ip_network(network), name) for network, name in entries)


NON_PUBLIC_NETWORKS = _named(
    # IPv4: IANA IPv4 Special-Purpose Address Registry, multicast and class E.
    ("0.0.0.0/32", "unspecified"),
    ("0.0.0.0/8", "this-network"),
    ("10.0.0.0/8", "private"),
    ("100.64.0.0/10", "shared (carrier-grade NAT)"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link-local"),
    ("172.16.0.0/12", "private"),
    # All of it, the PCP (.9) and TURN (.10) anycast addresses too: they reach
    # the *nearest* such server, which is inside the operator's network.
    ("192.0.0.0/24", "IETF protocol assignment"),
    ("192.0.2.0/24", "documentation"),
    ("192.31.196.0/24", "AS112 anycast"),
    ("192.52.193.0/24", "AMT anycast"),
    ("192.88.99.0/24", "6to4 relay anycast"),
    ("192.168.0.0/16", "private"),
    ("192.175.48.0/24", "AS112 anycast"),
    ("198.18.0.0/15", "benchmarking"),
    ("198.51.100.0/24", "documentation"),
    ("203.0.113.0/24", "documentation"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"),  # with the broadcast address 255.255.255.255
    # IPv6: IANA IPv6 Special-Purpose Address Registry and address space.
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("64:ff9b:1::/48", "local-use NAT64"),
    ("100::/64", "discard-only"),
    ("100:0:0:1::/64", "dummy"),
    ("2001::/32", "Teredo"),
    # All of it, although IANA and newer Pythons call some of it global: its
    # anycast services (PCP, TURN, AMT, AS112) reach the nearest server and
    # ORCHID names are not locators; no bot lives there.
    ("2001::/23", "IETF protocol assignment"),
    ("2001:db8::/32", "documentation"),
    ("2620:4f:8000::/48", "AS112 anycast"),
    ("3fff::/20", "documentation"),
    ("5f00::/16", "SRv6 segment identifier"),
    ("fc00::/7", "unique local"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "site-local"),  # deprecated (RFC 3879), still routed inside sites
    ("ff00::/8", "multicast"),
)
"""Every range a bot endpoint may not use, with the word that names it in refusals.

Explicit rather than left to :mod:`ipaddress`: its flags miss some ranges
(``fec0::/10`` is "global" to it) and change between Python releases (3.13
calls ``2001:1::1`` global, 3.11.7 does not). Those flags are still consulted
afterwards, as a second net. The first matching entry names the range, so a
narrower range comes before the one containing it.
"""

GLOBAL_UNICAST_V6 = ipaddress.ip_network("2000::/3")
"""The only IPv6 space IANA allocates for global unicast; the rest is reserved."""
NAT64_WELL_KNOWN = ipaddress.ip_network("64:ff9b::/96")


def embedded_ipv4(ip: ipaddress.IPv6Address) -> tuple[str, ipaddress.IPv4Address] | None:
    """The IPv4 address that ``ip`` delivers to, named by how, or None.

    An IPv4-mapped address is the IPv4 host itself; a well-known-prefix NAT64
    address (RFC 6052) is translated to the IPv4 address in its last 32 bits;
    a 6to4 address (RFC 3056) is tunnelled to the one in bits 16-48. Each is
    exactly as public as that IPv4 address. (Teredo and local-use NAT64 are
    refused whole instead: where they deliver depends on a relay's network.)
    """
    if ip.ipv4_mapped is not None:
        return "IPv4-mapped", ip.ipv4_mapped
    if ip in NAT64_WELL_KNOWN:
        return "NAT64", ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip.sixtofour is not None:
        return "6to4", ip.sixtofour
    return None


def forbidden_reason(ip: IPAddress) -> str | None:
    """Why ``ip`` is not a public unicast address, or None if it is one."""
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = embedded_ipv4(ip)
        if embedded is not None:
            how, inner = embedded
            refusal = forbidden_reason(inner)
            return None if refusal is None else f"{how} {refusal}"
    for network, name in NON_PUBLIC_NETWORKS:
        if ip.version == network.version and ip in network:
            return f"{name} address {ip}"
    if isinstance(ip, ipaddress.IPv6Address) and ip not in GLOBAL_UNICAST_V6:
        return f"reserved address {ip}"
    for reason, flag in (
        ("unspecified", ip.is_unspecified),
        ("loopback", ip.is_loopback),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("private", ip.is_private),
        ("reserved", ip.is_reserved),
    ):
        if flag:
            return f"{reason} address {ip}"
    if not ip.is_global:
        return f"non-public address {ip}"
    return None


@dataclass(frozen=True, slots=True)
class AddressPolicy:
    """Which addresses bots may live on. The default refuses all non-public ones.

    ``allow_private`` permits every address (local development);
    ``allowed_networks`` permits only those networks besides public ones
    (tests and the demo use :meth:`loopback`).
    """

    allow_private: bool = False
    allowed_networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def loopback(cls) -> AddressPolicy:
        return cls(allowed_networks=tuple(ipaddress.ip_network(n) for n in LOOPBACK_NETWORKS))

    @classmethod
    def coerce(cls, allow: AddressPolicy | bool | str | Iterable[Any] | None) -> AddressPolicy:
        """Build a policy from a setting value.

        ``None``/``False`` -> strict; ``True`` -> any address; ``"loopback"``
        -> loopback only; a network string or a list of them (``"10.0.0.0/8"``,
        ``"::1"``) -> those networks.
        """
        if isinstance(allow, AddressPolicy):
            return allow
        if allow is None or allow is False:
            return cls()
        if allow is True:
            return cls(allow_private=True)
        if isinstance(allow, str):
            allow = [allow]
        networks: list[IPNetwork] = []
        for item in allow:
            if item == "loopback":
                networks.extend(cls.loopback().allowed_networks)
            else:
                networks.append(ipaddress.ip_network(item, strict=False))
        return cls(allowed_networks=tuple(networks))

    def refusal(self, ip: IPAddress) -> str | None:
        """Why this policy refuses ``ip``, or None if it may be contacted."""
        if self.allow_private:
            return None
        candidates = [ip]
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            candidates.append(ip.ipv4_mapped)
        for network in self.allowed_networks:
            if any(c.version == network.version and c in network for c in candidates):
                return None
        return forbidden_reason(ip)


def parse_ip(text: str) -> IPAddress | None:
    """``text`` as an IP address (a zone suffix such as ``%eth0`` allowed), or None."""
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


# --------------------------------------------------------------- resolving
def system_resolver(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to, in the system's preferred order."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    seen: dict[str, None] = {}
    for *_, sockaddr in infos:
        seen.setdefault(str(sockaddr[0]), None)
    return list(seen)


def checked_addresses(host: str, port: int, policy: AddressPolicy, resolver: Resolver) -> list[str]:
    """Resolve ``host`` once and return its addresses if the policy permits all of them.

    Refusing when *any* address is forbidden stops a name that mixes a public
    and a private address from reaching the private one by a retry.
    """
    literal = parse_ip(host)
    if literal is not None:
        addresses = [host]
    else:
        try:
            addresses = resolver(host, port)
        except OSError as exc:
            raise EndpointRefused("unresolvable", f"cannot resolve host {host!r}: {exc}") from None
        if not addresses:
            raise EndpointRefused("unresolvable", f"host {host!r} has no address")
    for address in addresses:
        ip = parse_ip(address)
        if ip is None:
            raise EndpointRefused("unresolvable", f"host {host!r} resolved to {address!r}")
        refusal = policy.refusal(ip)
        if refusal is not None:
            prefix = "" if literal is not None else f"host {host!r} resolves to "
            raise EndpointRefused(
                "forbidden_address",
                f"{prefix}{refusal}, which bot endpoints may not use "
                "(only public internet addresses are allowed)",
            )
    return addresses


def check_endpoint(
    url: str,
    allow: AddressPolicy | bool | str | Iterable[Any] | None = None,
    *,
    resolver: Resolver = system_resolver,
) -> str:
    """Validate a bot endpoint URL at registration; return it normalised.

    Raises :class:`EndpointRefused` with a message for the bot's owner.
    The URL is parsed by httpx, the same parser the client uses, so what is
    checked here is what would be contacted.
    """
    policy = AddressPolicy.coerce(allow)
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError) as exc:
        raise EndpointRefused("host", f"not a valid URL: {exc}") from None
    if parsed.scheme not in ("http", "https"):
        raise EndpointRefused(
            "scheme", f"the endpoint must be an http:// or https:// URL, not {parsed.scheme!r}"
        )
    if not parsed.raw_host:
        raise EndpointRefused("host", "the endpoint URL has no host")
    if parsed.userinfo:
        raise EndpointRefused(
            "credentials",
            "the endpoint URL must not contain a user name or password; "
            "requests are authenticated by their signature",
        )
    host = parsed.raw_host.decode("ascii")
    if parse_ip(host) is None and not _HOST_NAME.fullmatch(host):
        raise EndpointRefused("host", f"{parsed.host!r} is not a valid host name")
    default_port = 443 if parsed.scheme == "https" else 80
    port = check_port(default_port if parsed.port is None else parsed.port)
    checked_addresses(host, port, policy, resolver)
    return str(parsed)


# ----------------------------------------------------------------- deadline
_deadline: ContextVar[float | None] = ContextVar("bot_call_deadline", default=None)


@contextlib.contextmanager
def deadline_scope(deadline: float) -> Iterator[None]:
    """Within this block, network operations of this thread end by ``deadline``.

    ``deadline`` is a :func:`time.monotonic` value.
    """
    token = _deadline.set(deadline)
    try:
        yield
    finally:
        _deadline.reset(token)


def _bounded(timeout: float | None, error: type[Exception], what: str) -> float | None:
    """``timeout`` shortened to the time left before the current deadline."""
    deadline = _deadline.get()
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise error(f"deadline passed before {what}")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A network stream whose every operation ends by the caller's deadline."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _bounded(timeout, httpcore.ReadTimeout, "reading"))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _bounded(timeout, httpcore.WriteTimeout, "writing"))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        bounded = _bounded(timeout, httpcore.ConnectTimeout, "the TLS handshake")
        return _DeadlineStream(self._inner.start_tls(ssl_context, server_hostname, bounded))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class GuardedBackend(httpcore.NetworkBackend):
    """Opens TCP connections only to addresses the policy permits (see module doc)."""

    def __init__(
        self, policy: AddressPolicy, resolver: Resolver | Lookups = system_resolver
    ) -> None:
        self.policy = policy
        # One endpoint's DNS cannot starve another's; a Lookups given is shared (its cache too).
        self.lookups = resolver if isinstance(resolver, Lookups) else Lookups(resolver)
        self._sockets = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        check_port(port)  # never let the resolver wrap it to another port
        lookup_timeout = _bounded(timeout, httpcore.ConnectTimeout, "the DNS lookup")

        def lookup(name: str, name_port: int) -> list[str]:
            try:
                return self.lookups.resolve(name, name_port, lookup_timeout)
            except LookupTimedOut as exc:
                raise httpcore.ConnectTimeout(str(exc)) from None
            except LookupsBusy as exc:
                raise httpcore.ConnectError(str(exc)) from None

        addresses = checked_addresses(host, port, self.policy, lookup)
        last_error: Exception | None = None
        for address in addresses:
            bounded = _bounded(timeout, httpcore.ConnectTimeout, f"connecting to {address}")
            try:
                stream = self._sockets.connect_tcp(
                    address, port, bounded, local_address, socket_options
                )
            except httpcore.ConnectTimeout:
                raise
            except httpcore.ConnectError as exc:
                last_error = exc
                continue
            return _DeadlineStream(stream)
        assert last_error is not None
        raise last_error

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        raise EndpointRefused("host", "bot endpoints are reached over TCP only")

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


# ---------------------------------------------------------------- transport
_ERRORS: tuple[tuple[type[Exception], type[Exception]], ...] = (
    (httpcore.ConnectTimeout, httpx.ConnectTimeout),
    (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout),
    (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.ConnectError, httpx.ConnectError),
    (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
    (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.ProtocolError, httpx.ProtocolError),
)


@contextlib.contextmanager
def _httpx_errors() -> Iterator[None]:
    """Re-raise httpcore errors as the httpx errors callers expect."""
    try:
        yield
    except httpcore.TimeoutException as exc:
        raise _translate(exc) from exc
    except (httpcore.NetworkError, httpcore.ProtocolError, httpcore.UnsupportedProtocol) as exc:
        raise _translate(exc) from exc


def _translate(exc: Exception) -> Exception:
    for source, target in _ERRORS:
        if isinstance(exc, source):
            return target(str(exc) or type(exc).__name__)
    return httpx.TransportError(str(exc))  # pragma: no cover - every httpcore error is mapped


class _ResponseStream(httpx.SyncByteStream):
    def __init__(self, inner: Iterable[bytes]) -> None:
        self._inner = inner

    def __iter__(self) -> Iterator[bytes]:
        with _httpx_errors():
            yield from self._inner

    def close(self) -> None:
        close = getattr(self._inner, "close", None)
        if close is not None:
            with _httpx_errors():
                close()


class GuardedTransport(httpx.BaseTransport):
    """An httpx transport whose connections pass the SSRF guard and the deadline."""

    def __init__(
        self,
        policy: AddressPolicy | None = None,
        *,
        resolver: Resolver | Lookups = system_resolver,
        ssl_context: ssl.SSLContext | None = None,
        max_connections: int = 200,
        max_keepalive_connections: int = 50,
        keepalive_expiry: float = 30.0,
    ) -> None:
        self.policy = policy or AddressPolicy()
        self._pool = httpcore.ConnectionPool(
            ssl_context=ssl_context or httpx.create_ssl_context(),
            max_connections=max_connections,
            max_keepalive_connections=max_keepalive_connections,
            keepalive_expiry=keepalive_expiry,
            http1=True,
            http2=False,
            network_backend=GuardedBackend(self.policy, resolver),
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        core_request = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with _httpx_errors():
            core_response = self._pool.handle_request(core_request)
        return httpx.Response(
            status_code=core_response.status,
            headers=core_response.headers,
            stream=_ResponseStream(core_response.stream),
            extensions=core_response.extensions,
        )

    def close(self) -> None:
        self._pool.close()

"""The referee's HTTP client against real misbehaving bots on loopback (botapi.client).

Every fault kind is produced by a genuine HTTP server (tests/botapi/servers.py)
over TCP; the SSRF guard is tested at registration and at connection time.
"""

from __future__ import annotations

import datetime
import json
import socket
import ssl
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from harbormaster_bot.signing import verify_signature

from botapi import protocol
from botapi.client import BotClient, CallResult, Fault, default_client
from botapi.ssrf import AddressPolicy, EndpointRefused, check_endpoint
from tests.botapi.servers import MisbehavingServer, unused_port

SECRET = "client-test-secret"
DEADLINE_MS = 2000
"""Generous for well-behaved servers on a busy machine; the timeout tests use SHORT_MS."""
SHORT_MS = 250
LEGAL = [{"type": "hold"}, {"type": "raise", "by": 2}]
GAME = protocol.game_info(
    game_id=9, engine="toy_highcard", engine_version="1", num_players=2, options={}, seat=0
)


def act_request(deadline_ms: int = DEADLINE_MS) -> dict:
    return protocol.act_request(
        game=GAME, ply=4, deadline_ms=deadline_ms, view={"you": 0}, legal_actions=LEGAL, events=[]
    )


@pytest.fixture(scope="module")
def server() -> Iterator[MisbehavingServer]:
    running = MisbehavingServer().start()
    yield running
    running.stop()


@pytest.fixture
def client() -> Iterator[BotClient]:
    bot_client = BotClient(allow="loopback")
    yield bot_client
    bot_client.close()


# --------------------------------------------------------------- happy path
def test_an_action_reply_is_the_decision(server: MisbehavingServer, client: BotClient) -> None:
    request = act_request()
    result = client.act(server.url("/action"), SECRET, request)
    assert result.ok, result.detail
    assert (result.action, result.action_index) == (LEGAL[1], 1)
    assert result.status_code == 200
    assert result.latency_ms > 0
    assert request["request_id"] in result.request_excerpt
    assert request["request_id"] in result.reply_excerpt


def test_an_index_reply_is_the_decision(server: MisbehavingServer, client: BotClient) -> None:
    result = client.act(server.url("/index"), SECRET, act_request())
    assert result.ok, result.detail
    assert (result.action, result.action_index) == (LEGAL[1], 1)


def test_the_request_is_signed_json_of_the_message(
    server: MisbehavingServer, client: BotClient
) -> None:
    request = act_request()
    client.act(server.url("/index"), SECRET, request)
    sent = next(r for r in server.requests_to("/index") if request["request_id"] in r.body.decode())
    assert sent.json == request
    assert sent.headers["Content-Type"] == "application/json"
    verify_signature(SECRET, sent.body, sent.headers)


def test_ping_returns_name_and_version(server: MisbehavingServer, client: BotClient) -> None:
    result = client.ping(server.url("/ping"), SECRET)
    assert result.ok, result.detail
    assert result.reply == {"name": "loopy", "version": "2.1"}


def test_nul_from_a_bot_never_reaches_the_result(
    server: MisbehavingServer, client: BotClient
) -> None:
    """Everything in a result may be stored, and PostgreSQL text cannot hold NUL."""
    ping = client.ping(server.url("/nul"), SECRET)
    assert ping.ok and ping.reply["name"] == "nul\ufffdbot"
    act = client.act(server.url("/nul"), SECRET, act_request())
    assert act.fault == Fault.INVALID_JSON
    assert "\ufffd" in act.reply_excerpt
    assert "\x00" not in act.reply_excerpt + act.detail + ping.reply_excerpt


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/deep", "nested 10001 levels deep"),
        ("/surrogate", "surrogate"),
        ("/latin1", "UTF-8"),
        ("/nan", "NaN"),
        ("/garbage", "not valid JSON"),
        ("/bigint", "5000 digits"),
        ("/overflow", "beyond a double's range"),
    ],
)
def test_a_hostile_ping_reply_is_a_named_fault_that_can_be_stored(
    server: MisbehavingServer, client: BotClient, path: str, words: str
) -> None:
    """Python's parser recurses per nesting level and accepts lone surrogates, which no
    UTF-8 text (PostgreSQL's included) can hold: both must end as faults, not exceptions."""
    result = client.ping(server.url(path), SECRET)
    assert result.fault == Fault.INVALID_JSON, result.detail
    assert words in result.detail
    assert result.reply is None
    record = json.dumps(result.to_record(), ensure_ascii=False)
    record.encode("utf-8")  # storable: no lone surrogate anywhere
    assert "\x00" not in record


def test_an_extra_field_nested_within_the_limit_is_ignored(
    server: MisbehavingServer, client: BotClient
) -> None:
    """Unknown fields are ignored (the reply schemas say so) up to 64 levels of nesting."""
    act = client.act(server.url("/nested"), SECRET, act_request())
    assert act.ok, act.detail
    assert act.action_index == 0
    ping = client.ping(server.url("/nested"), SECRET)
    assert ping.ok and ping.reply == {"name": "loopy", "version": "2.1"}


def test_start_and_finish_need_only_a_2xx(server: MisbehavingServer, client: BotClient) -> None:
    start = protocol.start_request(game=GAME)
    assert client.notify(server.url("/ping"), SECRET, start).ok
    finish = protocol.finish_request(game=GAME, outcome={"scores": [1, 0], "ranks": [1, 2]})
    failed = client.notify(server.url("/error"), SECRET, finish)
    assert failed.fault == Fault.HTTP_STATUS


def test_one_client_serves_many_threads(server: MisbehavingServer, client: BotClient) -> None:
    results: list[CallResult] = []

    def call() -> None:
        results.append(client.act(server.url("/index"), SECRET, act_request(2000)))

    threads = [threading.Thread(target=call) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 8
    assert all(r.ok and r.action_index == 1 for r in results)


# -------------------------------------------------------------------- faults
@pytest.mark.parametrize(
    ("path", "fault", "words"),
    [
        ("/slow", Fault.TIMEOUT, "250 ms"),
        ("/drip", Fault.TIMEOUT, "250 ms"),
        ("/close", Fault.CONNECTION_ERROR, "disconnected"),
        ("/garbage", Fault.INVALID_JSON, "not valid JSON"),
        ("/html", Fault.INVALID_JSON, "text/html"),
        ("/huge", Fault.OVERSIZED, "65536"),
        ("/huge-chunked", Fault.OVERSIZED, "65536"),
        ("/redirect", Fault.HTTP_STATUS, "302"),
        ("/error", Fault.HTTP_STATUS, "500"),
        ("/wrong-id", Fault.WRONG_REQUEST_ID, "someone-else"),
        ("/illegal", Fault.ILLEGAL_ACTION, "teleport"),
        ("/out-of-range", Fault.ILLEGAL_ACTION, "999"),
        ("/bad-schema", Fault.BAD_SCHEMA, "action"),
        ("/deep", Fault.INVALID_JSON, "nested 10001 levels deep"),
        ("/surrogate", Fault.INVALID_JSON, "surrogate"),
        ("/latin1", Fault.INVALID_JSON, "UTF-8"),
        ("/nan", Fault.INVALID_JSON, "NaN"),
        ("/bigint", Fault.INVALID_JSON, "5000 digits"),
        ("/bigindex", Fault.INVALID_JSON, "5000 digits"),
        ("/overflow", Fault.INVALID_JSON, "beyond a double's range"),
    ],
)
def test_each_misbehaviour_is_its_fault(
    server: MisbehavingServer, client: BotClient, path: str, fault: Fault, words: str
) -> None:
    before = len(server.requests_to(path))
    deadline = SHORT_MS if fault == Fault.TIMEOUT else DEADLINE_MS
    result = client.act(server.url(path), SECRET, act_request(deadline))
    assert result.fault == fault, result.detail
    assert words in result.detail
    assert result.action is None
    assert len(server.requests_to(path)) == before + 1, "a decision is asked exactly once"
    json.dumps(result.to_record())


def test_the_deadline_covers_the_whole_exchange(
    server: MisbehavingServer, client: BotClient
) -> None:
    """The drip server sends a byte every 50 ms for 10 s: no single read ever
    waits 250 ms, so only a deadline on the whole exchange can stop it."""
    result = client.act(server.url("/drip"), SECRET, act_request(SHORT_MS))
    assert result.fault == Fault.TIMEOUT
    assert result.latency_ms < 5000


def test_a_refused_connection_is_a_connection_error(client: BotClient) -> None:
    result = client.act(f"http://127.0.0.1:{unused_port()}/", SECRET, act_request())
    assert result.fault == Fault.CONNECTION_ERROR
    assert "refused" in result.detail.lower()


def test_redirects_are_not_followed(server: MisbehavingServer, client: BotClient) -> None:
    before = len(server.requests_to("/action"))
    result = client.act(server.url("/redirect"), SECRET, act_request())
    assert result.fault == Fault.HTTP_STATUS
    assert "/action" in result.detail
    assert len(server.requests_to("/action")) == before


def test_the_reply_cap_is_configurable(server: MisbehavingServer) -> None:
    tiny = BotClient(allow="loopback", max_reply_bytes=20)
    try:
        result = tiny.act(server.url("/index"), SECRET, act_request())
    finally:
        tiny.close()
    assert result.fault == Fault.OVERSIZED
    assert "20" in result.detail


def test_a_500_keeps_an_excerpt_of_the_bots_error(
    server: MisbehavingServer, client: BotClient
) -> None:
    result = client.act(server.url("/error"), SECRET, act_request())
    assert "the bot crashed" in result.reply_excerpt


@pytest.mark.parametrize("endpoint", ["ftp://example.com/", "not a url", "http:///nohost"])
def test_a_broken_endpoint_is_a_fault_not_an_exception(client: BotClient, endpoint: str) -> None:
    result = client.act(endpoint, SECRET, act_request())
    assert result.fault in (Fault.CONNECTION_ERROR, Fault.SSRF_REFUSED)
    assert result.detail


def test_excerpts_are_truncated(server: MisbehavingServer) -> None:
    short = BotClient(allow="loopback", excerpt_chars=30)
    try:
        result = short.act(server.url("/index"), SECRET, act_request())
    finally:
        short.close()
    assert result.ok
    assert result.request_excerpt.startswith('{"protocol":1,"kind":"act"')
    assert "more characters" in result.request_excerpt


# ----------------------------------------------------------------- the guard
def test_loopback_is_refused_by_default(server: MisbehavingServer) -> None:
    strict = BotClient()
    before = len(server.received)
    try:
        result = strict.act(server.url("/index"), SECRET, act_request())
    finally:
        strict.close()
    assert result.fault == Fault.SSRF_REFUSED
    assert "loopback" in result.detail
    assert len(server.received) == before, "nothing may reach a refused address"


def test_dns_is_checked_at_every_connection(server: MisbehavingServer) -> None:
    """A name that was public at registration and now points at loopback
    (DNS rebinding) is refused when the referee connects."""
    answers = {"bot.example": ["93.184.216.34"]}

    def resolver(host: str, port: int) -> list[str]:
        return answers[host]

    port = server.server_address[1]
    url = f"http://bot.example:{port}/index"
    assert check_endpoint(url, resolver=resolver) == url
    answers["bot.example"] = ["127.0.0.1"]
    strict = BotClient(resolver=resolver)
    try:
        result = strict.act(url, SECRET, act_request())
    finally:
        strict.close()
    assert result.fault == Fault.SSRF_REFUSED
    assert "bot.example" in result.detail


def test_the_checked_address_is_used_and_the_host_header_kept(
    server: MisbehavingServer,
) -> None:
    looked_up: list[str] = []

    def resolver(host: str, port: int) -> list[str]:
        looked_up.append(host)
        return ["127.0.0.1"]

    port = server.server_address[1]
    guarded = BotClient(allow="loopback", resolver=resolver)
    request = act_request()
    try:
        result = guarded.act(f"http://my-bot.test:{port}/index", SECRET, request)
    finally:
        guarded.close()
    assert result.ok, result.detail
    assert looked_up == ["my-bot.test"], "resolved exactly once, by the guard"
    sent = next(r for r in server.requests_to("/index") if request["request_id"] in r.body.decode())
    assert sent.headers["Host"] == f"my-bot.test:{port}"


def test_a_name_with_any_forbidden_address_is_refused(server: MisbehavingServer) -> None:
    def resolver(host: str, port: int) -> list[str]:
        return ["93.184.216.34", "10.0.0.7"]

    with pytest.raises(EndpointRefused) as caught:
        check_endpoint("https://mixed.example/", resolver=resolver)
    assert caught.value.reason == "forbidden_address"
    assert "10.0.0.7" in str(caught.value)


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "127.8.9.10",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",
        "0.0.0.0",
        "224.0.0.1",
        "240.0.0.1",
        "255.255.255.255",
        "100.64.0.1",
        "[::1]",
        "[::]",
        "[fe80::1]",
        "[fc00::1]",
        "[ff02::1]",
        "[::ffff:127.0.0.1]",
        "[::ffff:10.0.0.1]",
        "[::ffff:169.254.169.254]",
        "[2002:7f00:1::1]",
        "[64:ff9b::a00:1]",
    ],
)
def test_non_public_addresses_are_refused(host: str) -> None:
    with pytest.raises(EndpointRefused) as caught:
        check_endpoint(f"http://{host}:8000/bot")
    assert caught.value.reason == "forbidden_address"


@pytest.mark.parametrize(
    "host", ["8.8.8.8", "93.184.216.34", "[2606:4700:4700::1111]", "[::ffff:8.8.8.8]"]
)
def test_public_addresses_are_accepted(host: str) -> None:
    url = f"https://{host}/bot"
    assert check_endpoint(url) == url


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("ftp://example.com/bot", "scheme"),
        ("file:///etc/passwd", "scheme"),
        ("http:///bot", "host"),
        ("http://user:pw@93.184.216.34/", "credentials"),
        ("http://[not-an-ip/", "host"),
    ],
)
def test_malformed_endpoints_are_refused(url: str, reason: str) -> None:
    with pytest.raises(EndpointRefused) as caught:
        check_endpoint(url)
    assert caught.value.reason == reason


def test_an_unresolvable_host_is_refused() -> None:
    def resolver(host: str, port: int) -> list[str]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    with pytest.raises(EndpointRefused) as caught:
        check_endpoint("http://nowhere.invalid/", resolver=resolver)
    assert caught.value.reason == "unresolvable"


def test_allowlists_open_only_what_they_name() -> None:
    check_endpoint("http://127.0.0.1:9000/", allow="loopback")
    check_endpoint("http://[::1]:9000/", allow=["loopback"])
    with pytest.raises(EndpointRefused):
        check_endpoint("http://10.0.0.1/", allow="loopback")
    check_endpoint("http://10.20.30.40/", allow=["10.0.0.0/8"])
    with pytest.raises(EndpointRefused):
        check_endpoint("http://192.168.0.1/", allow=["10.0.0.0/8"])
    check_endpoint("http://192.168.0.1/", allow=True)
    check_endpoint("http://[::ffff:127.0.0.1]/", allow=AddressPolicy.loopback())


def test_default_client_is_shared_per_policy() -> None:
    assert default_client("loopback") is default_client(["127.0.0.0/8", "::1/128"])
    assert default_client() is default_client(None)
    assert default_client() is not default_client("loopback")


def _certificates(directory: Path) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """A throwaway CA and a certificate for ``bot.test``: (server, client) contexts."""
    pytest.importorskip("cryptography")
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    def name(text: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])

    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(name("test CA"))
        .issuer_name(name("test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (
        x509.CertificateBuilder()
        .subject_name(name("bot.test"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("bot.test")]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    (directory / "ca.pem").write_bytes(ca.public_bytes(pem))
    (directory / "leaf.pem").write_bytes(leaf.public_bytes(pem))
    (directory / "key.pem").write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server.load_cert_chain(directory / "leaf.pem", directory / "key.pem")
    client = ssl.create_default_context(cafile=str(directory / "ca.pem"))
    return server, client


def test_https_keeps_the_host_name_for_sni_and_certificate_checks(tmp_path: Path) -> None:
    """The guard connects to the checked IP, yet TLS still sends the registered
    name (SNI) and verifies the certificate against it."""
    server_tls, client_tls = _certificates(tmp_path)
    server = MisbehavingServer(tls=server_tls).start()
    port = server.server_address[1]
    guarded = BotClient(
        allow="loopback", resolver=lambda host, port: ["127.0.0.1"], ssl_context=client_tls
    )
    try:
        good = guarded.act(f"https://bot.test:{port}/index", SECRET, act_request(2000))
        wrong_name = guarded.act(f"https://127.0.0.1:{port}/index", SECRET, act_request(2000))
    finally:
        guarded.close()
        server.stop()
    assert good.ok, good.detail
    assert server.server_names[0] == "bot.test"
    assert server.requests_to("/index")[0].headers["Host"] == f"bot.test:{port}"
    assert wrong_name.fault == Fault.CONNECTION_ERROR
    assert "certificate" in wrong_name.detail.lower()

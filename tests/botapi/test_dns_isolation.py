"""One bot's DNS cannot make another bot late (botapi.lookups, used by the SSRF guard).

A real loopback bot answers every call; host names reach it through a fake
resolver in which some names never answer, as a DNS server that drops
queries would behave. The lookups of the hanging names must not hold up the
lookup of a name that answers at once, and their own calls must end, as
timeouts naming the host, by their own deadlines.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from botapi import protocol
from botapi.client import BotClient, CallResult, Fault
from botapi.lookups import Lookups, LookupsBusy, LookupTimedOut
from tests.botapi.servers import MisbehavingServer

SECRET = "dns-test-secret"
LEGAL = [{"type": "hold"}, {"type": "raise", "by": 2}]
GAME = protocol.game_info(
    game_id=3, engine="toy_highcard", engine_version="1", num_players=2, options={}, seat=0
)


def act_request(deadline_ms: int) -> dict:
    return protocol.act_request(
        game=GAME, ply=1, deadline_ms=deadline_ms, view={}, legal_actions=LEGAL, events=[]
    )


class FakeDNS:
    """Names under ``hang.test`` never answer (until released); all others are loopback."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.asked: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, host: str, port: int) -> list[str]:
        with self._lock:
            self.asked.append(host)
        if host.endswith("hang.test"):
            self.release.wait(60)
            raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
        if host.endswith("missing.test"):
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return ["127.0.0.1"]

    def count(self, host: str) -> int:
        with self._lock:
            return self.asked.count(host)


@pytest.fixture(scope="module")
def server() -> Iterator[MisbehavingServer]:
    running = MisbehavingServer().start()
    yield running
    running.stop()


@pytest.fixture
def dns() -> Iterator[FakeDNS]:
    fake = FakeDNS()
    yield fake
    fake.release.set()  # let the hanging lookup threads end


@pytest.fixture
def client(dns: FakeDNS) -> Iterator[BotClient]:
    bot_client = BotClient(allow="loopback", resolver=dns)
    yield bot_client
    bot_client.close()


def _call_in_threads(
    client: BotClient, urls: list[str], deadline_ms: int
) -> tuple[list[CallResult], list[threading.Thread]]:
    """Start one act call per URL, each in its own thread (as referee threads would)."""
    results: list[CallResult] = []

    def call(url: str) -> None:
        results.append(client.act(url, SECRET, act_request(deadline_ms)))

    threads = [threading.Thread(target=call, args=(url,), daemon=True) for url in urls]
    for thread in threads:
        thread.start()
    return results, threads


def test_hanging_dns_of_other_bots_does_not_delay_a_bot(
    server: MisbehavingServer, client: BotClient, dns: FakeDNS
) -> None:
    """Forty calls to twelve names that never resolve are under way; a call to a
    name that resolves at once still gets its answer well within its deadline.
    (With one shared pool of eight lookup threads it queued behind them and timed out.)"""
    port = server.server_address[1]
    hanging = [f"http://bot{i % 12}.hang.test:{port}/index" for i in range(40)]
    stuck, threads = _call_in_threads(client, hanging, deadline_ms=1500)
    wait_until = time.monotonic() + 5
    while len([h for h in dns.asked if h.endswith("hang.test")]) < 8:
        assert time.monotonic() < wait_until, "the hanging lookups did not start"
        time.sleep(0.01)
    time.sleep(0.2)  # every hanging call is now waiting for a lookup

    good = client.act(f"http://good.test:{port}/index", SECRET, act_request(1000))

    assert good.ok, good.detail
    assert good.latency_ms < 1000
    for thread in threads:
        thread.join(5)
    assert len(stuck) == 40
    for result in stuck:
        # Each hanging call is charged to its own endpoint, as a timeout naming its host,
        # and ends by its own deadline.
        assert result.fault == Fault.TIMEOUT, result.detail
        assert "hang.test" in result.detail and "DNS lookup" in result.detail
        assert result.latency_ms < 1500 + 500
    for i in range(12):
        assert dns.count(f"bot{i}.hang.test") == 1, "one lookup in flight per name"


def test_an_answer_is_reused_for_a_while(server: MisbehavingServer, dns: FakeDNS) -> None:
    """New connections (no keep-alive here) look a name up once per TTL, not once per call."""
    port = server.server_address[1]
    client = BotClient(allow="loopback", resolver=dns)
    try:
        for _ in range(3):
            result = client.act(f"http://cached.test:{port}/index", SECRET, act_request(2000))
            assert result.ok, result.detail
            client.close()  # drops pooled connections; the lookups stay with the client
    finally:
        client.close()
    assert dns.count("cached.test") == 1


def test_a_name_that_does_not_exist_is_refused_and_remembered_briefly(
    server: MisbehavingServer, client: BotClient, dns: FakeDNS
) -> None:
    port = server.server_address[1]
    for _ in range(2):
        result = client.act(f"http://gone.missing.test:{port}/", SECRET, act_request(1000))
        assert result.fault == Fault.SSRF_REFUSED
        assert "cannot resolve host 'gone.missing.test'" in result.detail
    assert dns.count("gone.missing.test") == 1


# ------------------------------------------------------------- Lookups itself
class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_lookups_cache_answers_and_failures_for_their_ttls(dns: FakeDNS) -> None:
    clock = Clock()
    lookups = Lookups(dns, ttl=30, negative_ttl=5, clock=clock)
    assert lookups.resolve("a.test", 80, 1.0) == ["127.0.0.1"]
    assert lookups.resolve("A.TEST", 80, 1.0) == ["127.0.0.1"]  # names are case-blind
    with pytest.raises(socket.gaierror):
        lookups.resolve("b.missing.test", 80, 1.0)
    with pytest.raises(socket.gaierror):
        lookups.resolve("b.missing.test", 80, 1.0)
    assert (dns.count("a.test"), dns.count("b.missing.test")) == (1, 1)
    clock.now += 6  # the failure expired, the answer not yet
    lookups.resolve("a.test", 80, 1.0)
    with pytest.raises(socket.gaierror):
        lookups.resolve("b.missing.test", 80, 1.0)
    assert (dns.count("a.test"), dns.count("b.missing.test")) == (1, 2)
    clock.now += 30
    lookups.resolve("a.test", 80, 1.0)
    assert dns.count("a.test") == 2


def test_lookups_time_out_at_the_callers_deadline_naming_the_host(dns: FakeDNS) -> None:
    lookups = Lookups(dns)
    started = time.monotonic()
    with pytest.raises(LookupTimedOut) as caught:
        lookups.resolve("slow.hang.test", 80, 0.2)
    assert 0.15 < time.monotonic() - started < 1.0
    assert "slow.hang.test" in str(caught.value) and "200 ms" in str(caught.value)


def test_lookups_in_flight_are_bounded_and_never_queued(dns: FakeDNS) -> None:
    lookups = Lookups(dns, max_in_flight=3)
    for i in range(3):
        with pytest.raises(LookupTimedOut):
            lookups.resolve(f"h{i}.hang.test", 80, 0.01)
    with pytest.raises(LookupsBusy):
        lookups.resolve("h3.hang.test", 80, 1.0)
    # a name already being looked up is waited for, not refused
    with pytest.raises(LookupTimedOut):
        lookups.resolve("h0.hang.test", 80, 0.01)
    dns.release.set()
    wait_until = time.monotonic() + 5
    while True:  # the three lookups end (failing), freeing their places
        try:
            assert lookups.resolve("fine.test", 80, 1.0) == ["127.0.0.1"]
            break
        except LookupsBusy:
            assert time.monotonic() < wait_until
            time.sleep(0.01)


def test_no_deadline_means_a_plain_lookup_in_the_callers_thread(dns: FakeDNS) -> None:
    lookups = Lookups(dns)
    assert lookups.resolve("plain.test", 80, None) == ["127.0.0.1"]
    assert lookups.resolve("plain.test", 80, None) == ["127.0.0.1"]
    assert dns.count("plain.test") == 2  # registration checks always ask afresh

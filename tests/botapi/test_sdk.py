"""The bot SDK: a real endpoint on loopback, spoken to by the referee's client."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from harbormaster_bot import PortInUse, RunningBot, Turn, check, serve_in_background, sign_headers
from harbormaster_bot.examples.random_bot import RandomBot
from harbormaster_bot.replay import ReplayMemory

import engines
from botapi import protocol
from botapi.client import BotClient, Fault
from engines import CHANCE, Dealer
from tests.botapi.servers import unused_port
from tests.engines.toy import TOY

SECRET = "sdk-test-secret"
ROOT = Path(__file__).resolve().parents[2]
LEGAL = [{"type": "hold"}, {"type": "raise"}, {"type": "fold"}]
GAME = protocol.game_info(
    game_id="g7", engine="toy_highcard", engine_version="1", num_players=3, options={}, seat=2
)


def act_request(deadline_ms: int = 1000) -> dict[str, Any]:
    return protocol.act_request(
        game=GAME, ply=1, deadline_ms=deadline_ms, view={"you": 2}, legal_actions=LEGAL, events=[]
    )


class Recorder:
    """A handler that remembers what it was given and answers a fixed choice."""

    def __init__(self, choice: Any = 1) -> None:
        self.choice = choice
        self.turns: list[Turn] = []
        self.time_left: list[float] = []
        self.started: list[dict] = []
        self.finished: list[dict] = []

    def act(self, turn: Turn) -> Any:
        self.turns.append(turn)
        self.time_left.append(turn.time_left())
        return self.choice

    def start(self, request: dict) -> None:
        self.started.append(request)

    def finish(self, request: dict) -> None:
        self.finished.append(request)


@pytest.fixture
def client() -> Iterator[BotClient]:
    bot_client = BotClient(allow="loopback")
    yield bot_client
    bot_client.close()


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def bot(recorder: Recorder) -> Iterator[RunningBot]:
    with serve_in_background(recorder, secret=SECRET, name="recorder", version="0.3") as running:
        yield running


def post(bot: RunningBot, body: bytes, headers: dict[str, str]) -> httpx.Response:
    return httpx.post(bot.url, content=body, headers=headers, timeout=5)


# ------------------------------------------------------------ round trips
def test_port_zero_binds_a_free_port(bot: RunningBot) -> None:
    assert bot.port > 0
    assert bot.url == f"http://127.0.0.1:{bot.port}/"


def test_a_signed_act_request_round_trips(
    bot: RunningBot, recorder: Recorder, client: BotClient
) -> None:
    request = act_request()
    result = client.act(bot.url, SECRET, request)
    assert result.ok, result.detail
    assert (result.action, result.action_index) == (LEGAL[1], 1)
    [turn] = recorder.turns
    assert turn.request == request
    assert (turn.seat, turn.ply, turn.legal_actions, turn["view"]) == (2, 1, LEGAL, {"you": 2})
    assert 0 < recorder.time_left[0] <= 1.0


def test_a_handler_may_return_the_action_itself(client: BotClient) -> None:
    def act(turn: Turn) -> dict:
        return turn.legal_actions[2]

    with serve_in_background(act, secret=SECRET) as running:
        result = client.act(running.url, SECRET, act_request())
    assert result.ok, result.detail
    assert (result.action, result.action_index) == (LEGAL[2], 2)


def test_ping_answers_name_and_version(bot: RunningBot, client: BotClient) -> None:
    result = client.ping(bot.url, SECRET)
    assert result.ok, result.detail
    assert result.reply == {"name": "recorder", "version": "0.3"}


def test_start_and_finish_reach_the_handler(
    bot: RunningBot, recorder: Recorder, client: BotClient
) -> None:
    start = protocol.start_request(game=GAME, players=["a", "b", "me"])
    finish = protocol.finish_request(game=GAME, outcome={"scores": [1, 2, 3], "ranks": [3, 2, 1]})
    assert client.notify(bot.url, SECRET, start).ok
    assert client.notify(bot.url, SECRET, finish).ok
    assert recorder.started == [start]
    assert recorder.finished == [finish]


def test_the_random_bot_plays_a_whole_game_over_http(client: BotClient) -> None:
    state = TOY.new_game(3)
    dealer = Dealer(3)
    with serve_in_background(RandomBot(seed=1), secret=SECRET) as running:
        ply = 0
        while not state.is_over:
            seat = state.to_move[0]
            if seat == CHANCE:
                action = dealer.choose(state)
            else:
                request = protocol.act_request_for_state(
                    state, game_id=1, seat=seat, ply=ply, deadline_ms=1000
                )
                result = client.act(running.url, SECRET, request)
                assert result.ok, result.detail
                action = result.action
            state.apply(seat, action)
            ply += 1
    assert sorted(state.outcome()["ranks"])[0] == 1


# --------------------------------------------------------------- security
def test_a_bad_signature_is_rejected_with_401(
    bot: RunningBot, recorder: Recorder, client: BotClient
) -> None:
    result = client.act(bot.url, "not-the-secret", act_request())
    assert result.fault == Fault.HTTP_STATUS
    assert result.status_code == 401
    assert json.loads(result.reply_excerpt)["error"] == "bad_signature"
    assert recorder.turns == []


def test_a_stale_timestamp_is_rejected_with_401(bot: RunningBot, recorder: Recorder) -> None:
    body = json.dumps(act_request()).encode()
    headers = sign_headers(SECRET, body, timestamp=int(time.time()) - 400)
    response = post(bot, body, {"Content-Type": "application/json", **headers})
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/json"
    assert response.json()["error"] == "stale_timestamp"
    assert " s old" in response.json()["detail"]
    assert recorder.turns == []


def test_an_unsigned_request_is_rejected_with_401(bot: RunningBot, recorder: Recorder) -> None:
    response = post(bot, json.dumps(act_request()).encode(), {"Content-Type": "application/json"})
    assert response.status_code == 401
    assert response.json()["error"] == "missing_signature"
    assert recorder.turns == []


def signed(request: dict[str, Any], timestamp: int | None = None) -> tuple[bytes, dict[str, str]]:
    """A request's body and headers, signed as the referee signs them."""
    body = json.dumps(request, separators=(",", ":")).encode()
    return body, {"Content-Type": "application/json", **sign_headers(SECRET, body, timestamp)}


def test_an_identical_signed_request_replayed_is_refused(
    bot: RunningBot, recorder: Recorder
) -> None:
    body, headers = signed(act_request())
    assert post(bot, body, headers).status_code == 200
    replay = post(bot, body, headers)
    assert replay.status_code == 401
    assert replay.headers["content-type"] == "application/json"
    assert replay.json()["error"] == "replayed_request"
    assert "already" in replay.json()["detail"]
    assert len(recorder.turns) == 1, "a replay must not reach the handler"


@pytest.mark.parametrize(
    "disguise",
    [
        lambda h: {**h, "X-Harbormaster-Signature": h["X-Harbormaster-Signature"] + ",v1=00"},
        lambda h: {**h, "X-Harbormaster-Signature": "v2=abc, " + h["X-Harbormaster-Signature"]},
    ],
    ids=["extra signature", "other scheme first"],
)
def test_a_replay_with_reworded_headers_is_still_a_replay(
    bot: RunningBot, recorder: Recorder, disguise: Any
) -> None:
    """Requests are remembered by what was signed, not by how the headers are written."""
    body, headers = signed(act_request())
    assert post(bot, body, headers).status_code == 200
    replay = post(bot, body, disguise(headers))
    assert replay.json()["error"] == "replayed_request"
    assert len(recorder.turns) == 1


def test_a_replay_with_the_timestamp_spelled_otherwise_is_refused_as_malformed(
    bot: RunningBot, recorder: Recorder
) -> None:
    """'0' + the timestamp is the same number, but only plain digits are signed text."""
    body, headers = signed(act_request())
    assert post(bot, body, headers).status_code == 200
    respelled = {**headers, "X-Harbormaster-Timestamp": "0" + headers["X-Harbormaster-Timestamp"]}
    replay = post(bot, body, respelled)
    assert (replay.status_code, replay.json()["error"]) == (401, "malformed_signature")
    assert len(recorder.turns) == 1


@pytest.mark.parametrize("kind", ["ping", "start", "finish"])
def test_every_kind_of_message_is_protected_from_replay(
    bot: RunningBot, recorder: Recorder, kind: str
) -> None:
    request = {
        "ping": protocol.ping_request(),
        "start": protocol.start_request(game=GAME, players=["a", "b", "me"]),
        "finish": protocol.finish_request(game=GAME, outcome={"scores": [1], "ranks": [1]}),
    }[kind]
    body, headers = signed(request)
    assert post(bot, body, headers).status_code == 200
    assert post(bot, body, headers).json()["error"] == "replayed_request"
    assert len(recorder.started) + len(recorder.finished) == (kind != "ping")


def test_replays_racing_each_other_are_answered_once(bot: RunningBot, recorder: Recorder) -> None:
    body, headers = signed(act_request())
    start = threading.Barrier(8)
    statuses: list[int] = []

    def send() -> None:
        start.wait()
        statuses.append(post(bot, body, headers).status_code)

    senders = [threading.Thread(target=send) for _ in range(8)]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join()
    assert sorted(statuses) == [200] + [401] * 7
    assert len(recorder.turns) == 1


def test_the_same_question_asked_again_is_not_a_replay(
    bot: RunningBot, recorder: Recorder, client: BotClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The referee asking again (e.g. after a crash) builds a new request: a new
    request_id, so a new signature, even within the same second."""
    frozen = float(int(time.time()))
    monkeypatch.setattr("harbormaster_bot.signing.time", SimpleNamespace(time=lambda: frozen))
    for _ in range(2):
        result = client.act(bot.url, SECRET, act_request())
        assert result.ok, result.detail
    assert [turn.ply for turn in recorder.turns] == [1, 1]


def test_a_replay_is_refused_again_and_again_until_its_window_ends(
    recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Remembered until the timestamp is too old to pass; then refused as stale."""
    clock = SimpleNamespace(time=time.time)
    monkeypatch.setattr("harbormaster_bot.signing.time", clock)
    monkeypatch.setattr(
        "harbormaster_bot.server.time",
        SimpleNamespace(time=lambda: clock.time(), monotonic=time.monotonic),
    )
    with serve_in_background(recorder, secret=SECRET, tolerance=60) as running:
        body, headers = signed(act_request())
        assert post(running, body, headers).status_code == 200
        sent = float(headers["X-Harbormaster-Timestamp"])
        expected = {30: "replayed_request", 59: "replayed_request", 60: "replayed_request",
                    61: "stale_timestamp"}  # fmt: skip
        for offset, error in expected.items():
            clock.time = lambda offset=offset: sent + offset
            assert post(running, body, headers).json()["error"] == error, offset
    assert len(recorder.turns) == 1


def test_replay_memory_forgets_what_has_expired() -> None:
    memory = ReplayMemory(capacity=10)
    assert memory.first_time(b"a", expires_at=100.0, now=50.0)
    assert not memory.first_time(b"a", expires_at=100.0, now=99.0)
    assert not memory.first_time(b"a", expires_at=100.0, now=100.0), "kept until its expiry"
    assert memory.first_time(b"b", expires_at=200.0, now=101.0)
    assert len(memory) == 1, "a's entry expired and was dropped"


def test_replay_memory_is_bounded_and_forgets_the_oldest_when_full(
    caplog: pytest.LogCaptureFixture,
) -> None:
    memory = ReplayMemory(capacity=3)
    for key in (b"a", b"b", b"c", b"d"):
        assert memory.first_time(key, expires_at=1000.0, now=0.0)
    assert len(memory) == 3
    assert memory.first_time(b"a", expires_at=1000.0, now=0.0), "a was forgotten to make room"
    assert not memory.first_time(b"d", expires_at=1000.0, now=0.0)
    assert "forgot the oldest" in caplog.text


def test_replay_memory_admits_a_key_once_across_threads() -> None:
    memory = ReplayMemory(capacity=100_000)
    start = threading.Barrier(8)
    firsts: list[int] = []

    def claim() -> None:
        start.wait()
        firsts.append(sum(memory.first_time(str(i).encode(), 1e12, 0.0) for i in range(2000)))

    workers = [threading.Thread(target=claim) for _ in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert sum(firsts) == 2000


def send_raw(bot: RunningBot, data: bytes, *, half_close: bool) -> bytes:
    """Send bytes over a raw socket, end the sending side, return all that comes back."""
    with socket.create_connection((bot.host, bot.port), timeout=5) as sock:
        sock.sendall(data)
        if not half_close:
            return b""
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def raw_request(body: bytes, headers: dict[str, str], length: int) -> bytes:
    lines = ["POST / HTTP/1.1", "Host: bot", f"Content-Length: {length}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def wait_for_log(caplog: pytest.LogCaptureFixture, text: str) -> list[str]:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        messages = [r.getMessage() for r in caplog.records if r.name == "harbormaster.bot"]
        if any(text in m for m in messages):
            return messages
        time.sleep(0.02)
    raise AssertionError(f"no log saying {text!r}: {caplog.text}")


def test_a_body_cut_off_is_answered_as_such_not_as_a_bad_signature(
    bot: RunningBot, recorder: Recorder, caplog: pytest.LogCaptureFixture
) -> None:
    body, headers = signed(act_request())
    answer = send_raw(bot, raw_request(body[:100], headers, len(body)), half_close=True)
    status_line, _, rest = answer.partition(b"\r\n")
    assert status_line == b"HTTP/1.1 400 Bad Request"
    error = json.loads(rest.partition(b"\r\n\r\n")[2])
    assert error["error"] == "incomplete_body"
    assert f"request body cut off (got 100 of {len(body)} bytes)" in error["detail"]
    messages = wait_for_log(caplog, f"cut off (got 100 of {len(body)} bytes)")
    assert not any("signature" in m for m in messages)
    assert recorder.turns == []


def test_a_sender_dying_mid_body_is_logged_as_a_cut_off(
    bot: RunningBot, recorder: Recorder, caplog: pytest.LogCaptureFixture
) -> None:
    """The connection closes entirely (a killed worker): nobody reads the answer,
    but the bot's log says what happened."""
    caplog.set_level("WARNING", logger="harbormaster.bot")
    body, headers = signed(act_request())
    send_raw(bot, raw_request(body[:7], headers, len(body)), half_close=False)
    messages = wait_for_log(caplog, f"request body cut off (got 7 of {len(body)} bytes)")
    assert not any("signature" in m for m in messages)
    assert recorder.turns == []


def test_after_a_cut_off_the_next_connection_is_served(
    bot: RunningBot, recorder: Recorder, client: BotClient
) -> None:
    body, headers = signed(act_request())
    send_raw(bot, raw_request(body[:10], headers, len(body)), half_close=True)
    assert client.act(bot.url, SECRET, act_request()).ok


def test_a_get_is_answered_with_a_hint(bot: RunningBot) -> None:
    response = httpx.get(bot.url, timeout=5)
    assert response.status_code == 405
    assert "POST" in response.json()["detail"]


def test_a_secret_is_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HARBORMASTER_SECRET", raising=False)
    with pytest.raises(ValueError, match="secret"):
        serve_in_background(RandomBot())


def test_the_secret_may_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, client: BotClient
) -> None:
    monkeypatch.setenv("HARBORMASTER_SECRET", "from-env")
    with serve_in_background(RandomBot()) as running:
        assert client.ping(running.url, "from-env").ok


# -------------------------------------------------------------- robustness
def test_a_slow_handler_is_answered_for_before_the_deadline(client: BotClient) -> None:
    release = threading.Event()

    def ponder(turn: Turn) -> int:
        release.wait(5)
        return 2

    try:
        with serve_in_background(ponder, secret=SECRET) as running:
            result = client.act(running.url, SECRET, act_request(deadline_ms=500))
    finally:
        release.set()
    assert result.ok, result.detail
    assert result.action_index == 0
    assert "too slow" in result.reply_excerpt


@pytest.mark.parametrize(
    "choice", [7, -1, True, "raise", {"kind": "raise"}, None], ids=lambda c: repr(c)
)
def test_a_bad_handler_result_is_a_500_with_the_reason(client: BotClient, choice: Any) -> None:
    with serve_in_background(Recorder(choice), secret=SECRET) as running:
        result = client.act(running.url, SECRET, act_request())
    assert result.fault == Fault.HTTP_STATUS
    assert result.status_code == 500
    assert json.loads(result.reply_excerpt)["error"] == "handler_failed"


def test_a_handler_exception_is_reported_to_the_referee(client: BotClient) -> None:
    def crash(turn: Turn) -> int:
        raise RuntimeError("my search blew up")

    with serve_in_background(crash, secret=SECRET) as running:
        result = client.act(running.url, SECRET, act_request())
    assert result.status_code == 500
    assert "my search blew up" in result.reply_excerpt


def test_a_handler_without_act_is_refused() -> None:
    with pytest.raises(TypeError, match="act"):
        serve_in_background(object(), secret=SECRET)


def test_the_sdk_imports_only_the_standard_library() -> None:
    code = (
        "import sys; import harbormaster_bot, harbormaster_bot.examples.random_bot; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'httpx', 'jsonschema', 'engines', 'rest_framework'}); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr


# -------------------------------------------------------- the endpoint check
def test_the_check_passes_a_good_bot(capsys: pytest.CaptureFixture[str]) -> None:
    with serve_in_background(RandomBot(), secret=SECRET, name="rnd") as running:
        assert check.main([running.url, "--secret", SECRET]) == 0
    out = capsys.readouterr().out
    assert "'name': 'rnd'" in out
    assert "OK" in out


@pytest.mark.parametrize("slug", [e.slug for e in engines.all_engines()])
def test_the_check_can_send_a_real_engine_position(slug: str) -> None:
    with serve_in_background(RandomBot(), secret=SECRET) as running:
        assert check.main([running.url, "--secret", SECRET, "--engine", slug]) == 0


def test_the_check_names_an_unknown_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert check.main(["http://127.0.0.1:9/", "--secret", SECRET, "--engine", "chess"]) == 2
    assert "unknown engine" in capsys.readouterr().out


def test_the_check_reports_a_wrong_secret(capsys: pytest.CaptureFixture[str]) -> None:
    with serve_in_background(RandomBot(), secret=SECRET) as running:
        assert check.main([running.url, "--secret", "wrong"]) == 1
    assert "HTTP 401" in capsys.readouterr().out


def test_the_check_reports_an_illegal_answer(capsys: pytest.CaptureFixture[str]) -> None:
    with serve_in_background(lambda turn: {"type": "teleport"}, secret=SECRET) as running:
        assert check.main([running.url, "--secret", SECRET]) == 1
    assert "not among legal_actions" in capsys.readouterr().out


def test_the_check_reports_an_unreachable_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert check.main([f"http://127.0.0.1:{unused_port()}/", "--secret", SECRET]) == 2
    assert "could not reach" in capsys.readouterr().out


# ------------------------------------------------------------ ports (issue 14)
@pytest.fixture
def held_port() -> Iterator[int]:
    """A loopback port some other program is listening on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


@pytest.mark.parametrize(
    "module", ["harbormaster_bot.examples.random_bot", "harbormaster_bot.examples.greedy"]
)
def test_an_example_bot_on_a_port_in_use_says_so_in_one_line(module: str, held_port: int) -> None:
    done = subprocess.run(
        [sys.executable, "-m", module, "--port", str(held_port)],
        cwd=ROOT,
        env={**os.environ, "HARBORMASTER_SECRET": SECRET},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"127.0.0.1:{held_port}" in lines[0] and "port in use" in lines[0]


def test_an_example_bot_without_a_secret_says_so_in_one_line() -> None:
    env = {k: v for k, v in os.environ.items() if k != "HARBORMASTER_SECRET"}
    done = subprocess.run(
        [sys.executable, "-m", "harbormaster_bot.examples.random_bot", "--port", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert "signing secret is required" in done.stderr.strip()


def test_serving_in_the_background_on_a_port_in_use_raises_port_in_use(held_port: int) -> None:
    with pytest.raises(PortInUse, match="port in use"):
        serve_in_background(RandomBot(), port=held_port, secret=SECRET)


def test_the_example_bots_default_ports_do_not_clash_with_the_demo() -> None:
    from harbormaster_bot.examples import random_bot
    from harbormaster_bot.examples.greedy import __main__ as greedy_main

    makefile = (ROOT / "Makefile").read_text()
    demo_port = int(re.search(r"^PORT \?= (\d+)$", makefile, re.M).group(1))
    ports = {
        "demo": demo_port,
        "random": random_bot.DEFAULT_PORT,
        "greedy": greedy_main.DEFAULT_PORT,
    }
    assert len(set(ports.values())) == 3, ports
    readme = (ROOT / "sdk/python/README.md").read_text()
    for name in ("random", "greedy"):
        assert f"127.0.0.1:{ports[name]}/" in readme, f"the SDK README shows {name}'s port"

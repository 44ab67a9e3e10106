"""``bench.mix``'s load as written: the mix's shares, and wrk running its script for real.

The load itself needs a server and minutes; here wrk (skipped without it)
runs the generated script for a second against a stub server that records
what it was asked, so a mistake in the Lua or in the weights shows.
"""

from __future__ import annotations

import re
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bench import mix

PATHS = {
    "engine boards": ["/leaderboards/manila/"],
    "deeper boards": ["/leaderboards/manila/?page=2"],
    "event": ["/tournaments/7/"],
    "bots": ["/bots/bench-owner/bench-bot/"],
    "live fallback": ["5041"],
}


def test_three_quarters_popular_a_quarter_first_views() -> None:
    weights = {what: weight for _, weight, what in mix.MIX}
    assert sum(weights.values()) == 100
    assert weights["games"] + weights["bots"] == 25, "the long tail"


def test_the_figures_of_the_scripts_done() -> None:
    out = "Running 1s test\nFIGURES 600 2000000 3 12.500 80.250 120.000\n"
    assert mix.figures_of(out) == {
        "rps": 300.0, "errors": 3, "p50": 12.5, "p95": 80.25, "p99": 120.0,
    }  # fmt: skip


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is not installed")
def test_wrk_runs_the_mix_over_every_kind(tmp_path: Path) -> None:
    seen: list[tuple[str, str]] = []

    class Stub(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append((self.path, self.headers.get("Cookie", "")))
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args) -> None:
            pass

    class Server(ThreadingHTTPServer):
        def handle_error(self, request, client_address) -> None:
            pass  # wrk drops its connections at the end, mid-answer

    server = Server(("127.0.0.1", 0), Stub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    ids = tmp_path / "live.txt"
    ids.write_text("2501\n2502\n")
    script = tmp_path / "mix.lua"
    script.write_text(mix.mix_script(PATHS, 1000, ["s1", "s2"], ids))
    try:
        figures = mix.wrk(server.server_address[1], 2, 1, script)
    finally:
        server.shutdown()
    assert figures["errors"] == 0 and figures["rps"] > 0
    paths = {path for path, _ in seen}
    for expected in ("/", "/leaderboards/", "/lobby/", "/leaderboards/manila/",
                     "/leaderboards/manila/?page=2", "/tournaments/7/",
                     "/bots/bench-owner/bench-bot/"):  # fmt: skip
        assert expected in paths
    live = {path for path in paths if path in ("/games/2501/", "/games/2502/", "/games/5041/")}
    assert live and "/games/5041/" not in live, "the live games come from the file"
    finished = [p for p in paths if re.fullmatch(r"/games/(\d+)/", p) and p not in live]
    assert finished and all(1 <= int(p.split("/")[2]) <= 1000 for p in finished)
    signed = sum(cookie in ("sessionid=s1", "sessionid=s2") for _, cookie in seen) / len(seen)
    assert 0.1 < signed < 0.3, "about a fifth signed in"

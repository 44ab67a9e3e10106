"""The play page's script on a refused socket, run by Node.js with a stand-in page and WebSocket.

A socket over an open-socket limit is closed with 4429 and a reason: the page
shows the reason and does not try again (reconnecting at once would only be
refused again, by every tab at once). Any other close still reconnects.
The real browser tests need Chromium; this needs only ``node``.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.foundation.processes import PROJECT_DIR
from tests.sdk_js.node import node_or_skip
from web.sockets.limits import REFUSED_CODE

HARNESS = r"""
const fs = require("fs"), vm = require("vm");
const [script, code, reason] = [process.argv[1], Number(process.argv[2]), process.argv[3]];
const elements = {};
const element = (id) => elements[id] || (elements[id] = {
  id, textContent: "", className: "", hidden: false, attributes: {}, firstChild: null,
  setAttribute(name, value) { this.attributes[name] = value; },
  getAttribute(name) { return name === "data-ws" ? "/ws/games/1/" : this.attributes[name]; },
  addEventListener() {}, appendChild() {}, removeChild() {},
});
const sockets = [], timeouts = [];
class WebSocket { constructor(url) { this.url = url; sockets.push(this); } }
WebSocket.OPEN = 1;
const context = {
  document: { getElementById: element, title: "Play", addEventListener() {} },
  window: { HMBoards: { render() {}, setBusy() {}, el() { return {}; } }, confirm: () => false },
  WebSocket, location: { protocol: "http:", host: "127.0.0.1:8000" },
  performance: { now: () => 0 }, setInterval() {},
  setTimeout(fn, ms) { timeouts.push(ms); },
};
vm.runInNewContext(fs.readFileSync(script, "utf8"), context);
sockets[0].onopen();
sockets[0].onclose({ code, reason });
console.log(JSON.stringify({
  connection: elements["play-connection"].textContent,
  refused: elements["play"].attributes["data-refused"] || null,
  retries: timeouts.length,
}));
"""


def closed(code: int, reason: str) -> dict:
    """What the page shows and schedules after its socket closes with ``code`` and ``reason``."""
    node = node_or_skip()
    done = subprocess.run(
        [node, "-e", HARNESS, str(PROJECT_DIR / "static/boards/play.js"), str(code), reason],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.fail(done.stderr)
    return json.loads(done.stdout)


def test_a_refused_socket_shows_the_reason_and_is_not_retried() -> None:
    reason = "too many open sockets for your account (at most 12)"
    page = closed(REFUSED_CODE, reason)
    assert reason in page["connection"] and "reload" in page["connection"]
    assert page["refused"] == reason
    assert page["retries"] == 0


def test_a_dropped_socket_is_still_retried() -> None:
    page = closed(1006, "")
    assert "reconnecting" in page["connection"]
    assert page["refused"] is None and page["retries"] == 1

"""The chat panel's script, run by Node.js with a stand-in page: text stays text.

What people type reaches the page only through ``textContent``: a message
holding markup is shown as those characters, and the script never assigns
``innerHTML`` (the stand-in page fails loudly if it does). A hidden message
leaves the list; a refusal is shown in words.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.foundation.processes import PROJECT_DIR
from tests.sdk_js.node import node_or_skip

HARNESS = r"""
const fs = require("fs"), vm = require("vm");
const [script, frames] = [process.argv[1], JSON.parse(process.argv[2])];
function node(tag) {
  const n = {
    tagName: tag, textContent: "", className: "", hidden: false, attributes: {}, childNodes: [],
    value: "", checked: false, scrollTop: 0, scrollHeight: 0, clientHeight: 0,
    get firstChild() { return this.childNodes[0] || null; },
    setAttribute(k, v) { this.attributes[k] = v; },
    getAttribute(k) { return k === "data-ws" ? "/ws/games/1/?chat=only" : this.attributes[k]; },
    appendChild(c) { this.childNodes.push(c); return c; },
    removeChild(c) { this.childNodes.splice(this.childNodes.indexOf(c), 1); return c; },
    addEventListener() {},
    querySelector(sel) {
      const id = /data-id="(\d+)"/.exec(sel)[1];
      return this.childNodes.find((c) => c.attributes["data-id"] === id) || null;
    },
  };
  Object.defineProperty(n, "innerHTML", { set() { throw new Error("innerHTML assigned"); } });
  return n;
}
const elements = {};
const byId = (id) => elements[id] || (elements[id] = node("div"));
const sockets = [];
class WebSocket {
  constructor(url) { this.url = url; this.readyState = 1; sockets.push(this); }
  send() {}
}
WebSocket.OPEN = 1;
const context = {
  document: { getElementById: byId, createElement: node },
  WebSocket, location: { protocol: "http:", host: "127.0.0.1:8000" },
  setTimeout() {}, JSON,
};
vm.runInNewContext(fs.readFileSync(script, "utf8"), context);
sockets[0].onopen();
for (const f of frames) { sockets[0].onmessage({ data: JSON.stringify(f) }); }
const log = elements["chat-log"];
console.log(JSON.stringify({
  url: sockets[0].url,
  items: log.childNodes.map((li) => li.childNodes.map((c) => [c.className, c.textContent])),
  refused: byId("chat-refused").textContent,
  formHidden: byId("chat-form").hidden,
}));
"""

MARKUP = '<img src=x onerror="alert(1)"><b>bold</b> &amp;'


def run(frames: list[dict]) -> dict:
    node = node_or_skip()
    done = subprocess.run(
        [node, "-e", HARNESS, str(PROJECT_DIR / "static/chat/chat.js"), json.dumps(frames)],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.fail(done.stderr)
    return json.loads(done.stdout)


def message(pk: int, text: str, *, author_id: int = 2, player: bool = True) -> dict:
    return {"id": pk, "author": "anna<i>", "authorId": author_id, "player": player, "text": text}


def test_markup_in_a_message_or_a_name_is_shown_as_text() -> None:
    history = {
        "type": "chat", "history": True, "you": 1, "mayPost": True, "maySet": False,
        "spectatorsApart": False, "muted": [], "maxChars": 500,
        "messages": [message(1, MARKUP)],
    }  # fmt: skip
    shown = run([history, {"type": "chat", "messages": [message(2, "hi", player=False)]}])
    assert shown["url"] == "ws://127.0.0.1:8000/ws/games/1/?chat=only"
    first, second = shown["items"]
    assert ["chat-author", "anna<i>"] in first and ["chat-text", MARKUP] in first
    assert ["chat-mute", "mute"] in first  # someone else's message: it can be muted
    assert ["chat-tag", "(watching)"] in second
    assert shown["formHidden"] is False


def test_a_hidden_message_leaves_the_list_and_a_refusal_is_said_in_words() -> None:
    history = {
        "type": "chat", "history": True, "you": None, "mayPost": False, "maySet": False,
        "spectatorsApart": False, "muted": [], "maxChars": 500,
        "messages": [message(1, "rude"), message(2, "fine")],
    }  # fmt: skip
    shown = run(
        [
            history,
            {"type": "chat_hidden", "id": 1},
            {"type": "error", "code": "chat_rate_limited", "detail": "at most 5"},
        ]
    )
    assert [[t for c, t in item if c == "chat-text"] for item in shown["items"]] == [["fine"]]
    assert all(c != "chat-mute" for item in shown["items"] for c, _ in item)  # signed out
    assert "wait a few seconds" in shown["refused"]
    assert shown["formHidden"] is True

"""Every shell command the docs show runs, against a live server, and succeeds (issue 36).

``test_docs_commands.py`` checks what the docs name; this runs what they tell a
reader to type, so a command that stopped working fails the suite (the token
exchange answered 415 to the READMEs' ``curl -d`` for a while, unnoticed).

**What is a command** (:func:`commands_in`), in the pages of :data:`PAGES`:

* in a fenced block whose info string is ``sh``, ``bash``, ``shell`` or
  ``console`` (the fence may be indented, inside a list item): in ``console``
  blocks the lines starting with ``$ `` (the rest is output); in the others
  every line, except blank lines and lines starting with ``#`` (output shown
  as a comment). A line ending in ``\\`` goes on on the next one;
* outside fenced blocks, a line starting with ``$ ``.

A comment showing JSON right after a command (``# {"token": "9f4c…"}``) is
the answer the page promises: each key it names must be in the real answer.

Other blocks (``python``, ``js``, ``json``...) are code to read or save, not
commands.

**How they run.** Each page is one terminal session, run as one ``bash -e``
script: it starts in the checkout's top folder with a clean environment (no
Harbormaster variable), and ``cd``, ``export`` and variables carry from one
block to the next, as they do for a reader going down the page. A command
that starts a bot (:data:`SERVERS`) runs in the background until the page's
last command has run, and the next command waits until the bot listens.
``curl`` fails on an HTTP error (``fail-with-body`` in its config), so a 4xx
answer is a failure, not a body.

**Placeholders** (:func:`placeholders`): the site's address
(``https://harbormaster.example.org``) is a live uvicorn server on this test's
database, in the embedded mode (no Redis; Celery's worker in the server);
``alice`` is a user of this test, with its password for ``…`` and its token
for ``9f4c…``;
``https://bot.example.com/`` is the page's running example bot; the pull
token ``hmp_…``, game ``101`` and ply ``41`` are a pull bot's, in a game of
this test where it is to move; ``cd harbormaster`` is the checkout; the
example bots' ports (8001, 8002, 8004, 8005) are free ports of this machine, given
with ``--port`` to a bot started without one. Every placeholder must be used
somewhere, so the list cannot go stale. Each page is a test of its own (the
JavaScript kit's is skipped, saying why, without Node.js 20).

**Not run** (:data:`NOT_RUN`, each with its reason): installing packages,
``make demo`` and ``make test``, the JavaScript kit's own tests, and setting
up a project of the reader's own outside the checkout.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from botapi.services import bots as services
from games.referee import statecache
from games.services import create_game
from tests.factories import DEFAULT_PASSWORD, BotFactory, UserFactory
from tests.foundation.processes import PROJECT_DIR, clean_env
from tests.foundation.servers import Server, free_port, start_server
from tests.sdk_js.node import node_or_skip
from tests.tournaments import workers

PAGES = ["README.md", "sdk/python/README.md", "sdk/js/README.md", "docs/bot-protocol.md"]
SHELL_BLOCKS = {"sh", "bash", "shell", "console"}
FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*([\w+-]*)")
ANSWER = re.compile(r"^#\s*[\[{]")
"""A comment showing the JSON a command answers, right after it."""

NOT_RUN: dict[str, str] = {
    r"^make demo\b": "serves until stopped; tests/foundation/test_demo*.py run the demo",
    r"^make test\b": "the whole test suite, this test among them",
    r"\bpip install\b": "installs packages; tests/packaging installs both wheels in a fresh venv",
    r"^npm test\b": "the JavaScript kit's own tests; tests/sdk_js runs them",
    r"-m bench\.strength\b": "a benchmark that plays hundreds of games for minutes (bench/)",
    r"^mkdir my-bot\b|^npm init\b|^npm install\b": (
        "a project of the reader's own outside the checkout, with the kit installed into it"
    ),
}
"""Commands that cannot run in a test (regular expression -> why)."""

SERVERS: dict[str, int] = {
    r"-m harbormaster_bot\.examples\.random_bot\b": 8001,
    r"-m harbormaster_bot\.examples\.greedy\b": 8002,
    r"-m harbormaster_bot\.examples\.monte_carlo_batavia\b": 8004,
    r"-m harbormaster_bot\.examples\.search\b": 8005,
    r"^node bots/random\.js\b": 8001,
}
"""Commands that start a bot (regular expression -> its default port)."""

DOC_PORTS = (8001, 8002, 8004, 8005)
READY_SECONDS = 60
PAGE_SECONDS = 300


@dataclass(frozen=True)
class Command:
    page: str
    line: int
    text: str
    answer_keys: tuple[str, ...] = ()
    """Keys of the JSON answer the page shows after the command (``# {"token": …}``)."""


def commands_in(page: str, text: str) -> list[Command]:
    """The shell commands of one Markdown page (the rule is in the module doc)."""
    found: list[Command] = []
    fence, kind, block_start = "", "", 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not fence:
            opened = FENCE.match(raw)
            if opened:
                fence, kind, block_start = opened.group(1), opened.group(2).lower(), len(found)
            elif line.startswith("$ "):
                found.append(Command(page, number, line[2:].strip()))
            continue
        if line.startswith(fence) and not line.strip(fence[0]):
            fence = ""
            continue
        if kind not in SHELL_BLOCKS:
            continue
        in_block = len(found) > block_start
        if in_block and found[-1].text.endswith("\\"):
            found[-1] = replace(found[-1], text=found[-1].text + "\n" + line)
        elif kind == "console" and line.startswith("$ "):
            found.append(Command(page, number, line[2:].strip()))
        elif kind != "console" and line and not line.startswith("#"):
            found.append(Command(page, number, line))
        elif in_block and ANSWER.match(line):
            keys = found[-1].answer_keys + tuple(re.findall(r'"(\w+)":', line))
            found[-1] = replace(found[-1], answer_keys=keys)
    return found


def not_run(command: str) -> str | None:
    """Why ``command`` is not run, or None."""
    for pattern, reason in NOT_RUN.items():
        if re.search(pattern, command):
            return reason
    return None


def server_port(command: str) -> int | None:
    """The default port of the bot ``command`` starts, or None when it starts none."""
    for pattern, port in SERVERS.items():
        if re.search(pattern, command):
            return port
    return None


def test_the_rule_finds_commands_and_leaves_output_and_code() -> None:
    text = "\n".join(
        [
            "$ make demo",
            "```sh",
            "# a comment",
            "export A=1      # why",
            "curl -s -d x=1 \\",
            "     https://example.org/",
            '# {"token": "…"}',
            "```",
            "  ```console",
            "  $ echo hi",
            "  hi",
            "  ```",
            "```python",
            "print('not a command')",
            "```",
        ]
    )
    assert [(c.line, c.text, c.answer_keys) for c in commands_in("x.md", text)] == [
        (1, "make demo", ()),
        (4, "export A=1      # why", ()),
        (5, "curl -s -d x=1 \\\nhttps://example.org/", ("token",)),
        (10, "echo hi", ()),
    ]
    assert not_run("make demo") and not_run(".venv/bin/pip install ./engines")
    assert not_run("curl -s https://x/") is None
    assert server_port(".venv/bin/python -m harbormaster_bot.examples.greedy --engine manila")


# ----------------------------------------------------------------------- running


@dataclass
class World:
    """What the placeholders stand for: the live server and this test's accounts."""

    url: str
    token: str  # alice's API token
    pull_token: str
    game_id: int
    ply: int


def placeholders(world: World, ports: dict[int, int]) -> list[tuple[str, str]]:
    """(documented text, what the test puts there), applied in order."""
    return [
        ("https://harbormaster.example.org", world.url),
        ("https://bot.example.com/", f"http://127.0.0.1:{ports[8001]}/"),
        ("password=…", f"password={DEFAULT_PASSWORD}"),
        ("Token 9f4c…", f"Token {world.token}"),
        ("hmp_…", world.pull_token),
        ("/games/101/moves", f"/games/{world.game_id}/moves"),
        ('"ply": 41', f'"ply": {world.ply}'),
        ("cd harbormaster", f"cd {shlex.quote(str(PROJECT_DIR))}"),
    ]


def port_pairs(ports: dict[int, int]) -> list[tuple[str, str]]:
    """The documented ports in addresses and ``--port`` options -> this run's free ports."""
    pairs = []
    for doc_port, port in ports.items():
        pairs += [(f"127.0.0.1:{doc_port}", f"127.0.0.1:{port}")]
        pairs += [(f"--port {doc_port}", f"--port {port}")]
    return pairs


def substitute(command: str, pairs: list[tuple[str, str]], used: set[str]) -> str:
    for documented, actual in pairs:
        if documented in command:
            used.add(documented)
            command = command.replace(documented, actual)
    return command


PRELUDE = r"""
set -e
ready() {  # ready PORT PID: wait until the bot started as PID listens on PORT
    for _ in $(seq 1 $((READY_SECONDS * 5))); do
        if ! kill -0 "$2" 2>/dev/null; then echo "the bot exited before listening" >&2; return 1; fi
        if (echo > "/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
        sleep 0.2
    done
    echo "nothing listens on port $1" >&2; return 1
}
"""


def script_of(commands: list[Command], pairs: list[tuple[str, str]], ports: dict[int, int],
              logs: Path, used: set[str]) -> tuple[str, list[str]]:  # fmt: skip
    """The page's bash script, and the commands left out with their reasons."""
    lines, skipped = [PRELUDE.replace("READY_SECONDS", str(READY_SECONDS))], []
    for n, command in enumerate(commands):
        reason = not_run(command.text)
        if reason is not None:
            skipped.append(f"{command.page}:{command.line}: {command.text} ({reason})")
            continue
        text = substitute(command.text, pairs, used)
        lines.append(f"echo {shlex.quote(f'>>> {command.page}:{command.line}: {text}')} >&2")
        default = server_port(text)
        if default is None and command.answer_keys:
            lines.append(f"answer=$({text}\n)")
            lines.append('printf "%s\\n" "$answer"')
            for key in command.answer_keys:
                lines.append(
                    f'case "$answer" in *\'"{key}"\'*) ;; *) echo "no \\"{key}\\" in the answer, '
                    'which the page shows" >&2; exit 1;; esac'
                )
            continue
        if default is None:
            lines.append(text)
            continue
        text = re.sub(r"\s+#.*$", "", text).rstrip().removesuffix("&").rstrip()
        port_given = re.search(r"--port (\d+)", text)
        if port_given is None:
            text += f" --port {ports[default]}"
        port = port_given.group(1) if port_given else str(ports[default])
        lines.append(f"{text} > {shlex.quote(str(logs / f'bot-{n}.log'))} 2>&1 &")
        lines.append(
            f"ready {port} $! || {{ cat {shlex.quote(str(logs / f'bot-{n}.log'))} >&2; exit 1; }}"
        )
    return "\n".join(lines) + "\n", skipped


def page_script(page: str, world: World, logs: Path) -> tuple[str, list[str], set[str]]:
    """The page's script, the commands not run (with why) and the placeholders it used."""
    commands = commands_in(page, (PROJECT_DIR / page).read_text(encoding="utf-8"))
    ports = {doc_port: free_port() for doc_port in DOC_PORTS}
    used: set[str] = set()
    pairs = placeholders(world, ports) + port_pairs(ports)
    script, skipped = script_of(commands, pairs, ports, logs, used)
    return script, skipped, used


def run_script(script: str, logs: Path) -> subprocess.CompletedProcess:
    """Run a page's script; the bots it started are stopped afterwards, whatever happened."""
    (logs / ".curlrc").write_text("fail-with-body\nshow-error\n")
    environ = clean_env(DATABASE_URL=workers.test_database_url(), REDIS_URL="", CURL_HOME=str(logs))
    process = subprocess.Popen(
        ["bash", "-c", script], cwd=PROJECT_DIR, env=environ, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        output, _ = process.communicate(timeout=PAGE_SECONDS)
    except subprocess.TimeoutExpired:
        stop_group(process)
        output = process.communicate()[0] + f"\n(stopped after {PAGE_SECONDS} s)"
    finally:
        stop_group(process)
    return subprocess.CompletedProcess(process.args, process.returncode, output, "")


def stop_group(process: subprocess.Popen) -> None:
    """Stop the page's shell and every bot it started (one process group), and wait for them."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            process.poll()  # reap the shell; its bots are reaped by their new parent
            try:
                os.killpg(process.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.1)
    process.wait()


def test_an_answer_without_a_key_the_page_shows_fails(tmp_path: Path) -> None:
    def run(keys: tuple[str, ...]) -> subprocess.CompletedProcess:
        command = Command("x.md", 1, """echo '{"token": "abc"}'""", keys)
        script, _ = script_of([command], [], {}, tmp_path, set())
        return subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=False)

    assert run(("token",)).returncode == 0
    missing = run(("token", "signing_secret"))
    assert missing.returncode == 1
    assert 'no "signing_secret" in the answer' in missing.stderr


def test_every_placeholder_and_every_exception_is_still_needed(tmp_path: Path) -> None:
    world = World("http://server", "token", "hmp_token", 1, 1)
    used, skipped = set(), []
    for page in PAGES:
        _, page_skipped, page_used = page_script(page, world, tmp_path)
        used |= page_used
        skipped += page_skipped
    documented = {text for text, _ in placeholders(world, dict.fromkeys(DOC_PORTS, 1))}
    assert documented - used == set(), "placeholders no page uses any more"
    reasons = {reason for line in skipped for reason in NOT_RUN.values() if reason in line}
    assert reasons == set(NOT_RUN.values()), "NOT_RUN entries no command needs any more"


@pytest.fixture(scope="module")
def docs_server(django_db_setup, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The live server of the module's pages, on the test database (each page's rows are its
    own: the database is emptied after each, and ids are never reused)."""
    environ = clean_env(
        DJANGO_SETTINGS_MODULE="tests.foundation.server_settings",
        DATABASE_URL=workers.test_database_url(),
        REDIS_URL="",
        LOG_LEVEL="WARNING",
    )
    server = start_server(environ, tmp_path_factory.mktemp("docs-run") / "server.log")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def world(transactional_db, docs_server: Server) -> tuple[World, Server]:
    """The live server, alice with her token, a pull bot to move, made for this page."""
    token = Token.objects.create(user=UserFactory(username="alice")).key
    owner = UserFactory(username="puller")
    bots = [BotFactory(owner=owner, mode="pull", endpoint_url="") for _ in range(3)]
    game = create_game("manila", [bot.competitor for bot in bots], move_time_ms=600_000)
    game.refresh_from_db()  # the referee played the opening chance moves
    mover = bots[statecache.load_state(game).to_move[0]]
    pull_token = services.rotate_pull_token(mover)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bot {pull_token}")
    [turn] = api.get("/api/v1/bots/me/turns", {"wait": 0}).json()
    return World(docs_server.url, token, pull_token, game.pk, turn["ply"]), docs_server


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_referee")
@pytest.mark.parametrize("page", PAGES)
def test_the_commands_of_the_page_run(page: str, world, tmp_path: Path) -> None:
    if page.startswith("sdk/js/"):
        node_or_skip()
    live, server = world
    logs = tmp_path / "page"
    logs.mkdir()
    script, _, _ = page_script(page, live, logs)
    result = run_script(script, logs)
    assert result.returncode == 0, (
        f"{page} (exit {result.returncode}):\n{result.stdout[-5000:]}\n"
        f"===== server\n{server.log()[-3000:]}"
    )

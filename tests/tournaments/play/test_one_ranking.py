"""One ranking everywhere (issue #32, point 3): a resigned seat ranks last on every surface.

A person resigns near the end of a Manila game; the house bot plays their seat
to the end. The socket's frame (the board's final panel reads its
``model.ranking``), the board replay's end position, the game page, the game
API and the record then give every seat the same rank, the resigned seat last
with the same words, "left the game: ranked last". The board's ``standings``
panel itself is run by Node.js on a stand-in document: it orders the seats by
the server's ranking, not by the engine's ranks it is handed.
"""

from __future__ import annotations

import json
import random
import re
import subprocess

import pytest
from asgiref.sync import async_to_sync
from rest_framework.test import APIClient

from engines import CHANCE
from games.models import Game
from games.referee import steps as referee
from games.referee.decisions import Decision
from games.referee.statecache import load_state
from games.selectors.spectator import LEFT_RANKED_LAST
from games.services import create_game
from tests.foundation.processes import PROJECT_DIR
from tests.sdk_js.node import node_or_skip
from tests.tournaments.test_house_bot import near_the_end
from web.sockets import person_moves

from .conftest import Socket, people

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]

PANEL = r"""
const fs = require("fs"), vm = require("vm");
const [script, modelJson, scoresJson, ranksJson] = process.argv.slice(1);
function node(tag) {
  return { tag, attributes: {}, children: [], style: { setProperty() {} },
    setAttribute(k, v) { this.attributes[k] = v; }, appendChild(c) { this.children.push(c); },
    addEventListener() {} };
}
const document = { createElement: node, createElementNS: (_, tag) => node(tag),
  createTextNode: (text) => ({ text, children: [] }) };
const window = {};
vm.runInNewContext(fs.readFileSync(script, "utf8"), { window, document });
const panel = window.HMBoards.standings(JSON.parse(modelJson), JSON.parse(scoresJson),
  JSON.parse(ranksJson), "pesos");
const text = (n) => (n.text || "") + n.children.map(text).join("");
const list = panel.children.find((c) => c.tag === "ol");
console.log(JSON.stringify(list.children.map((li) => ({
  seat: Number(li.attributes["data-seat"]), rank: Number(li.attributes["data-rank"]),
  text: text(li) }))));
"""


def run_panel(model: dict, scores: list, engine_ranks: list) -> list[dict]:
    done = subprocess.run(
        [node_or_skip(), "-e", PANEL, str(PROJECT_DIR / "static" / "boards" / "board.js"),
         json.dumps(model), json.dumps(scores), json.dumps(engine_ranks)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def play_to_the_end(game: Game, rng: random.Random) -> None:
    for _ in range(5_000):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return
        state = load_state(game)
        seat = state.to_move[0]
        assert seat != CHANCE
        referee.submit(
            game.pk, game.next_ply, seat, Decision(rng.choice(state.legal_actions(seat)))
        )
    raise AssertionError("the game did not end")


def test_a_resigned_seat_ranks_last_with_the_same_words_everywhere() -> None:
    players = people(3)
    game = create_game("manila", players, seed="one-ranking", move_time_ms=1000)
    rng = random.Random(7)
    leaver = near_the_end(game, rng)
    viewer = person_moves.viewer_for(game.pk, players[leaver].user)
    assert person_moves.resign(game.pk, viewer) == [leaver]
    play_to_the_end(game, rng)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    api = APIClient().get(f"/api/v1/games/{game.pk}/").json()
    ranks = [seat["rank"] for seat in sorted(api["seats"], key=lambda s: s["position"])]
    assert ranks[leaver] == 3 and sorted(ranks)[:2] != [3, 3]
    assert [s["rank_note"] for s in api["seats"]] == [
        LEFT_RANKED_LAST if s["position"] == leaver else None for s in api["seats"]
    ]
    assert api["outcome"]["ranks"] == ranks

    record = APIClient().get(f"/api/v1/games/{game.pk}/record/").json()
    assert record["outcome"]["ranks"] == ranks
    assert [s["rank_note"] for s in record["seats"]] == [s["rank_note"] for s in api["seats"]]

    page = APIClient().get(f"/games/{game.pk}/").content.decode()
    shown = re.findall(
        r'<td class="num rank">(\d+)(?: <span class="muted rank-note">\(([^)]*)\))?', page
    )
    assert [int(rank) for rank, _ in shown] == ranks  # the results table lists seats in order
    assert [note or None for _, note in shown] == [s["rank_note"] for s in api["seats"]]

    async def frame() -> dict:
        socket = Socket(game.pk)
        opened = await socket.open()
        await socket.close()
        return opened

    model = async_to_sync(frame)()["model"]
    assert model["ranking"]["ranks"] == ranks
    assert model["ranking"]["notes"] == {str(leaver): LEFT_RANKED_LAST}
    end = APIClient().get(f"/games/{game.pk}/boards.json?start={game.next_ply}").json()
    assert end["positions"][-1]["model"]["ranking"] == model["ranking"]

    # The final panel: the engine ranks by score (here the leaver's as if it had not left,
    # and reversed, to be sure none of them is used); the panel follows the ranking.
    scores = model["ranking"]["scores"]
    engine_ranks = [len(scores) - r + 1 for r in ranks]
    panel = run_panel(model, scores, engine_ranks)
    expected = sorted(range(3), key=lambda s: (ranks[s], s))
    assert [row["seat"] for row in panel] == expected
    assert [row["rank"] for row in panel] == [ranks[s] for s in expected]
    leaver_row = next(row for row in panel if row["seat"] == leaver)
    assert "#3" in leaver_row["text"] and LEFT_RANKED_LAST in leaver_row["text"]
    assert all(LEFT_RANKED_LAST not in row["text"] for row in panel if row["seat"] != leaver)

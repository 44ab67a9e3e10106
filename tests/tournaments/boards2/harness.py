"""A seeded game's board model, and a stand-alone page that draws it.

The board tests need a position to draw without the site's preview page: this
module plays a seeded random game to a ply (the seed's ``Dealer`` for chance,
a seeded ``random.Random`` for the seats), builds the renderer's model from
``state.view(seat)`` exactly as the contract in ``static/boards/board.js``
describes, and writes a page that loads ``board.js`` and one renderer from the
repository's ``static/`` and records which action index a click reports.
"""

from __future__ import annotations

import html
import json
import random
from pathlib import Path
from typing import Any

from engines import CHANCE
from engines.registry import get
from engines.rng import Dealer

STATIC = Path(__file__).resolve().parents[3] / "static"


def seeded_state(engine: str, players: int, seed: str, plies: int):
    """The state after ``plies`` steps of a seeded random game (fewer if it ends first)."""
    state = get(engine).new_game(players)
    dealer = Dealer(seed)
    chooser = random.Random(seed)
    for _ in range(plies):
        if state.is_over:
            break
        movers = state.to_move
        if movers == [CHANCE]:
            state.apply(CHANCE, dealer.choose(state))
        else:
            seat = movers[0]
            state.apply(seat, chooser.choice(state.legal_actions(seat)))
    return state


def settle(engine: str, players: int, seed: str, plies: int):
    """Like :func:`seeded_state`, then play chance on until a seat (or nobody) is to move."""
    state = seeded_state(engine, players, seed, plies)
    dealer = Dealer(seed)
    while state.to_move == [CHANCE]:
        state.apply(CHANCE, dealer.choose(state))
    return state


def model(engine: str, state, seat: int | None) -> dict[str, Any]:
    """The renderer's model for ``seat`` (None = spectator): the view and its legal actions."""
    rules = get(engine)
    movers = state.to_move
    legal = []
    if seat is not None and seat in movers:
        legal = [
            {"index": i, "action": action, "text": rules.describe(action)}
            for i, action in enumerate(state.legal_actions(seat))
        ]
    return {
        "engine": engine,
        "numPlayers": state.num_players,
        "seat": seat,
        "names": {str(s): f"Player {s + 1}" for s in range(state.num_players)},
        "view": state.view(seat),
        "legal": legal,
        "events": [rules.describe_event(e) for e in state.events[-8:]],
        "toMove": movers,
    }


def page(board_model: dict[str, Any], static_url: str) -> str:
    """A page drawing ``board_model``; a click sets ``window.hmClicked`` to the action index."""
    engine = board_model["engine"]
    data = html.escape(json.dumps(board_model), quote=False)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{engine} board</title>
<script>
window.hmErrors = [];
window.addEventListener("error", function (e) {{ window.hmErrors.push(String(e.message)); }});
</script>
<link rel="stylesheet" href="{static_url}/css/site.css">
<link rel="stylesheet" href="{static_url}/boards/board.css">
<link rel="stylesheet" href="{static_url}/boards/{engine}.css">
<script src="{static_url}/boards/board.js"></script>
<script src="{static_url}/boards/{engine}.js"></script>
</head><body><main><div id="board"></div></main>
<script type="application/json" id="model">{data}</script>
<script>
var model = JSON.parse(document.getElementById("model").textContent);
window.hmClicked = null;
model.onAction = model.seat === null ? null : function (index) {{ window.hmClicked = index; }};
HMBoards.render(document.getElementById("board"), model);
window.hmRendered = true;
</script></body></html>
"""

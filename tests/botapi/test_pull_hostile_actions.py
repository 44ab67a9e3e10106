"""A pulled move whose action the engine cannot even explain is a 400, not a 500.

``explain_illegal`` of Manila and Cargo Noir raises ``TypeError`` on a list
where a name is expected (``{"type": "start_boat", "good": []}`` once boats
may start): the pull API and the bot client passed that out, a 500 for the
pull bot. The engine's reason is a courtesy; without it the move is still
an ``illegal_action``.
"""

from __future__ import annotations

import pytest

from botapi import protocol
from engines.base import State
from games.models import Game

from .test_pull_api import table, to_move  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def choking(self, seat, action, legal):
    raise TypeError("unhashable type: 'list'")


def test_an_action_the_engine_chokes_on_is_an_illegal_action_400(table, monkeypatch) -> None:  # noqa: F811
    game, bots = table
    mover, _ = to_move(game, bots)
    turn = mover.turns().json()[0]
    monkeypatch.setattr(State, "explain_illegal", choking)
    action = {"type": "start_boat", "good": [], "space": 0}
    response = mover.move(game.pk, {"ply": turn["ply"], "action": action})
    assert response.status_code == 400, response.content[:300]
    assert response.json()["code"] == "illegal_action"
    assert "not among the" in response.json()["detail"]
    assert Game.objects.get(pk=game.pk).next_ply == turn["ply"], "nothing was played"


def test_the_protocol_check_falls_back_to_its_own_words() -> None:
    request = protocol.act_request(
        game={"id": 1, "engine": "manila", "engine_version": "1", "num_players": 3,
              "options": {}, "seat": 0},
        ply=0, deadline_ms=1000, view={}, legal_actions=[{"type": "pass"}], events=[],
    )  # fmt: skip
    reply = {"request_id": request["request_id"], "action": {"type": "x", "good": []}}
    with pytest.raises(protocol.ProtocolFault) as fault:
        protocol.parse_act_reply(reply, request, lambda action: choking(None, 0, action, []))
    assert fault.value.kind == "illegal_action"

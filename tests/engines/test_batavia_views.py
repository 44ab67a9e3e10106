"""Batavia views: what each seat sees, what stays hidden, descriptions and refusals."""

from __future__ import annotations

import json

import pytest

from engines import CHANCE, IllegalAction
from engines.batavia.rules import COMPANIES
from tests.engines.helpers import random_steps
from tests.engines.test_batavia_helpers import ENGINE, all_pass, auction, cards, new_game, play


def _sample_states(n: int, seed: int, every: int = 40):
    states = []
    for step, (state, seat, _) in enumerate(random_steps(ENGINE, n, seed)):
        if step % every == 0 and seat != CHANCE:
            states.append(state.clone())
    return states


def _single_perturbations(state, keep: int):
    """Copies of ``state`` each changing ONE secret that ``keep`` must not see."""
    data = state.to_json()
    for seat in range(state.num_players):
        if seat == keep:
            continue
        for company in COMPANIES:
            changed = json.loads(json.dumps(data))
            changed["private"][seat]["hand"][company] += 3
            yield f"seat {seat} {company} cards", ENGINE.from_json(changed)
        changed = json.loads(json.dumps(data))
        changed["private"][seat]["letters"] += 7
        yield f"seat {seat} letters", ENGINE.from_json(changed)
    for pile in ("deck", "discard"):
        for company in COMPANIES:
            changed = json.loads(json.dumps(data))
            changed["hidden"][pile][company] += 2
            yield f"{pile} {company}", ENGINE.from_json(changed)


def _converting_state():
    state = new_game(4, [cards(denmark=10)] + [cards(**dict.fromkeys(COMPANIES, 2))] * 3)
    all_pass(state)
    state.posts[0] = [1, 0, 1, 0, 0]
    play(state, 0, ["denmark"])
    assert state.phase == "convert"
    return state


def test_no_hidden_item_of_another_seat_changes_what_a_seat_sees() -> None:
    checked = set()
    for n, seed in ((3, 1), (4, 2), (5, 3), (4, None)):
        samples = [_converting_state()] if seed is None else _sample_states(n, seed)
        for state in samples:
            checked.add(state.phase)
            for keep in [None, *range(n)]:
                view = state.view(keep)
                legal = state.legal_actions(keep) if keep is not None else None
                for what, other in _single_perturbations(state, -1 if keep is None else keep):
                    assert other.view(keep) == view, f"seat {keep} sees {what}"
                    if keep is not None:
                        assert other.legal_actions(keep) == legal, f"{what} changes legality"
                    assert other.to_move == state.to_move
    assert {"bid", "act", "play", "convert"} <= checked


def test_a_seat_sees_its_own_hand_and_letters_and_only_sizes_of_the_rest() -> None:
    state = new_game(4, [cards(england=10), cards(sweden=10), *[cards(france=10)] * 2])
    view = state.view(1)
    assert view["you"] == 1
    assert view["private"] == {
        "hand": {"england": 0, "netherlands": 0, "france": 0, "denmark": 0, "sweden": 10},
        "letters": 15,
    }
    assert [p["hand_size"] for p in view["players"]] == [10, 10, 10, 10]
    text = json.dumps(state.view(None))
    assert "letters" not in text and "private" not in text and '"hand"' not in text
    assert view["deck_size"] == 70 and view["discard_size"] == 0
    assert all(
        space == {"space": i, "face_down": True} for i, space in enumerate(view["track"]) if i >= 10
    )
    assert view["track"][3] == {"space": 3, "company": "denmark", "good": "tea"}


def test_public_information_is_in_the_view() -> None:
    state = new_game(4, [cards(netherlands=4, france=2, sweden=4)] * 4)
    auction(state, 2, ["england", "denmark"], [{"type": "bid", "amount": 4}])
    view = state.view(None)
    assert view["auction"] == {"bid": 4, "high_bidder": 1, "still_in": [0, 1, 2, 3]}
    assert view["to_move"] == [2]
    for action in ({"type": "pass"},) * 3:
        state.apply(state.turn, action)
    play(state, 1, ["netherlands"] * 4 + ["france"] * 2, done=False)
    view = state.view(0)
    assert view["turn"] == {
        "seat": 1,
        "acted_this_round": 0,
        "played": {"england": 0, "netherlands": 4, "france": 2, "denmark": 0, "sweden": 0},
    }
    state.apply(1, {"type": "done"})
    view = state.view(0)
    assert view["turn"]["destinations"] == ["netherlands", "france"]
    assert view["players"][1]["seals"] == ["netherlands", "france"]
    assert view["seals"]["netherlands"] == 1 and view["seals"]["england"] is None
    state.apply(1, {"type": "move", "company": "france"})
    view = state.view(0)
    assert view["track"][2] == {"space": 2, "company": "france", "good": "tea", "taken_by": 1}
    assert view["players"][1]["merchant"] == 2
    assert view["players"][1]["posts"]["france"] == 1


def test_bid_lists_stay_within_the_action_cap() -> None:
    state = new_game(5)
    state.private[1]["letters"] = 75
    auction(state, 1, ["england"], [])
    assert len(state.legal_actions(1)) == 77 <= ENGINE.max_legal_actions


@pytest.mark.parametrize(
    ("action", "text"),
    [
        ({"type": "card", "company": "denmark"}, "Draw a Danish ship card"),
        ({"type": "die", "value": 4}, "The die shows 4"),
        (
            {"type": "post", "company": "france", "good": "silk"},
            "Reveal a French trading post of silk",
        ),
        ({"type": "bid", "amount": 7}, "Bid 7 letters"),
        ({"type": "bid", "amount": 1}, "Bid 1 letter"),
        ({"type": "play", "company": "england"}, "Play an English ship card"),
        ({"type": "pass"}, "Pass"),
        ({"type": "draw"}, "Draw 2 ship cards"),
        ({"type": "play", "company": "sweden"}, "Play a Swedish ship card"),
        ({"type": "done"}, "Stop playing cards and move the merchant"),
        ({"type": "move", "company": "england"}, "Move to the next English trading post"),
        ({"type": "convert", "company": "netherlands"}, "Choose a Dutch post to convert into gold"),
        ({"type": "convert_done"}, "Finish converting"),
    ],
)
def test_describe(action: dict, text: str) -> None:
    assert ENGINE.describe(action) == text


def test_refusals_name_the_rule() -> None:
    state = new_game(4)
    all_pass(state)
    with pytest.raises(IllegalAction, match="unexpected key"):
        state.apply(0, {"type": "draw", "cards": 3})
    with pytest.raises(IllegalAction, match="unknown company 'spain'"):
        state.apply(0, {"type": "play", "company": "spain"})
    with pytest.raises(IllegalAction, match="not to move"):
        state.apply(1, {"type": "draw"})
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply(0, {"type": "done"})
    assert state.to_json() == before

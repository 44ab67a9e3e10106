"""Seeded games played the bench's way give the same steps, views and JSON as before.

``test_determinism`` freezes whole games with ``Dealer`` chance and looks at
views only at the end. The speed work of issue #17's moonshot rewrote the
hot path (legal actions, chance outcomes, ``apply``, ``clone``), so this
module also freezes what that path touches, with chance drawn the way
``bench.engines --chance rng`` draws it (one ``random.Random`` number per
event): at *every* step the seat to move, the listed actions or outcomes
(probabilities included), the chosen action, the mover's and a spectator's
view; every few steps every seat's view, and the game goes on from a
``clone`` (the clone must equal the original's JSON and the original must
not notice); at
the end the state's JSON and outcome. The digests were recorded on the
engines before that work (run this module as a script to print the table).
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

import engines
from bench.engines import rng_choice
from engines import CHANCE

SEED = 7
CLONE_EVERY = 17

FROZEN: dict[tuple[str, int], str] = {
    ("batavia", 3): "71b64a409a80eab5e33a5dd423225bd8f205bce7845ad984e2116bbab9c8dffd",
    ("batavia", 4): "c84bf1eafd7b7b75c8929f1418d7ae12aa98d0fbd74b4832e7ce4a0b22f97733",
    ("batavia", 5): "8b266198fde3715ccb23708121e73f04ce264ef7f7daec437ff860a2e3aea6a0",
    ("cargo_noir", 2): "d8586ba30549b94281a796926bdecaba61f421c55a0e2120ef91ed70e50dc3e2",
    ("cargo_noir", 3): "a7846b46f7b42d17bb8b428dc760168e85e70169d176dec2a495ba00e6cd31aa",
    ("cargo_noir", 4): "8ef03f72c947bfc58fd61fe1775420fd618be7e865caea892ade0908ee16355e",
    ("cargo_noir", 5): "767206df50ba936960d4029e9a5563cda43fcdc9c667619973add75efdd94f95",
    ("grog_island", 2): "c2e86119d2088e792d0bf9e0096a156172f9d6a72095395f23b449fa48ef4169",
    ("grog_island", 3): "ca00f81b142e4a6fee1bfb5f4f00f7b9bd6fe5eecf6670e92f106411f2f0e190",
    ("grog_island", 4): "b67e84e2efa51f5e55d30996915f1b8d310b48d79bf0338d20669bb6796b3e2c",
    ("manila", 3): "9d9f2861398f7c806ea865e2eb2f7cd8717a79184259d11a8a9f9b8629b5bf3e",
    ("manila", 4): "da7cc091587df06128376624c4c5ee7188171bd6968efb7beda618b8858d5edb",
    ("manila", 5): "2881e285c6637e167ee0f493abd6b83f2750bb47af98653c2407be38d639917c",
}


def _digest(slug: str, n: int) -> str:
    engine = engines.get(slug)
    state = engine.new_game(n)
    rng = random.Random(SEED)
    h = hashlib.sha256()
    steps = 0
    while not state.is_over:
        seat = state.to_move[0]
        if seat == CHANCE:
            listed: list = state.chance_outcomes()
            action = rng_choice(state, rng)  # the bench's own draw
        else:
            listed = state.legal_actions(seat)
            action = rng.choice(listed)
        steps += 1
        every = steps % CLONE_EVERY == 0
        viewers = [None, *range(n)] if every else [None, seat] if seat != CHANCE else [None]
        views = [state.view(s) for s in viewers]
        h.update(json.dumps([state.to_move, seat, listed, action, views]).encode())
        if every:
            before = state.to_json()
            other = state.clone()
            assert other.to_json() == before
            other.apply(seat, action)
            assert state.to_json() == before  # the original did not see the clone's move
            state = other
        else:
            state.apply(seat, action)
    h.update(json.dumps([steps, state.to_json(), state.outcome()]).encode())
    return h.hexdigest()


def _cases() -> list[tuple[str, int]]:
    return [
        (engine.slug, n)
        for engine in engines.all_engines()
        for n in range(engine.min_players, engine.max_players + 1)
    ]


@pytest.mark.parametrize(("slug", "n"), _cases(), ids=[f"{s}-{n}p" for s, n in _cases()])
def test_bench_path_games_are_unchanged(slug: str, n: int) -> None:
    assert _digest(slug, n) == FROZEN[(slug, n)]


if __name__ == "__main__":
    for case in _cases():
        print(f"    {case!r}: {_digest(*case)!r},")

"""Whole seeded games give byte-identical states, views and outcomes across releases.

The digests below were recorded from the engines *before* the legal-action
cache and the membership test went in (issue #17): any optimisation of the hot
path must leave every seeded game exactly as it was -- the same legal actions
in the same order, the same chance outcomes, the same JSON, key for key.
Random play is the generic one (``Dealer(seed)`` for chance, a
``random.Random(seed)`` choosing among the listed actions), so a change of the
order of a legal-action list changes the game and the digest. If a rules
change is intended, bump the engine's version and re-record (run this module
as a script to print the new table).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

import engines
from tests.engines.helpers import random_steps

SEEDS = (0, 1, 2)

# (slug, players, options) -> sha256 of the game's digest text (see _digest).
FROZEN: dict[tuple[str, int, str], str] = {
    ("batavia", 3, "{}"): "bffc7d7ba1d1608bf0114fe049b6cae7c8fdbf80cfd2252a3e72478a5a0225e2",
    ("batavia", 4, "{}"): "46f636896dbc8c4e92b427b82b5903aa5d0ab9e662e50c0e6dba69b70df64223",
    ("batavia", 5, "{}"): "7a2507c53123f8ccd13ff84e99e6fca856a6cd3aa4cb9aab8a10032bbe359b10",
    (
        "batavia",
        3,
        '{"open_track": true}',
    ): "14285291e8d1fccc70fe653124397585d03193d2be394bc58517fa54b2a22e81",
    ("cargo_noir", 2, "{}"): "74d4692fc5ae730f0bb4dd238deca58a5cabdcce75cb70515a4cd906e7a5eeb1",
    ("cargo_noir", 3, "{}"): "43816e534c84c27cc0e1c3b96db3872d86a25bd97294b5da038d46bcce83ba7f",
    ("cargo_noir", 4, "{}"): "783977cbfed35b8cf7367bce84feb6cf682ef2f298130c31308b89b410b72345",
    ("cargo_noir", 5, "{}"): "0a01caa00a0a9413f485d373e238d82b866519075413bade1e89a69d9420c178",
    ("grog_island", 2, "{}"): "37ef3b77cefd263874932f55fc3d116f27d5e2b74ef58e08c096c2d547c58468",
    ("grog_island", 3, "{}"): "2ba2a05aa18bd4112187b202d414098711e30a3d50c64e0fe3623f8def14d6b5",
    ("grog_island", 4, "{}"): "15858eccab34a98a299de7c12679ed0ce38c1eaf00221a167bddf6d8cb376db0",
    ("manila", 3, "{}"): "e10ac2631cf0094b563977b2326a3996bd31bc59a2a2f90aab620800f0e226e2",
    ("manila", 4, "{}"): "851f0c51df09c9b6d10aa2fdf644250518d9ad7ade010e307ac9c4bb4999acef",
    ("manila", 5, "{}"): "cd4a19e57789f472df25f5df875cccca44562b7ba7d81b6a185afa90b42510e0",
    (
        "manila",
        3,
        '{"pirates_replace": true}',
    ): "6abaeaa5b379db123476eb8079dc7206cc5524c0432c63eeb23dc618b2436f95",
}


def _cases() -> list[tuple[str, int, dict[str, Any]]]:
    cases: list[tuple[str, int, dict[str, Any]]] = []
    for engine in engines.all_engines():
        for n in range(engine.min_players, engine.max_players + 1):
            cases.append((engine.slug, n, {}))
        for name, default in engine.options.items():
            if isinstance(default, bool):
                cases.append((engine.slug, engine.min_players, {name: not default}))
    return cases


def _digest(slug: str, n: int, options: dict[str, Any]) -> str:
    """sha256 per seed of every step (action and list), the final JSON, views, outcome."""
    engine = engines.get(slug)
    h = hashlib.sha256()
    for seed in SEEDS:
        state = None
        for state, seat, action in random_steps(engine, n, seed, options):
            listed = (
                state.chance_outcomes() if seat == engines.CHANCE else state.legal_actions(seat)
            )
            h.update(json.dumps([seat, action, listed]).encode())
        assert state is not None
        final = state  # random_steps mutates one state; after the loop it is over
        h.update(json.dumps(final.to_json()).encode())
        for seat in [None, *range(n)]:
            h.update(json.dumps(final.view(seat)).encode())
        h.update(json.dumps(final.outcome()).encode())
    return h.hexdigest()


def _key(slug: str, n: int, options: dict[str, Any]) -> tuple[str, int, str]:
    return (slug, n, json.dumps(options, sort_keys=True))


@pytest.mark.parametrize(
    ("slug", "n", "options"),
    [pytest.param(*case, id=f"{case[0]}-{case[1]}p-{json.dumps(case[2])}") for case in _cases()],
)
def test_seeded_games_are_unchanged(slug: str, n: int, options: dict[str, Any]) -> None:
    assert _digest(slug, n, options) == FROZEN[_key(slug, n, options)]


if __name__ == "__main__":
    for case in _cases():
        print(f"    {_key(*case)!r}: {_digest(*case)!r},")

"""Each engine's default action: what a seat that did not answer plays (issue #32, point 2).

The default must always be legal, the same for the same position, and never
spend what passing could keep: a person who stepped away from Manila's
auction used to bid the lowest raise, three times. The per-engine table below
names, for the decisions where the rules leave a way out, the action the
default must be; each row must be met in real (random) games, so a row that
no game reaches fails too.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines import CHANCE, Dealer, IllegalAction
from tests.engines.helpers import random_steps

SLUGS = ["manila", "batavia", "cargo_noir", "grog_island"]

CASES: list[tuple[str, str, frozenset[str], dict[str, Any]]] = [
    # (engine, what, the legal action types of the decision, the default's fields)
    ("manila", "auction: pass, not the lowest raise", frozenset({"bid", "pass"}), {"type": "pass"}),
    ("manila", "auction with pages of bids: pass", frozenset({"bid", "more_bids", "pass"}),
     {"type": "pass"}),
    ("manila", "placement: pass", frozenset({"place", "pass"}), {"type": "pass"}),
    ("manila", "share purchase: none", frozenset({"buy", "skip_buy"}), {"type": "skip_buy"}),
    ("manila", "pilot: stop", frozenset({"pilot", "pilot_stop"}), {"type": "pilot_stop"}),
    ("manila", "pirate: stay ashore", frozenset({"board", "stay"}), {"type": "stay"}),
    ("manila", "redeem: nothing", frozenset({"redeem"}), {"type": "redeem", "count": 0}),
    ("batavia", "auction: pass", frozenset({"bid", "pass"}), {"type": "pass"}),
    ("batavia", "turn: draw rather than play", frozenset({"draw", "play"}), {"type": "draw"}),
    ("batavia", "play: stop once allowed", frozenset({"done", "play"}), {"type": "done"}),
    ("batavia", "convert: keep the posts", frozenset({"convert", "convert_done"}),
     {"type": "convert_done"}),
    ("cargo_noir", "send: the casino", frozenset({"send"}), {"type": "send", "to": "casino"}),
    ("cargo_noir", "outbid: withdraw", frozenset({"raise", "withdraw"}), {"type": "withdraw"}),
    ("cargo_noir", "black market: draw", frozenset({"market_draw", "market_swap"}),
     {"type": "market_draw"}),
    ("cargo_noir", "smuggling: end, buying nothing",
     frozenset({"buy", "end_smuggling", "start_combination"}), {"type": "end_smuggling"}),
    ("cargo_noir", "a combination: close it", frozenset({"add", "smuggle"}), {"type": "smuggle"}),
    ("grog_island", "bid: pass", frozenset({"pass", "place"}), {"type": "pass"}),
    ("grog_island", "bid with a parrot: pass", frozenset({"parrot", "pass", "place"}),
     {"type": "pass"}),
    ("grog_island", "payment: decline", frozenset({"decline", "pay", "pay_treasure"}),
     {"type": "decline"}),
    ("grog_island", "claims: none", frozenset({"claim", "decline_claims"}),
     {"type": "decline_claims"}),
    ("grog_island", "trade: end it", frozenset({"end_trade", "exchange"}), {"type": "end_trade"}),
]  # fmt: skip

CHEAPEST: list[tuple[str, str, str]] = [
    # (engine, action type that costs, its cost field): when only such actions are left
    ("cargo_noir", "bid", "coins"),
    ("grog_island", "pay_treasure", "value"),
]


def _positions(slug: str, seeds: range) -> Any:
    """Every decision of a seat in random games of ``slug``, with each player count."""
    engine = engines.get(slug)
    for seed in seeds:
        n = engine.min_players + seed % (engine.max_players - engine.min_players + 1)
        for state, seat, _ in random_steps(engine, n, seed):
            if seat != CHANCE:
                yield state, seat


@pytest.mark.parametrize("slug", SLUGS)
def test_each_engine_defaults_to_passing_where_the_rules_let_it(slug: str) -> None:
    cases = [c for c in CASES if c[0] == slug]
    met: set[str] = set()
    for state, seat in _positions(slug, range(12)):
        kinds = frozenset(a["type"] for a in state.legal_actions(seat))
        for _, what, menu, wanted in cases:
            if kinds == menu:
                default = state.default_action(seat)
                assert all(default.get(k) == v for k, v in wanted.items()), (
                    f"{slug} {what}: defaulted to {default}"
                )
                met.add(what)
    assert met == {c[1] for c in cases}, f"never reached: {sorted({c[1] for c in cases} - met)}"


@pytest.mark.parametrize(("slug", "kind", "field"), CHEAPEST)
def test_a_forced_payment_or_bid_is_the_cheapest(slug: str, kind: str, field: str) -> None:
    seen = 0
    for state, seat in _positions(slug, range(12)):
        legal = state.legal_actions(seat)
        if {a["type"] for a in legal} == {kind} and len(legal) > 1:
            default = state.default_action(seat)
            assert default[field] == min(a[field] for a in legal), (legal, default)
            seen += 1
    assert seen, f"no {slug} position offered only {kind!r} actions"


def test_manila_auction_default_is_pass_even_with_cash_for_every_bid() -> None:
    """The issue's case: the lowest raise is listed first, and the default is not it."""
    for state, seat in _positions("manila", range(3)):
        legal = state.legal_actions(seat)
        if legal[0]["type"] == "bid":
            assert state.default_action(seat) == {"type": "pass"}
            return
    raise AssertionError("no Manila auction reached")


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), stop=st.floats(0, 1))
def test_the_default_is_always_legal_and_the_same_for_the_same_position(
    slug: str, seed: int, stop: float
) -> None:
    engine = engines.get(slug)
    n = engine.min_players + seed % (engine.max_players - engine.min_players + 1)
    log = [(seat, dict(action)) for _, seat, action in random_steps(engine, n, seed)]
    state = engine.new_game(n)  # ``random_steps`` mutates its own state: replay a prefix
    for seat, action in log[: int(stop * len(log))]:
        state.apply(seat, action)
    for mover in state.to_move:
        if mover == CHANCE:
            with pytest.raises(IllegalAction):
                state.default_action(mover)
            continue
        before = state.to_json()
        default = state.default_action(mover)
        assert default in state.legal_actions(mover)
        assert state.clone().default_action(mover) == default
        assert engine.from_json(before).default_action(mover) == default
        assert state.to_json() == before  # choosing changes nothing
        state.apply(mover, default)


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_game_every_seat_leaves_to_its_defaults_still_ends(slug: str, seed: int) -> None:
    """A table of absent players (all bots down) must not play forever."""
    engine = engines.get(slug)
    for n in range(engine.min_players, engine.max_players + 1):
        state, dealer = engine.new_game(n), Dealer(seed)
        for _ in range(5_000):
            if state.is_over:
                break
            seat = state.to_move[0]
            action = dealer.choose(state) if seat == CHANCE else state.default_action(seat)
            state.apply(seat, action)
        assert state.is_over, f"{slug} with {n} absent players did not end in 5,000 plies"

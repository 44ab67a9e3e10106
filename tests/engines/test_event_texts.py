"""Game pages show every action and public event as an English sentence.

An independent tester read internal names on game pages ("objective_swap",
"three_coins", "a objective card"). For Batavia, Cargo Noir and Grog Island
these tests play random games with fixed seeds, collect every event and every
action (chance's included), and check each rendered text: a sentence with a
capital letter, no snake_case identifier, no raw braces or brackets, no
Python literal, no "a" before a vowel, no "1" before a plural. Event types
that random play rarely reaches are checked on hand-built events, and every
event type an engine emits must have its own sentence.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pytest

import engines
from engines import CHANCE
from engines.batavia import text as batavia_text
from engines.cargo_noir import text as cargo_noir_text
from engines.grog_island import text as grog_island_text
from tests.engines import sentences

from .helpers import random_steps

TEXT_MODULES = {
    "batavia": batavia_text,
    "cargo_noir": cargo_noir_text,
    "grog_island": grog_island_text,
}

RARE_EVENTS: dict[str, list[dict[str, Any]]] = {
    "batavia": [
        {"type": "reshuffled", "cards": 1},
        {"type": "auction_unsold", "lot_size": 1},
        {"type": "game_over", "reason": "stalemate", "scores": [1, 0, 4]},
        {"type": "hand_played", "seat": 2, "cards": {}},
        {"type": "moved", "seat": 0, "space": 34, "company": "england", "good": "ginger",
         "crate": False},
        {"type": "pirates", "companies": ["denmark", "sweden"], "cards": 14},
        {"type": "seal", "company": "france", "seat": None},
        {"type": "converted", "seat": 1, "companies": ["england"], "gold": 1},
    ],
    "cargo_noir": [
        {"type": "bag_empty", "undrawn": 1},
        {"type": "bag_refilled", "tokens": 1},
        {"type": "market_skip", "seat": 1},
        {"type": "withdraw", "seat": 0, "port": "Cape Town", "coins_back": 1,
         "syndicate_bonus": 2},
        {"type": "bought_card", "seat": 2, "card": "Principality", "coins_used": 1},
        {"type": "drawn", "good": "uranium", "seat": 1},
        {"type": "drawn", "good": "ivory", "to": "black_market"},
        {"type": "smuggled", "seat": 0, "kind": "same", "goods": ["wild"], "value": 1},
        {"type": "credit_lost", "seat": 0, "value": 1},
    ],
    "grog_island": [
        {"type": "cloud", "peninsula": "orange", "cloud": "objective_swap"},
        {"type": "ghost_crew", "seat": 0, "building": "green/lucky_charm"},
        {"type": "declined_payment", "seat": 1, "bid": 11},
        {"type": "trade_skipped", "seat": 1},
        {"type": "parrot_played", "seat": 0, "card": "hold"},
        {"type": "parrot_played", "seat": 0, "card": "set_orange", "value": 1},
        {"type": "paid", "seat": 0, "bid": 8, "coins": 0, "change": 1},
        {"type": "exchanged", "seat": 1, "goods": ["orange"], "gives": "card:objective"},
        {"type": "kept_objective", "seat": 1, "returned": 0},
        {"type": "claimed", "seat": 0, "building": "grey/hat", "cloud": "black", "coins": 0},
        {"type": "claimed", "seat": 0, "building": "orange/anchor", "cloud": "objective_swap",
         "coins": 1},
        {"type": "passed", "seat": 0, "goods": []},
    ],
}  # fmt: skip

PLAYERS = {"batavia": (3, 4, 5), "cargo_noir": (2, 3, 4, 5), "grog_island": (2, 3, 4)}
SEEDS = (1, 2, 3)

ONE_PLURAL = re.compile(
    r"(?<![Ss]eat )(?<![Ss]pace )(?<![Rr]ound )\b1 (?:[A-Za-z-]+ ){0,2}"
    r"(?:coins|letters|cards|tokens|goods|points|crates|buildings|lemons|coconuts|barrels|maps)\b"
)
"""A count of one before a plural noun ("1 coins"), but not "seat 1 draws 2 cards"."""


def sentence_problems(text: str) -> list[str]:
    return sentences.sentence_problems(text, ONE_PLURAL)


def played_texts(slug: str) -> tuple[dict[str, list[str]], list[tuple[Mapping, str]]]:
    """Event texts by event type and (action, text) pairs from random games."""
    rules = engines.get(slug)
    events: dict[str, list[str]] = {}
    actions: list[tuple[Mapping, str]] = []
    seen_actions: set[str] = set()
    for players in PLAYERS[slug]:
        for seed in SEEDS:
            last = None
            for state, seat, action in random_steps(rules, players, seed):
                key = repr(sorted(action.items()))
                if key not in seen_actions:
                    seen_actions.add(key)
                    actions.append((action, rules.describe(action)))
                assert seat == CHANCE or action in state.legal_actions(seat)
                last = state
            assert last is not None
            for event in last.events:
                texts = events.setdefault(event["type"], [])
                if len(texts) < 200:
                    texts.append(rules.describe_event(event))
    return events, actions


@pytest.fixture(scope="module", params=sorted(TEXT_MODULES))
def played(request: pytest.FixtureRequest) -> tuple[str, dict, list]:
    events, actions = played_texts(request.param)
    return request.param, events, actions


def test_every_event_of_random_games_reads_as_a_sentence(played) -> None:
    slug, events, _ = played
    bad = [
        (kind, text, problem)
        for kind, texts in events.items()
        for text in texts
        for problem in sentence_problems(text)
    ]
    assert not bad, f"{slug}: {bad[:10]}"


def test_every_action_reads_as_a_sentence(played) -> None:
    slug, _, actions = played
    bad = [
        (action, text, problem) for action, text in actions for problem in sentence_problems(text)
    ]
    assert not bad, f"{slug}: {bad[:10]}"


def test_every_event_type_has_its_own_sentence(played) -> None:
    """Random play reaches most types; the rest are hand-built; none uses the fallback."""
    slug, events, _ = played
    module = TEXT_MODULES[slug]
    seen = set(events) | {event["type"] for event in RARE_EVENTS[slug]}
    assert set(events) <= module.EVENT_TYPES, f"{slug} emits events without a sentence"
    assert seen == module.EVENT_TYPES, f"{slug}: never checked {module.EVENT_TYPES - seen}"
    fallback = engines.get(slug).describe_event({"type": "no_such_event"})
    assert all(fallback not in text for texts in events.values() for text in texts)


@pytest.mark.parametrize(
    ("slug", "event"), [(slug, event) for slug, events in RARE_EVENTS.items() for event in events]
)
def test_rare_events_read_as_sentences(slug: str, event: dict[str, Any]) -> None:
    text = engines.get(slug).describe_event(event)
    assert not sentence_problems(text), (text, sentence_problems(text))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Seat 1 trades with the three_coins ship.", "snake_case"),
        ("Seat 1 supplies {ginseng 2, jade 1}.", "braces"),
        ("Seat 1 draws a objective card.", "'a' before a vowel"),
        ("Seat 1 draws 1 cards.", "'1' before a plural"),
        ("Seat None wins.", "Python literal"),
        ("objective swap", "capital letter"),
    ],
)
def test_the_checks_catch_what_the_tester_saw(text: str, problem: str) -> None:
    assert any(problem in found for found in sentence_problems(text))


@pytest.mark.parametrize(
    ("slug", "event", "expected"),
    [
        ("batavia", {"type": "bid", "seat": 2, "amount": 1}, "Seat 2 bids 1 letter."),
        (
            "batavia",
            {"type": "played", "seat": 0, "company": "england"},
            "Seat 0 plays an English ship card.",
        ),
        (
            "cargo_noir",
            {"type": "casino", "seat": 1, "coins": 2},
            "Seat 1's ship at the casino brings back 2 coins.",
        ),
        (
            "grog_island",
            {"type": "trade_ship", "seat": 1, "ship": "three_coins", "peninsula": "green"},
            "Seat 1 trades with the three-coins ship under the green peninsula.",
        ),
        (
            "grog_island",
            {"type": "drew", "deck": "objective", "seat": 3},
            "Seat 3 draws an objective card.",
        ),
    ],
)
def test_known_sentences(slug: str, event: dict[str, Any], expected: str) -> None:
    assert engines.get(slug).describe_event(event) == expected

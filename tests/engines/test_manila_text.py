"""Manila's actions and public events read as English sentences on game pages.

An independent tester read internal names on game pages (``harbor_A``,
``pilot_small``, raw ``{...}`` maps). These tests play random games, collect
every event and action (chance's included), and check each text: a sentence
with a capital letter, no snake_case identifier, no raw braces or brackets,
no Python literal, no "1" before a plural. Event types that random play
rarely reaches are checked on hand-built events, and every event type the
engine emits must have its own sentence.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import engines
from engines.manila import text
from tests.engines import sentences
from tests.engines.helpers import random_steps

ENGINE = engines.get("manila")

ONE_PLURAL = re.compile(r"(?<![Ss]eat )(?<![Ss]pace )\b1 (?:[a-z-]+ )?(?:pesos|shares|spaces)\b")


def sentence_problems(sentence: str) -> list[str]:
    return sentences.sentence_problems(sentence, ONE_PLURAL)


def _played() -> tuple[dict[str, list[str]], list[tuple[dict, str]]]:
    """Event texts by type and (action, text) pairs from random games, variant included."""
    events: dict[str, list[str]] = {}
    actions: dict[str, tuple[dict, str]] = {}
    for players in (3, 4, 5):
        for seed in (1, 2):
            for replace in (False, True):
                last = None
                for state, _, action in random_steps(
                    ENGINE, players, seed, {"pirates_replace": replace}
                ):
                    actions.setdefault(repr(sorted(action.items())), (action, ""))
                    last = state
                assert last is not None
                for event in last.events:
                    texts = events.setdefault(event["type"], [])
                    if len(texts) < 100:
                        texts.append(ENGINE.describe_event(event))
    return events, [(a, ENGINE.describe(a)) for a, _ in actions.values()]


@pytest.fixture(scope="module")
def played() -> tuple[dict[str, list[str]], list[tuple[dict, str]]]:
    return _played()


RARE_EVENTS: list[dict[str, Any]] = [
    {"type": "harbor_master", "seat": 0, "price": 0, "no_bids": True},
    {"type": "boarded", "seat": 2, "good": "jade", "sent_home": 1},
    {"type": "plundered", "good": "nutmeg", "pirates": [2, 2], "each": 12, "crew_sent_home": []},
    {"type": "insurance_paid", "seat": 1, "owed": 29, "forgiven": 4},
    {"type": "insurance_paid", "seat": 1, "owed": 1, "forgiven": 0},
    {"type": "mortgaged", "seat": 3, "count": 1},
    {"type": "redeemed", "seat": 0, "count": 1},
    {"type": "profits", "gains": [0, 0, 0]},
    {"type": "placed", "seat": 3, "space": "silk", "cost": 0},
    {"type": "game_over", "scores": [80, 80, 61], "ranks": [1, 1, 3],
     "shares": [{}, {}, {}]},
]  # fmt: skip


def test_every_event_of_random_games_reads_as_a_sentence(played) -> None:
    events, _ = played
    bad = [
        (kind, sentence, problem)
        for kind, texts in events.items()
        for sentence in texts
        for problem in sentence_problems(sentence)
    ]
    assert not bad, bad[:10]


def test_every_action_reads_as_a_sentence(played) -> None:
    _, actions = played
    bad = [(a, sentence, p) for a, sentence in actions for p in sentence_problems(sentence)]
    assert not bad, bad[:10]


def test_every_event_type_has_its_own_sentence(played) -> None:
    """Random play reaches most types; the rest are hand-built; none uses the fallback."""
    events, _ = played
    seen = set(events) | {event["type"] for event in RARE_EVENTS}
    assert set(events) <= text.EVENT_TYPES, "events without a sentence"
    assert seen == text.EVENT_TYPES, f"never checked: {text.EVENT_TYPES - seen}"
    fallback = ENGINE.describe_event({"type": "no_such_event"})
    assert all(fallback not in sentence for texts in events.values() for sentence in texts)


@pytest.mark.parametrize("event", RARE_EVENTS, ids=lambda e: e["type"])
def test_rare_events_read_as_sentences(event: dict[str, Any]) -> None:
    sentence = ENGINE.describe_event(event)
    assert not sentence_problems(sentence), (sentence, sentence_problems(sentence))


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (
            {"type": "placed", "seat": 1, "space": "harbor_C", "cost": 2},
            "Seat 1 places an accomplice on harbor dock C for 2 pesos.",
        ),
        (
            {"type": "placed", "seat": 3, "space": "silk", "cost": 0},
            "Seat 3 stows away on the silk boat for free.",
        ),
        (
            {"type": "placed", "seat": 0, "space": "pilot_small", "cost": 2},
            "Seat 0 becomes the small pilot for 2 pesos.",
        ),
        (
            {"type": "supply", "supply": {"ginseng": 4, "nutmeg": 1, "silk": 3, "jade": 2}},
            "The undealt shares join the open supply, which now holds 4 ginseng shares, "
            "1 nutmeg share, 3 silk shares and 2 jade shares.",
        ),
        (
            {
                "type": "plundered",
                "good": "nutmeg",
                "pirates": [2, 3],
                "each": 12,
                "crew_sent_home": [1, 1, 0],
            },
            "Pirates plunder the nutmeg boat on space 13: seat 2 takes 12 pesos and seat 3 "
            "takes 12 pesos; its crew (seat 1 and seat 0) go home empty-handed.",
        ),
        (
            {"type": "profits", "gains": [12, 0, 1]},
            "Profits: seat 0 earns 12 pesos and seat 2 earns 1 peso.",
        ),
        (
            {
                "type": "prices",
                "risen": ["jade"],
                "prices": {"ginseng": 0, "nutmeg": 5, "silk": 0, "jade": 10},
            },
            "The price of jade rises one step; share prices are now ginseng 0, nutmeg 5, "
            "silk 0 and jade 10.",
        ),
        (
            {"type": "insurance_paid", "seat": 1, "owed": 29, "forgiven": 4},
            "Seat 1, the insurance agent, owes 29 pesos for the boats in the shipyard, "
            "can pay only 25 pesos, and the bank forgives the other 4.",
        ),
        (
            {"type": "game_over", "scores": [80, 80, 61], "ranks": [1, 1, 3], "shares": []},
            "The game is over and every share is revealed. Final wealth: seat 0 1st with "
            "80 pesos, seat 1 1st with 80 pesos and seat 2 3rd with 61 pesos.",
        ),
    ],
)
def test_known_event_sentences(event: dict[str, Any], expected: str) -> None:
    assert ENGINE.describe_event(event) == expected


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ({"type": "place", "space": "shipyard_A"}, "Place an accomplice on shipyard berth A"),
        ({"type": "place", "space": "pirate"}, "Place an accomplice on the pirate ship"),
        ({"type": "place", "space": "pilot_large"}, "Become the large pilot"),
        ({"type": "redeem", "count": 1}, "Redeem 1 mortgaged share for 15 pesos"),
        ({"type": "bid", "amount": 1}, "Bid 1 peso to become harbor master"),
        (
            {"type": "board", "good": "jade", "evict": 1},
            "Leave the pirate ship and board the jade boat, sending its 2nd crew member home",
        ),
        (
            {"type": "harbor_order", "goods": ["jade", "silk"]},
            "Dock the boats in this order: jade then silk (the first on dock A)",
        ),
    ],
)
def test_known_action_sentences(action: dict[str, Any], expected: str) -> None:
    assert ENGINE.describe(action) == expected


@pytest.mark.parametrize(
    "thing",
    [
        {"type": "place"},
        {"type": "place", "space": "harbor_D"},
        {"type": "bid", "amount": None},
        {"type": "buy", "good": None},
        {"type": "pilot", "good": "jade", "move": 3},
        {"type": "nonsense"},
        {},
    ],
)
def test_malformed_actions_and_events_get_a_plain_sentence(thing: dict[str, Any]) -> None:
    assert not sentence_problems(ENGINE.describe(thing))
    assert not sentence_problems(ENGINE.describe_event(thing))

"""The engine pages in docs/engines stand on their own and their numbers match the code.

Each page states the rules with every number; these tests read the pages'
tables back and compare them with the engines' data tables, so a number
changed in one place and not the other fails here. The pages must not point
outside the repository, and must list every event type their engine emits.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engines.batavia import rules as batavia
from engines.batavia import text as batavia_text
from engines.cargo_noir import data as cargo
from engines.cargo_noir import text as cargo_text
from engines.grog_island import data as grog
from engines.grog_island import text as grog_text

DOCS = Path(__file__).resolve().parents[2] / "docs" / "engines"
TEXTS = {"batavia": batavia_text, "cargo_noir": cargo_text, "grog_island": grog_text}


def page(slug: str) -> str:
    return (DOCS / f"{slug}.md").read_text(encoding="utf-8")


def rows(text: str) -> dict[str, list[str]]:
    """Every markdown table row by its first cell (assumption marks removed)."""
    found = {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("|") and not line.startswith("|---"):
            cells = [re.sub(r"\*\(assumed\)\*", "", c).strip() for c in line.strip("|").split("|")]
            found.setdefault(cells[0], cells[1:])
    return found


@pytest.mark.parametrize("slug", sorted(TEXTS))
def test_the_page_points_nowhere_outside_the_repository(slug: str) -> None:
    text = page(slug)
    for outside in ("shared/", "/work/", "../", "seed `00"):
        assert outside not in text, f"{slug}.md mentions {outside!r}"


@pytest.mark.parametrize("slug", sorted(TEXTS))
def test_the_page_lists_every_event_type(slug: str) -> None:
    listed = set(re.findall(r"^\| `([a-z_]+)`", page(slug), flags=re.M))
    listed |= set(re.findall(r"^\| `[a-z_]+` / `([a-z_]+)`", page(slug), flags=re.M))
    missing = TEXTS[slug].EVENT_TYPES - listed
    assert not missing, f"{slug}.md does not list the events {sorted(missing)}"


def test_batavia_tables_match_the_rules_module() -> None:
    table = rows(page("batavia"))
    first = "most crates of tea (over all companies)"
    assert table[first] == [
        f"{batavia.GOOD_MAJORITY['tea'][0]} alone, {batavia.GOOD_MAJORITY['tea'][1]} each when tied"
    ]
    for good in batavia.GOODS[1:]:
        sole, tied = batavia.GOOD_MAJORITY[good]
        assert table[good] == [f"{sole} / {tied}"], good
    assert table["most letters held"] == [
        f"{batavia.LETTERS_MOST} alone, {batavia.LETTERS_TIED} each when tied"
    ]
    assert table["the final hex"] == [str(batavia.FINAL_HEX_GOLD)]
    assert table["each seal held"] == [str(batavia.SEAL_GOLD)]
    assert table["gold"] == [str(g) for g in batavia.CONVERSION_GOLD[1:]]
    assert table["ship cards"][0] == str(batavia.CARDS_PER_COMPANY * batavia.NUM_COMPANIES)
    assert f"{batavia.CARDS_PER_COMPANY} per company" in table["ship cards"][1]
    assert table["crates"][0] == f"{batavia.CRATES} per player"
    assert f"{batavia.STARTING_LETTERS} per player" in table["letters of exchange"][1]
    text = page("batavia")
    assert f"at least **{batavia.pirate_threshold(3)}** (3 players)" in text
    assert f"**{batavia.pirate_threshold(4)}** (4-5 players)" in text
    assert f"deal {batavia.HAND_SIZE} to each player" in text


def test_cargo_noir_tables_match_the_data_module() -> None:
    table = rows(page("cargo_noir"))
    for card in cargo.CARDS:
        copies, cost, vp, _ = table[card.name]
        vp_value = cost if vp == "= cost" else vp
        assert (int(copies), int(cost), int(vp_value)) == (card.copies, card.cost, card.vp)
    for port in cargo.PORTS:
        slots, open_with = table[port.name]
        assert int(slots) == port.slots
        assert int(re.match(r"\d", open_with).group(0)) == port.min_players
    assert table["all different types"] == [str(v) for v in cargo.DIFFERENT_VALUES]
    assert table["all the same type"] == [str(v) for v in cargo.SAME_VALUES]
    text = page("cargo_noir")
    assert f"{cargo.START_SHIPS} ships" in text and f"{cargo.START_COINS} coins" in text
    assert f"warehouse of {cargo.WAREHOUSE_BASE_SLOTS} slots" in text
    assert f"`BID_WINDOW` = {cargo.BID_WINDOW}" in text
    assert f"{cargo.BLACK_MARKET_SIZE} goods on" in text
    assert f"{len(cargo.GOODS)} types, {cargo.TOKENS_PER_GOOD} tokens each" in text


def test_grog_island_tables_match_the_data_module() -> None:
    table = rows(page("grog_island"))
    for kind, (vp, where) in grog.BUILDING_TYPES.items():
        copies, doc_vp, peninsulas = table[grog.BUILDING_LABELS[kind]]
        assert (int(copies), int(doc_vp)) == (len(where), vp), kind
        listed = grog.COLOURS if peninsulas == "all" else tuple(peninsulas.split(", "))
        assert tuple(listed) == where, kind
    limits = {name: most for name, _, most in grog.SHIPS}
    assert table["two-coins"] == [f"up to {limits['two_coins']} goods, 2 coins each"]
    assert table["three-coins"] == [f"up to {limits['three_coins']} goods, 3 coins each"]
    assert table["four-coins"] == [f"exactly {limits['four_coins']} good, 4 coins"]
    text = page("grog_island")
    treasure = grog.TREASURE_DECK
    assert (
        f"{treasure.count(1)} worth 1 coin, {treasure.count(2)} worth 2, "
        f"{treasure.count(3)} worth 3" in text
    )
    assert f"{grog.PARROT_DECK.count('hold')} *hold the bid*" in text
    assert f"{len(grog.OBJECTIVE_DECK)}): 2 copies of each of {len(grog.OBJECTIVE_KINDS)}" in text
    assert f"{grog.CREW[2]} per player with 2-3 players, {grog.CREW[4]} with 4" in text
    assert f"starts with {grog.START_COINS}" in text and f"{grog.LOCKS} locks" in text
    assert f"round {grog.MAX_ROUNDS} (`MAX_ROUNDS`)" in text
    assert "yellow, green, blue, orange, grey" in text and tuple(grog.COLOURS) == (
        "yellow",
        "green",
        "blue",
        "orange",
        "grey",
    )

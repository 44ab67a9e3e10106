"""The rules pages' tables, read from the engines' own numbers (``engines/*/data.py``).

The prose of each page is written for players in ``templates/rules/``; its
long tables (boat seats, cards, smuggling values, buildings) come from here, so
they are the numbers the referee plays by.
``tests/tournaments/pages/test_rules_pages.py`` holds the prose's numbers to
the same constants.
"""

from __future__ import annotations

from typing import Any

from engines.batavia import rules as batavia
from engines.cargo_noir import data as cargo_noir
from engines.grog_island import data as grog_island
from engines.manila import data as manila


def _letters(seq: tuple[int, ...]) -> str:
    return " / ".join(str(n) for n in seq)


def manila_figures() -> dict[str, Any]:
    goods = [
        {
            "good": good,
            "seats": ", ".join(str(c) for c in manila.SEAT_COSTS[i]),
            "payout": manila.BOAT_PAYOUT[i],
        }
        for i, good in enumerate(manila.GOODS)
    ]
    cost = dict(zip(manila.SPACE_NAMES, manila.SPACE_COST, strict=True))
    spaces = [
        {
            "space": "Harbor docks A / B / C",
            "cost": _letters(manila.SPACE_COST[0:3]),
            "earns": f"{_letters(manila.DOCK_PAYOUT)} if a boat docks there",
        },
        {
            "space": "Shipyard berths A / B / C",
            "cost": _letters(manila.SPACE_COST[3:6]),
            "earns": f"{_letters(manila.DOCK_PAYOUT)} if a boat is repaired there",
        },
        {
            "space": f"Pirate ship ({manila.PIRATE_SEATS} places: captain, then second pirate)",
            "cost": manila.PIRATE_COST,
            "earns": "a share of every boat they plunder",
        },
        {
            "space": "Small pilot",
            "cost": cost["pilot_small"],
            "earns": "nothing: moves one boat one space",
        },
        {
            "space": "Large pilot",
            "cost": cost["pilot_large"],
            "earns": "nothing: moves boats two spaces in all",
        },
        {
            "space": "Insurance office",
            "cost": cost["insurance"],
            "earns": f"{manila.INSURANCE_BONUS} at once; pays for the repairs",
        },
    ]
    return {"goods": goods, "spaces": spaces, "track": " → ".join(map(str, manila.PRICE_TRACK))}


def batavia_figures() -> dict[str, Any]:
    conversion = list(enumerate(batavia.CONVERSION_GOLD))[1:]
    goods = [
        {
            "good": good,
            "alone": batavia.GOOD_MAJORITY[good][0],
            "tied": batavia.GOOD_MAJORITY[good][1],
        }
        for good in batavia.GOODS
    ]
    return {
        "companies": [c.capitalize() for c in batavia.COMPANIES],
        "conversion": conversion,
        "goods": goods,
    }


def cargo_noir_figures() -> dict[str, Any]:
    ports = [{"name": p.name, "slots": p.slots, "from": p.min_players} for p in cargo_noir.PORTS]
    cards = [
        {
            "name": c.name,
            "copies": c.copies,
            "cost": c.cost,
            "vp": c.vp,
            "limit": c.per_player or "",
        }
        for c in cargo_noir.CARDS
    ]
    sizes = range(1, cargo_noir.MAX_COMBINATION + 1)
    return {
        "goods": cargo_noir.GOODS,
        "ports": ports,
        "cards": cards,
        "sizes": list(sizes),
        "different": cargo_noir.DIFFERENT_VALUES,
        "same": cargo_noir.SAME_VALUES,
    }


def grog_island_figures() -> dict[str, Any]:
    buildings = [
        {
            "label": grog_island.BUILDING_LABELS[kind],
            "copies": len(where),
            "vp": vp,
            "where": ", ".join(where),
        }
        for kind, (vp, where) in grog_island.BUILDING_TYPES.items()
    ]
    goods = [{"colour": c, "good": grog_island.GOOD_NAMES[c]} for c in grog_island.COLOURS]
    treasure = {
        v: grog_island.TREASURE_DECK.count(v) for v in sorted(set(grog_island.TREASURE_DECK))
    }
    return {
        "buildings": buildings,
        "goods": goods,
        "treasure": treasure,
        "crew": grog_island.CREW,
    }


FIGURES = {
    "manila": manila_figures,
    "batavia": batavia_figures,
    "cargo_noir": cargo_noir_figures,
    "grog_island": grog_island_figures,
}

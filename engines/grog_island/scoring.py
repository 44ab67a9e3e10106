"""Final scoring: treasure, coins and the secret objectives (duplicates count once)."""

from __future__ import annotations

from typing import Any

from .data import (
    BUILDING_TYPES,
    BUILDINGS,
    BUILDINGS_ON,
    COINS_PER_VP,
    COLOUR_INDEX,
    GHOST,
    MAJORITY_VP,
    PRESENCE_VP,
    SUBSTITUTE,
)

_OF_TYPE: dict[str, tuple[int, ...]] = {
    kind: tuple(i for i, (_, t) in enumerate(BUILDINGS) if t == kind) for kind in BUILDING_TYPES
}
"""Each building type's buildings (indices into ``BUILDINGS``), looked up rather than scanned."""


def objective_vp(
    objective: str,
    seat: int,
    occupant: list[int],
    goods: list[int],
    parrots: int,
    goods_bonus: int,
) -> int:
    """VP of one objective card for ``seat`` (goods: the 3-for-1 bonus is added once)."""
    kind, _, key = objective.partition("/")
    if kind == "building":
        per = BUILDING_TYPES[key][0] if key in BUILDING_TYPES else 0
        owned = 0
        for i in _OF_TYPE.get(key, ()):
            if occupant[i] == seat:
                owned += 1
        return per * owned
    if kind == "parrots":
        return parrots
    if kind == "goods" and key in COLOUR_INDEX:
        return goods[COLOUR_INDEX[key]] + goods_bonus
    if kind == "peninsula" and key in COLOUR_INDEX:
        return peninsula_vp(seat, [occupant[i] for i in BUILDINGS_ON[COLOUR_INDEX[key]]])
    return 0


def peninsula_vp(seat: int, occupants: list[int]) -> int:
    """6 VP for a strict majority of crew (ghosts count as a player), 2 for presence."""
    mine = occupants.count(seat)
    if not mine:
        return 0
    others = {o for o in occupants if o >= 0 or o == GHOST} - {seat}
    if all(occupants.count(o) < mine for o in others):
        return MAJORITY_VP
    return PRESENCE_VP


def final_scores(
    num_players: int,
    vp: list[int],
    coins: list[int],
    goods: list[list[int]],
    occupant: list[int],
    private: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """Per seat: the VP breakdown and total (objectives revealed)."""
    result = []
    for seat in range(num_players):
        mine = private[seat]
        objectives = sorted(set(mine["objectives"]))
        goods_colours = {
            COLOUR_INDEX[o.partition("/")[2]]
            for o in objectives
            if o.startswith("goods/") and o.partition("/")[2] in COLOUR_INDEX
        }
        spare = sum(n for c, n in enumerate(goods[seat]) if c not in goods_colours)
        bonus = spare // SUBSTITUTE
        per_objective: dict[str, int] = {}
        first_goods = True
        for objective in objectives:
            is_goods = objective.startswith("goods/")
            per_objective[objective] = objective_vp(
                objective,
                seat,
                occupant,
                goods[seat],
                len(mine["parrots"]),
                bonus if is_goods and first_goods else 0,
            )
            if is_goods:
                first_goods = False
        treasure_vp = len(mine["treasures"])
        coin_vp = coins[seat] // COINS_PER_VP
        total = vp[seat] + treasure_vp + coin_vp + sum(per_objective.values())
        result.append(
            {
                "seat": seat,
                "track_vp": vp[seat],
                "treasure_vp": treasure_vp,
                "coin_vp": coin_vp,
                "objectives": per_objective,
                "total": total,
                "coins": coins[seat],
            }
        )
    return result


def ranks(totals: list[int], coins: list[int]) -> list[int]:
    """1 = best by VP, ties broken by coins; still tied share the rank."""
    keys = list(zip(totals, coins, strict=True))
    return [1 + sum(1 for other in keys if other > key) for key in keys]

"""What everybody sees: the public view (a seat's own shares are added by ``view``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engines import CHANCE

from . import data

if TYPE_CHECKING:
    from .state import ManilaState


def _by_good(values: list[int]) -> dict[str, int]:
    return dict(zip(data.GOODS, values, strict=True))


def _berth_name(berth: int) -> str | None:
    if berth < 0:
        return None
    if berth in data.HARBOR:
        return "harbor_" + data.LETTERS[berth]
    return "shipyard_" + data.LETTERS[berth - 3]


def _boats(state: ManilaState) -> dict[str, Any]:
    boats = {}
    for g, name in enumerate(data.GOODS):
        if not state.loaded[g]:
            continue
        costs = data.SEAT_COSTS[g]
        crew = state.crew[g]
        boats[name] = {
            "position": state.position[g],
            "berth": _berth_name(state.berth[g]),
            "crew": list(crew),
            "next_seat_cost": costs[len(crew)] if len(crew) < len(costs) else None,
            "seats": len(costs),
            "payout": data.BOAT_PAYOUT[g],
            "plundered": state.plundered[g],
        }
    return boats


def public_view(state: ManilaState) -> dict[str, Any]:
    """Public facts only: a seat's own dealt shares are added by ``view(seat)``."""
    n = state.num_players
    mover = state.mover
    view: dict[str, Any] = {
        "phase": state.phase,
        "voyage": state.voyage,
        "movement": state.movement,
        "placement_round": state.round,
        "harbor_master": state.harbor_master,
        "to_move": None if mover < 0 else mover,
        "chance_to_move": mover == CHANCE,
        "prices": _by_good(state.prices),
        "share_cost": {
            name: data.share_cost(p) for name, p in zip(data.GOODS, state.prices, strict=True)
        },
        "supply": _by_good(state.supply),
        "players": [
            {
                "seat": s,
                "cash": state.cash[s],
                "shares": state.shares[s],
                "mortgaged": state.mortgaged[s],
                "bought": _by_good(state.bought[s]),
                "accomplices_left": state.accomplices[s],
                "placing": state.placing[s],
            }
            for s in range(n)
        ],
        "ashore": next((g for g, on in zip(data.GOODS, state.loaded, strict=True) if not on), None)
        if any(state.loaded)
        else None,
        "boats": _boats(state),
        "spaces": {
            name: {
                "seat": None if state.spaces[i] < 0 else state.spaces[i],
                "cost": data.SPACE_COST[i],
                "payout": data.DOCK_PAYOUT[i % 3] if i < 6 else None,
            }
            for i, name in enumerate(data.SPACE_NAMES)
        },
        "pirate_ship": list(state.pirates),
    }
    if state.phase == "deal":
        view["shares_dealt"] = state.dealt
    if state.phase == "auction":
        view["auction"] = {
            "high_bid": state.high_bid,
            "high_bidder": None if state.high_bidder < 0 else state.high_bidder,
            "passed": list(state.passed),
            "bid_page": state.bid_page,
        }
    if state.phase in ("harbor_order", "shipyard_order", "plunder", "roll"):
        view["pending"] = [data.GOODS[g] for g in state.pending]
    if state.pilot_first is not None:
        g, move = state.pilot_first
        view["large_pilot_first_step"] = {"good": data.GOODS[g], "move": move}
    if state.phase == "redeem":
        view["redeem_queue"] = list(state.queue)
    if state.is_over:
        outcome = state.outcome()
        view["final"] = {
            "scores": outcome["scores"],
            "ranks": outcome["ranks"],
            "shares": [dict(p["shares"]) for p in state.private],
        }
    return view

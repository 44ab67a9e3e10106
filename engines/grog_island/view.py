"""The public view: everything on the table, card counts but never card faces.

Per the spec, objective cards, treasure values, parrot types in hand and the
decks' order are hidden; counts of cards, coins, VP, goods, buildings, locks,
clouds, ships and dice are public. Only list *lengths* of secrets are read
here, until the game is over (then the final breakdown reveals objectives).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from .data import BUILDING_IDS, COLOURS, FREE, GHOST, GHOST_SHIP, LOCKED, OPEN_SEA, SHIPS

if TYPE_CHECKING:
    from .state import GrogState

_OCCUPANT_NAMES = {FREE: None, LOCKED: "lock", GHOST: "ghost"}


class ViewMixin:
    __slots__ = ()

    def public_view(self: GrogState) -> dict[str, Any]:
        players = []
        for seat in range(self.num_players):
            mine = self.private[seat]
            players.append(
                {
                    "seat": seat,
                    "coins": self.coins[seat],
                    "vp": self.vp[seat],
                    "crew": self.crew[seat],
                    "goods": dict(zip(COLOURS, self.goods[seat], strict=True)),
                    "objectives": len(mine["objectives"]),
                    "treasures": len(mine["treasures"]),
                    "parrots": len(mine["parrots"]),
                    "drawn_objectives": len(mine["drawn"]),
                    "potential_capital": self.capital(seat),
                    "in_auction": bool(self.active[seat]) if self.active else False,
                }
            )
        view: dict[str, Any] = {
            "round": self.round,
            "start_player": self.start,
            "stage": self.stage,
            "to_move": self.to_move,
            "players": players,
            "buildings": {
                BUILDING_IDS[i]: _OCCUPANT_NAMES.get(o, o) for i, o in enumerate(self.occupant)
            },
            "locks_left": self.locks_left,
            "clouds": dict(zip(COLOURS, self.clouds, strict=True)),
            "ships": {
                ("open_sea" if space == OPEN_SEA else COLOURS[space]): (
                    SHIPS[ship][0] if ship >= 0 else None
                )
                for space, ship in enumerate(self.ships)
            },
            "trade_discs": {
                COLOURS[space]: seat for space, seat in enumerate(self.discs) if seat >= 0
            },
            "dice": dict(zip(COLOURS, self.dice, strict=True)),
            "bid": {
                "dice": [COLOURS[c] for c in self.bid],
                "total": self.bid_total,
                "bidder": self.bidder if self.bidder >= 0 else None,
            },
            "decks": {
                "objective": self.deck_size("objective"),
                "treasure": self.deck_size("treasure"),
                "parrot": self.deck_size("parrot"),
            },
            "pending_returns": list(self.returns),
        }
        if self.num_players == 2:
            view["ghost"] = {"ship": SHIPS[GHOST_SHIP][0], "crew": self.ghost_crew}
        if self.stage == "bid":
            view["turn"] = {
                "draft": [COLOURS[c] for c in self.draft],
                "holding": self.holding,
                "committed": self.committed,
            }
        elif self.stage == "trade" and self.trade:
            space, done, closed, paid, acted, optional = self.trade
            view["trade"] = {
                "ship": SHIPS[self.ships[space]][0],
                "peninsula": COLOURS[space],
                "exchanged": done,
                "exchange_closed": bool(closed),
                "building_units_paid": paid,
                "acted": bool(acted),
                "optional": bool(optional),
            }
        elif self.stage == "pay":
            view["payment"] = {"bid": self.bid_total, "revealed_treasure": self.revealed}
        elif self.stage == "reward":
            view["claims"] = {
                "peninsulas": [COLOURS[c] for c in self.claims],
                "types_claimed": list(self.claimed_types),
            }
        if self.final is not None:
            view["final"] = copy.deepcopy(self.final)
            view["revealed"] = copy.deepcopy(self.private)
        return view


__all__ = ["ViewMixin"]

"""The public view: everything but the bag's and the discard pile's contents.

By the spec only the bag's order and the discard pile's order are secret; the
engine keeps both piles' contents in ``hidden`` and shows their sizes, which
are public fields. Nothing is private to a seat.
"""

from __future__ import annotations

from typing import Any

from .board import NO_PENDING, PENDING_MARKET
from .data import BLACK_MARKET, CARDS, TOKENS
from .scoring import victory_points


class ViewMixin:
    """``public_view`` for every seat and spectators."""

    __slots__ = ()

    def public_view(self) -> dict[str, Any]:
        players = []
        for seat in range(self.num_players):
            cards = self.cards[seat]
            players.append(
                {
                    "coins": self.coins[seat],
                    "ships": self.ships[seat],
                    "ships_home": self.ships_available(seat),
                    "ships_at_casino": self.at_casino[seat],
                    "ships_at_black_market": self.at_market[seat],
                    "warehouse": {
                        TOKENS[g]: count for g, count in enumerate(self.warehouse[seat]) if count
                    },
                    "capacity": self.capacity(seat),
                    "cards": {CARDS[c].name: count for c, count in enumerate(cards) if count},
                    "victory_points": victory_points(cards),
                }
            )
        ports = [
            {
                "name": port.name,
                "slots": port.slots,
                "goods": [TOKENS[g] for g in self.port_goods[p]],
                "bids": [
                    {"seat": s, "coins": coins}
                    for s, coins in enumerate(self.port_bids[p])
                    if coins
                ],
            }
            for p, port in enumerate(self.ports)
        ]
        if self.pending == PENDING_MARKET:
            pending = BLACK_MARKET
        elif self.pending != NO_PENDING:
            pending = self.ports[self.pending].name
        else:
            pending = None
        view: dict[str, Any] = {
            "round": self.round,
            "rounds": self.rounds,
            "last_round": self.round == self.rounds,
            "seat": self.seat,
            "phase": self.phase,
            "players": players,
            "black_market": [TOKENS[g] for g in self.market],
            "ports": ports,
            "bag_size": self.bag_size,
            "discard_size": self.discard_size,
            "cards_left": {card.name: self.cards_left[c] for c, card in enumerate(CARDS)},
            "turn": {
                "pending": pending,
                "resolved": [self.ports[p].name for p in self.resolved],
                "abandoned": [self.ports[p].name for p in self.abandoned],
                "syndicate_bonuses_paid": self.syndicate_paid,
                "credit": self.credit,
                "combination": (
                    None
                    if self.combo_kind is None
                    else {"kind": self.combo_kind, "goods": [TOKENS[g] for g in self.combo]}
                ),
            },
        }
        if self.phase == "over":
            view["outcome"] = self.outcome()
        return view

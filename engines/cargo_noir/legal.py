"""What the seat to move may do now: one short list per phase and sub-decision.

Compound turns are split (see ``docs/engines/cargo_noir.md``):

* phase I (``"ships"``): ``resolve`` one ship by where it is; a black-market
  ship then asks ``market_swap``/``market_draw``; an outbid port ship asks
  ``raise``/``withdraw``;
* phase II (``"smuggle"``): ``start_combination``, then ``add`` one good at a
  time and ``smuggle``; ``buy`` one card at a time; ``end_smuggling``;
  then (``"discard"``) ``discard`` one good at a time down to capacity;
* phase III (``"send"``): ``send`` one ship to a place, then ``bid`` at a port.
"""

from __future__ import annotations

from typing import Any

from .board import NO_PENDING, OPEN_PORTS, PENDING_MARKET
from .data import (
    BID_WINDOW,
    BLACK_MARKET,
    CARDS,
    CASINO,
    MAX_COMBINATION,
    PORTS,
    TOKENS,
    WAREHOUSE,
    WAREHOUSE_BASE_SLOTS,
    WAREHOUSE_SLOTS_PER_CARD,
    WILD,
)

Action = dict[str, Any]

_RESOLVE_CASINO: Action = {"type": "resolve", "at": CASINO}
_RESOLVE_MARKET: Action = {"type": "resolve", "at": BLACK_MARKET}
_SEND_CASINO: Action = {"type": "send", "to": CASINO}
_SEND_MARKET: Action = {"type": "send", "to": BLACK_MARKET}
_START_SAME: Action = {"type": "start_combination", "kind": "same"}
_START_DIFFERENT: Action = {"type": "start_combination", "kind": "different"}
_END_SMUGGLING: Action = {"type": "end_smuggling"}
_SMUGGLE: Action = {"type": "smuggle"}
_BUY: tuple[Action, ...] = tuple({"type": "buy", "card": card.name} for card in CARDS)
_ADD: tuple[Action, ...] = tuple({"type": "add", "good": name} for name in TOKENS)
_DISCARD: tuple[Action, ...] = tuple({"type": "discard", "good": name} for name in TOKENS)
"""Actions built once and shared by every list (listed actions are read-only)."""
_COST_AND_LIMIT: tuple[tuple[int, int, int], ...] = tuple(
    (c, card.cost, card.per_player) for c, card in enumerate(CARDS)
)
_AMOUNTS_BUILT = 256
"""Bids and raises up to this many coins come from prebuilt tables (more are built per list)."""


class _PortActions:
    """A port's actions, built once: resolve, send, withdraw, and bids/raises by amount."""

    __slots__ = ("_tables", "name", "resolve", "send", "withdraw")

    def __init__(self, name: str) -> None:
        self.name = name
        self.resolve: Action = {"type": "resolve", "at": name}
        self.send: Action = {"type": "send", "to": name}
        self.withdraw: Action = {"type": "withdraw", "port": name}
        self._tables: dict[str, list[Action]] = {
            kind: [{"type": kind, "port": name, key: a} for a in range(_AMOUNTS_BUILT)]
            for kind, key in (("bid", "coins"), ("raise", "add"))
        }

    def amounts(self, kind: str, key: str, least: int, most: int) -> list[Action]:
        """``{"type": kind, "port": name, key: a}`` for ``a`` in ``least..most`` (a new list)."""
        if least >= 0 and most < _AMOUNTS_BUILT:
            return self._tables[kind][least : most + 1]
        return [{"type": kind, "port": self.name, key: a} for a in range(least, most + 1)]


_PORT_ACTIONS: dict[str, _PortActions] = {port.name: _PortActions(port.name) for port in PORTS}
_SENDS: dict[int, tuple[Action, ...]] = {
    n: tuple(_PORT_ACTIONS[port.name].send for port in ports) for n, ports in OPEN_PORTS.items()
}
"""Per player count, the send action of each open port (a state's ``ports`` is OPEN_PORTS[n])."""
_MARKET_DRAW: Action = {"type": "market_draw"}
_MARKET_SKIP: Action = {"type": "market_skip"}
_SWAP: tuple[tuple[Action, ...], ...] = tuple(
    tuple({"type": "market_swap", "give": give, "take": take} for take in TOKENS) for give in TOKENS
)


class LegalActionsMixin:
    """Legal actions and the small rule queries they rest on."""

    __slots__ = ()

    # ------------------------------------------------------------- queries
    def capacity(self, seat: int) -> int:
        """Warehouse slots: 6 plus 2 per Warehouse card."""
        return WAREHOUSE_BASE_SLOTS + WAREHOUSE_SLOTS_PER_CARD * self.cards[seat][WAREHOUSE]

    def ships_at_ports(self, seat: int) -> int:
        count = 0
        for bids in self.port_bids:
            if bids[seat]:
                count += 1
        return count

    def ships_available(self, seat: int) -> int:
        """Ships at home (not at the casino, the black market or a port)."""
        return (
            self.ships[seat]
            - self.at_casino[seat]
            - self.at_market[seat]
            - self.ships_at_ports(seat)
        )

    def ships_to_resolve(self, seat: int) -> bool:
        """Whether ``seat`` still has a ship to resolve in phase I."""
        if self.at_casino[seat] or self.at_market[seat]:
            return True
        resolved = self.resolved
        for p, bids in enumerate(self.port_bids):  # noqa: SIM110 (no generator made per call)
            if bids[seat] and p not in resolved:
                return True
        return False

    def is_last_round(self) -> bool:
        return self.round == self.rounds

    def buying_power(self, seat: int) -> int:
        """Credit smuggled this phase, plus the safe's coins in the last round."""
        return self.credit + (self.coins[seat] if self.round == self.rounds else 0)

    def can_buy(self, seat: int, card: int) -> bool:
        spec = CARDS[card]
        if self.cards_left[card] <= 0:
            return False
        if spec.per_player and self.cards[seat][card] >= spec.per_player:
            return False
        return spec.cost <= self.buying_power(seat)

    def buyable(self, seat: int) -> list[int]:
        """Every card ``can_buy`` allows, in card order (the buying power looked up once)."""
        power = self.buying_power(seat)
        left, held = self.cards_left, self.cards[seat]
        return [
            c
            for c, cost, most in _COST_AND_LIMIT
            if cost <= power and left[c] > 0 and not (most and held[c] >= most)
        ]

    def has_smuggling_choice(self, seat: int) -> bool:
        """Phase II has a decision: a good to smuggle or a card to buy."""
        if any(self.warehouse[seat]):
            return True
        return bool(self.buyable(seat))

    def market_draw_possible(self) -> bool:
        return self.bag_size + self.discard_size > 0

    def highest_other_bid(self, port: int, seat: int) -> int:
        bids = self.port_bids[port]
        return max((b for s, b in enumerate(bids) if s != seat), default=0)

    def can_send_to_port(self, seat: int, port: int) -> bool:
        """At most one ship per port, not where abandoned, and a bid of max + 1 affordable."""
        bids = self.port_bids[port]
        if bids[seat] or port in self.abandoned:
            return False
        return self.coins[seat] >= max(bids) + 1

    # ------------------------------------------------------- legal actions
    def _legal_actions(self, seat: int) -> list[Action]:
        if self.draws or self.phase == "over" or seat != self.seat:
            return []
        phase = self.phase
        if phase == "ships":
            if self.pending == PENDING_MARKET:
                return self._market_choices(seat)
            if self.pending != NO_PENDING:
                return self._outbid_choices(seat, self.pending)
            return self._resolve_choices(seat)
        if phase == "smuggle":
            if self.combo_kind is not None:
                return self._combination_choices(seat)
            return self._smuggle_menu(seat)
        if phase == "discard":
            return [_DISCARD[g] for g, count in enumerate(self.warehouse[seat]) if count]
        if phase == "send":
            if self.pending != NO_PENDING:
                return self._bid_choices(seat, self.pending)
            return self._send_choices(seat)
        return []

    def _resolve_choices(self, seat: int) -> list[Action]:
        actions = []
        if self.at_casino[seat]:
            actions.append(_RESOLVE_CASINO)
        if self.at_market[seat]:
            actions.append(_RESOLVE_MARKET)
        resolved = self.resolved
        for p, bids in enumerate(self.port_bids):
            if bids[seat] and p not in resolved:
                actions.append(_PORT_ACTIONS[self.ports[p].name].resolve)
        return actions

    def _market_choices(self, seat: int) -> list[Action]:
        held = self.warehouse[seat]
        on_display = sorted(set(self.market))
        actions: list[Action] = []
        for give, count in enumerate(held):
            if count:
                swaps = _SWAP[give]
                for take in on_display:
                    if take != give:
                        actions.append(swaps[take])
        if self.market_draw_possible():
            actions.append(_MARKET_DRAW)
        if not actions:
            actions.append(_MARKET_SKIP)
        return actions

    def _outbid_choices(self, seat: int, port: int) -> list[Action]:
        table = _PORT_ACTIONS[self.ports[port].name]
        least = max(1, self.highest_other_bid(port, seat) + 1 - self.port_bids[port][seat])
        most = min(self.coins[seat], least + BID_WINDOW - 1)
        actions: list[Action] = table.amounts("raise", "add", least, most)
        actions.append(table.withdraw)
        return actions

    def _smuggle_menu(self, seat: int) -> list[Action]:
        actions: list[Action] = []
        if any(self.warehouse[seat]):
            actions.append(_START_SAME)
            actions.append(_START_DIFFERENT)
        actions += [_BUY[c] for c in self.buyable(seat)]
        actions.append(_END_SMUGGLING)
        return actions

    def _combination_choices(self, seat: int) -> list[Action]:
        combo = self.combo
        held = self.warehouse[seat]
        actions: list[Action] = []
        if len(combo) < MAX_COMBINATION:
            if self.combo_kind == "same":
                fixed = None  # the combination's good, once a real one is in it
                for g in combo:
                    if g != WILD:
                        fixed = g
                        break
                if fixed is None:
                    actions = [_ADD[g] for g in range(WILD) if held[g]]
                elif held[fixed]:
                    actions = [_ADD[fixed]]
            else:
                actions = [_ADD[g] for g in range(WILD) if held[g] and g not in combo]
            if held[WILD]:
                actions.append(_ADD[WILD])
        if combo:
            actions.append(_SMUGGLE)
        return actions

    def _send_choices(self, seat: int) -> list[Action]:
        actions = [_SEND_CASINO, _SEND_MARKET]
        coins, abandoned = self.coins[seat], self.abandoned
        sends = _SENDS[self.num_players]  # the send action of each open port, in order
        for p, bids in enumerate(self.port_bids):  # can_send_to_port, inlined
            if not bids[seat] and p not in abandoned and coins >= max(bids) + 1:
                actions.append(sends[p])
        return actions

    def _bid_choices(self, seat: int, port: int) -> list[Action]:
        least = max(self.port_bids[port]) + 1
        most = min(self.coins[seat], least + BID_WINDOW - 1)
        return _PORT_ACTIONS[self.ports[port].name].amounts("bid", "coins", least, most)

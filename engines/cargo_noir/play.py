"""What each action does, and the automatic steps between decisions.

``_apply`` receives an action the base class already validated, so no
handler can fail half-way. After every action ``_advance`` moves through
whatever needs no decision (the end of phase I once every ship is resolved,
an empty phase II, a warehouse within capacity, a turn with no ship left to
send), so the seat to move always has a real choice.
"""

from __future__ import annotations

from typing import Any

from engines import CHANCE

from .board import NO_PENDING, PENDING_MARKET
from .data import (
    BLACK_MARKET,
    CARD_INDEX,
    CARDS,
    CARGO_SHIP,
    CASINO,
    CASINO_COINS,
    SYNDICATE,
    SYNDICATE_COINS,
    TOKEN_INDEX,
    TOKENS,
)
from .scoring import combination_value

Action = dict[str, Any]


class PlayMixin:
    """Effects of actions and the turn structure."""

    __slots__ = ()

    def _apply(self, seat: int, action: Action) -> None:
        if seat == CHANCE:
            self._draw(TOKEN_INDEX[action["good"]])
        else:
            _HANDLERS[action["type"]](self, seat, action)
        self._advance()

    # ---------------------------------------------------------------- chance
    def _draw(self, good: int) -> None:
        """Put the drawn token where the pending draw goes; refill the bag if it ran out."""
        kind, index, _ = self.draws.pop(0)
        name = TOKENS[good]
        self.hidden["bag"][name] -= 1
        self.bag_size -= 1
        if kind == "market":
            self.market.append(good)
            self.events.append({"type": "drawn", "good": name, "to": BLACK_MARKET})
        elif kind == "port":
            self.port_goods[index].append(good)
            self.events.append({"type": "drawn", "good": name, "to": self.ports[index].name})
        else:
            self.warehouse[index][good] += 1
            self.events.append({"type": "drawn", "good": name, "seat": index})
        self._settle_draws()

    def _settle_draws(self) -> None:
        """Pending draws need tokens: shuffle the discards into an empty bag, or give up."""
        if not self.draws or self.bag_size:
            return
        hidden = self.hidden
        if self.discard_size:
            bag = hidden["bag"]
            for name, count in hidden["discard"].items():
                bag[name] = bag.get(name, 0) + count
            hidden["discard"] = dict.fromkeys(hidden["discard"], 0)
            self.bag_size, self.discard_size = self.discard_size, 0
            self.events.append({"type": "bag_refilled", "tokens": self.bag_size})
        else:
            self.events.append({"type": "bag_empty", "undrawn": len(self.draws)})
            self.draws = []

    # ---------------------------------------------------------- phase I
    def _resolve(self, seat: int, action: Action) -> None:
        place = action["at"]
        if place == CASINO:
            self.at_casino[seat] -= 1
            self.coins[seat] += CASINO_COINS
            self.events.append({"type": "casino", "seat": seat, "coins": CASINO_COINS})
        elif place == BLACK_MARKET:
            self.at_market[seat] -= 1
            self.pending = PENDING_MARKET
        else:
            port = self.port_number[place]
            self.resolved.append(port)
            if any(b for s, b in enumerate(self.port_bids[port]) if s != seat):
                self.pending = port
                self.events.append({"type": "outbid", "seat": seat, "port": place})
            else:
                self._buy_port(seat, port)

    def _buy_port(self, seat: int, port: int) -> None:
        """Pay the stack to the bank, take every good, refill the port from the bag."""
        paid = self.port_bids[port][seat]
        self.port_bids[port][seat] = 0
        goods = self.port_goods[port]
        held = self.warehouse[seat]
        for good in goods:
            held[good] += 1
        self.port_goods[port] = []
        name = self.ports[port].name
        self.events.append(
            {
                "type": "bought_goods",
                "seat": seat,
                "port": name,
                "coins": paid,
                "goods": [TOKENS[g] for g in goods],
            }
        )
        prefix = f"r{self.round}/seat{seat}/refill/{name}"
        self.draws += [("port", port, f"{prefix}/{i}") for i in range(self.ports[port].slots)]
        self._settle_draws()

    def _market_swap(self, seat: int, action: Action) -> None:
        give, take = TOKEN_INDEX[action["give"]], TOKEN_INDEX[action["take"]]
        held = self.warehouse[seat]
        held[give] -= 1
        held[take] += 1
        self.market[self.market.index(take)] = give
        self.pending = NO_PENDING
        self.events.append(
            {"type": "market_swap", "seat": seat, "give": action["give"], "take": action["take"]}
        )

    def _market_draw(self, seat: int, action: Action) -> None:
        key = f"r{self.round}/seat{seat}/market/{self.market_draws}"
        self.market_draws += 1
        self.pending = NO_PENDING
        self.events.append({"type": "market_draw", "seat": seat})
        self.draws.append(("seat", seat, key))
        self._settle_draws()

    def _market_skip(self, seat: int, action: Action) -> None:
        self.pending = NO_PENDING
        self.events.append({"type": "market_skip", "seat": seat})

    def _raise(self, seat: int, action: Action) -> None:
        port, add = self.port_number[action["port"]], action["add"]
        self.coins[seat] -= add
        self.port_bids[port][seat] += add
        self.pending = NO_PENDING
        self.events.append(
            {
                "type": "raise",
                "seat": seat,
                "port": action["port"],
                "add": add,
                "stack": self.port_bids[port][seat],
            }
        )

    def _withdraw(self, seat: int, action: Action) -> None:
        """Take the stack back; one unused Syndicate card pays its bonus."""
        port = self.port_number[action["port"]]
        back = self.port_bids[port][seat]
        self.port_bids[port][seat] = 0
        self.coins[seat] += back
        self.abandoned.append(port)
        bonus = 0
        if self.syndicate_paid < self.cards[seat][SYNDICATE]:
            self.syndicate_paid += 1
            bonus = SYNDICATE_COINS
            self.coins[seat] += bonus
        self.pending = NO_PENDING
        self.events.append(
            {
                "type": "withdraw",
                "seat": seat,
                "port": action["port"],
                "coins_back": back,
                "syndicate_bonus": bonus,
            }
        )

    # --------------------------------------------------------- phase II
    def _start_combination(self, seat: int, action: Action) -> None:
        self.combo_kind = action["kind"]
        self.combo = []

    def _add(self, seat: int, action: Action) -> None:
        good = TOKEN_INDEX[action["good"]]
        self.warehouse[seat][good] -= 1
        self.combo.append(good)

    def _smuggle(self, seat: int, action: Action) -> None:
        """Smuggle the combination: its value becomes credit, its goods are discarded."""
        value = combination_value(self.combo_kind, len(self.combo))
        self.credit += value
        discard = self.hidden["discard"]
        for good in self.combo:
            discard[TOKENS[good]] += 1
        self.discard_size += len(self.combo)
        self.events.append(
            {
                "type": "smuggled",
                "seat": seat,
                "kind": self.combo_kind,
                "goods": [TOKENS[g] for g in self.combo],
                "value": value,
            }
        )
        self.combo_kind = None
        self.combo = []

    def _buy_card(self, seat: int, action: Action) -> None:
        """Pay with credit first, then (last round only) coins; no change."""
        card = CARD_INDEX[action["card"]]
        cost = CARDS[card].cost
        from_credit = min(self.credit, cost)
        self.credit -= from_credit
        self.coins[seat] -= cost - from_credit
        self.cards[seat][card] += 1
        self.cards_left[card] -= 1
        if card == CARGO_SHIP:
            self.ships[seat] += 1
        self.events.append(
            {
                "type": "bought_card",
                "seat": seat,
                "card": action["card"],
                "coins_used": cost - from_credit,
            }
        )

    def _end_smuggling(self, seat: int, action: Action | None = None) -> None:
        """Unspent credit is lost; then discard, send ships, or end the game."""
        if self.credit:
            self.events.append({"type": "credit_lost", "seat": seat, "value": self.credit})
            self.credit = 0
        if self.round == self.rounds and seat == self.num_players - 1:
            self.phase = "over"
            self.events.append({"type": "game_over", **self.outcome()})
        elif sum(self.warehouse[seat]) > self.capacity(seat):
            self.phase = "discard"
        else:
            self.phase = "send"

    def _discard(self, seat: int, action: Action) -> None:
        name = action["good"]
        self.warehouse[seat][TOKEN_INDEX[name]] -= 1
        self.hidden["discard"][name] += 1
        self.discard_size += 1
        self.events.append({"type": "discarded", "seat": seat, "good": name})

    # -------------------------------------------------------- phase III
    def _send(self, seat: int, action: Action) -> None:
        place = action["to"]
        if place == CASINO:
            self.at_casino[seat] += 1
            self.events.append({"type": "sent", "seat": seat, "to": place})
        elif place == BLACK_MARKET:
            self.at_market[seat] += 1
            self.events.append({"type": "sent", "seat": seat, "to": place})
        else:
            self.pending = self.port_number[place]

    def _bid(self, seat: int, action: Action) -> None:
        port, coins = self.port_number[action["port"]], action["coins"]
        self.coins[seat] -= coins
        self.port_bids[port][seat] = coins
        self.pending = NO_PENDING
        self.events.append({"type": "sent", "seat": seat, "to": action["port"], "coins": coins})

    # ------------------------------------------------------ turn structure
    def _advance(self) -> None:
        """Step through everything that needs no decision."""
        while not self.draws:
            phase, seat = self.phase, self.seat
            if phase == "ships":
                if self.pending != NO_PENDING or self.ships_to_resolve(seat):
                    return
                self.phase = "smuggle"
            elif phase == "smuggle":
                if self.combo_kind is not None or self.has_smuggling_choice(seat):
                    return
                self._end_smuggling(seat)
            elif phase == "discard":
                if sum(self.warehouse[seat]) > self.capacity(seat):
                    return
                self.phase = "send"
            elif phase == "send":
                if self.pending != NO_PENDING or self.ships_available(seat):
                    return
                self._next_turn()
            else:
                return

    def _next_turn(self) -> None:
        self.seat += 1
        if self.seat == self.num_players:
            self.seat = 0
            self.round += 1
        self._reset_turn()
        self.phase = "send" if self.round == 1 else "ships"
        self.events.append({"type": "turn", "round": self.round, "seat": self.seat})


_HANDLERS = {
    "resolve": PlayMixin._resolve,
    "market_swap": PlayMixin._market_swap,
    "market_draw": PlayMixin._market_draw,
    "market_skip": PlayMixin._market_skip,
    "raise": PlayMixin._raise,
    "withdraw": PlayMixin._withdraw,
    "start_combination": PlayMixin._start_combination,
    "add": PlayMixin._add,
    "smuggle": PlayMixin._smuggle,
    "buy": PlayMixin._buy_card,
    "end_smuggling": PlayMixin._end_smuggling,
    "discard": PlayMixin._discard,
    "send": PlayMixin._send,
    "bid": PlayMixin._bid,
}

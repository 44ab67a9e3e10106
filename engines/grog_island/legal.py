"""Legal actions of the seat to move, stage by stage, and why others are illegal.

Every list is complete and short: bids are built die by die, ship trades one
unit of goods at a time (see ``docs/engines/grog_island.md``), and an option
is offered only when the decisions after it can still be completed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engines import CHANCE

from .bidding import bid_window, can_bid_fixed, flexible_sums, window
from .data import (
    BUILDING_COST,
    BUILDING_IDS,
    BUILDINGS_ON,
    COLOUR_INDEX,
    COLOURS,
    DIE_FACES,
    FREE,
    OBJECTIVES_KEPT,
    PARROT_HOLD,
    SHIPS,
)
from .trading import capacity, names, payments

if TYPE_CHECKING:
    from .state import GrogState

Action = dict[str, Any]
_PASS: Action = {"type": "pass"}
_PLACE: tuple[Action, ...] = tuple({"type": "place", "colour": c} for c in COLOURS)
"""Shared, read-only actions (every listed action is read-only): built once, not per list."""


class LegalMixin:
    """``legal_actions`` and friends; reads only public fields and the mover's secrets."""

    __slots__ = ()

    def _legal_actions(self: GrogState, seat: int) -> list[Action]:
        if seat == CHANCE or self.stage == "over" or self.queue:
            return []
        if self.returns:
            if seat != self.returns[0]:
                return []
            return self._return_options(seat)
        if seat != self.actor:
            return []
        return _LEGAL_BY_STAGE[self.stage](self, seat)

    def _return_options(self: GrogState, seat: int) -> list[Action]:
        hand = self.private[seat]["objectives"]
        return [{"type": "return_objective", "card": c} for c in sorted(set(hand))]

    # ----------------------------------------------------------------- setup
    def _legal_setup(self: GrogState, seat: int) -> list[Action]:
        if sum(self.goods[seat]) == 0:
            return [{"type": "choose_good", "good": c} for c in COLOURS]
        if len(self.private[seat]["objectives"]) > OBJECTIVES_KEPT:
            return self._return_options(seat)
        return []

    # --------------------------------------------------------------- bidding
    def bid_target(self: GrogState, seat: int) -> int:
        """Mask of the totals ``seat`` may bid now (see :func:`bidding.bid_window`)."""
        return bid_window(self.bid_total, self.capital(seat), self.holding)

    def _legal_bid(self: GrogState, seat: int) -> list[Action]:
        dice = self.dice
        draft = self.draft
        target = self.bid_target(seat)
        actions: list[Action] = []
        if not draft:
            if not self.committed and (self.bidder >= 0 or not can_bid_fixed(dice, target)):
                actions.append(_PASS)
            actions.extend(self._parrot_options(seat, target))
        prefix = sum(dice[c] for c in draft)
        if target >> (prefix + 1):  # some allowed total is above the draft's sum
            last = dice[draft[-1]] if draft else DIE_FACES
            free = [c for c in range(len(COLOURS)) if c not in draft]
            for colour in free:
                value = dice[colour]
                if value > last:
                    continue
                reach = 1
                for other in free:
                    if other != colour and dice[other] <= value:
                        reach |= reach << dice[other]
                if (reach << (prefix + value)) & target:
                    actions.append(_PLACE[colour])
        if draft and (target >> prefix) & 1:
            actions.append({"type": "bid", "total": prefix})
        return actions

    def _parrot_options(self: GrogState, seat: int, target: int) -> list[Action]:
        """Parrot cards worth playing: after each, some legal bid stays reachable."""
        hand = self.private[seat]["parrots"]
        if not hand:
            return []
        counts: dict[str, int] = {}
        for card in hand:
            counts[card] = counts.get(card, 0) + 1
        hold_ok = counts.get(PARROT_HOLD, 0) > 0 and not self.holding and self.bidder >= 0
        hold_target = window(self.bid_total, min(self.bid_total, self.capital(seat)))
        settable = [c for c in range(len(COLOURS)) if counts.get(f"set_{COLOURS[c]}", 0)]
        actions: list[Action] = []
        for colour in settable:
            card = f"set_{COLOURS[colour]}"
            still = [c for c in settable if c != colour or counts[card] > 1]
            goal = target | (hold_target if hold_ok else 0)
            dice = list(self.dice)
            for value in range(1, DIE_FACES + 1):
                if value == self.dice[colour]:
                    continue
                dice[colour] = value
                if flexible_sums(dice, still) & goal:
                    actions.append({"type": "parrot", "card": card, "value": value})
        if hold_ok and flexible_sums(self.dice, settable) & hold_target:
            actions.append({"type": "parrot", "card": PARROT_HOLD})
        return actions

    # ---------------------------------------------------------------- trading
    def exchange_room(self: GrogState, space: int, done: int) -> bool:
        """May one more good go to this ship's exchange (limit and deck left)?"""
        _, gives, most = SHIPS[self.ships[space]]
        if most and done >= most:
            return False
        what, _, deck = gives.partition(":")
        return what != "card" or self.deck_size(deck) > 0

    def can_build(self: GrogState, seat: int, space: int) -> bool:
        return self.crew[seat] > 0 and any(self.occupant[b] == FREE for b in BUILDINGS_ON[space])

    def can_act(self: GrogState, seat: int, space: int) -> bool:
        """Could ``seat`` do at least one action at the ship on ``space``?"""
        units = capacity(self.goods[seat], space)
        if not units:
            return False
        if self.exchange_room(space, 0):
            return True
        return units >= BUILDING_COST and self.can_build(seat, space)

    def _legal_trade_ship(self: GrogState, seat: int) -> list[Action]:
        spaces = self.free_ship_spaces()
        if self._must_trade(seat):
            spaces = [s for s in spaces if self.can_act(seat, s)]
        return [{"type": "choose_ship", "ship": SHIPS[self.ships[s]][0]} for s in spaces]

    def _legal_trade(self: GrogState, seat: int) -> list[Action]:
        space, done, closed, paid, acted, optional = self.trade
        goods = self.goods[seat]
        if paid == BUILDING_COST:
            return [
                {"type": "claim", "building": BUILDING_IDS[b]}
                for b in BUILDINGS_ON[space]
                if self.occupant[b] == FREE
            ]
        options = payments(goods, space)
        actions: list[Action] = []
        if not paid and not closed and self.exchange_room(space, done):
            actions.extend({"type": "exchange", "goods": names(p)} for p in options)
        drawn = self.private[seat]["drawn"]
        if drawn:
            actions.extend({"type": "keep_objective", "card": c} for c in sorted(set(drawn)))
            return actions
        if paid or self.can_build(seat, space):
            need = BUILDING_COST - paid - 1
            for p in options:
                for c in p:
                    goods[c] -= 1
                if capacity(goods, space) >= need:
                    actions.append({"type": "build_pay", "goods": names(p)})
                for c in p:
                    goods[c] += 1
        if not paid and (acted or optional):
            actions.append({"type": "end_trade"})
        return actions

    # ------------------------------------------------------------- winning
    def _legal_pay(self: GrogState, seat: int) -> list[Action]:
        bid, revealed, coins = self.bid_total, self.revealed, self.coins[seat]
        treasures = self.private[seat]["treasures"]
        actions: list[Action] = []
        if revealed < bid and coins + revealed + sum(treasures) >= bid:
            actions.extend({"type": "pay_treasure", "value": v} for v in sorted(set(treasures)))
        if coins + revealed >= bid:
            actions.append({"type": "pay", "coins": max(bid - revealed, 0)})
        if not revealed:
            actions.append({"type": "decline"})
        return actions

    def _legal_reward(self: GrogState, seat: int) -> list[Action]:
        actions: list[Action] = [
            {"type": "claim", "building": BUILDING_IDS[b]} for b in self.claim_options(seat)
        ]
        actions.append({"type": "decline_claims"})
        return actions

    def _legal_lock(self: GrogState, seat: int) -> list[Action]:
        return [{"type": "lock", "building": BUILDING_IDS[b]} for b in self.lock_options()]

    def _legal_ghost(self: GrogState, seat: int) -> list[Action]:
        return [{"type": "ghost", "building": BUILDING_IDS[b]} for b in self.ghost_options()]

    # ----------------------------------------------------------- messages
    def explain_illegal(self: GrogState, seat: int, action: Action, legal: list[Action]) -> str:
        kind = action["type"]
        if seat != CHANCE and self.stage == "bid" and not self.returns:
            cap = self.capital(seat)
            if kind == "pass" and self.committed:
                return f"seat {seat} has started a bid this turn and must finish it"
            if kind == "pass":
                return f"seat {seat} opens the bidding and must open: a legal bid is possible"
            colour_name = action.get("colour")
            if kind == "place" and isinstance(colour_name, str) and colour_name in COLOUR_INDEX:
                colour = COLOUR_INDEX[action["colour"]]
                if colour in self.draft:
                    return f"the {action['colour']} die is already on the bid track"
                if self.draft and self.dice[colour] > self.dice[self.draft[-1]]:
                    return (
                        f"the {action['colour']} die ({self.dice[colour]}) may not follow a "
                        f"lower die ({self.dice[self.draft[-1]]}): values must not increase"
                    )
                return (
                    f"seat {seat} may not place the {action['colour']} die: no bid "
                    f"{'equal to' if self.holding else 'above'} {self.bid_total} and at most "
                    f"{cap} (potential capital) could follow"
                )
            if kind == "bid":
                total = sum(self.dice[c] for c in self.draft)
                if total > cap:
                    return f"seat {seat} may not bid {total}: potential capital is only {cap}"
                return (
                    f"seat {seat} may not bid {total}: it must "
                    f"{'equal' if self.holding else 'exceed'} the current bid {self.bid_total}"
                )
        if kind in ("pay", "pay_treasure") and self.stage == "pay" and seat == self.actor:
            return (
                f"seat {seat} cannot pay {self.bid_total} that way: "
                f"{self.coins[seat]} coins and {self.revealed} revealed in treasure"
            )
        return super().explain_illegal(seat, action, legal)  # type: ignore[misc]


__all__ = ["LegalMixin"]


_LEGAL_BY_STAGE = {
    name.removeprefix("_legal_"): method
    for name, method in vars(LegalMixin).items()
    if name.startswith("_legal_") and name != "_legal_actions"
}
"""Stage -> its ``_legal_<stage>`` method: a dict lookup instead of formatting a name per call."""

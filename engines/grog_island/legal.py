"""Legal actions of the seat to move, stage by stage, and why others are illegal.

Every list is complete and short: bids are built die by die, ship trades one
unit of goods at a time (see ``docs/engines/grog_island.md``), and an option
is offered only when the decisions after it can still be completed.
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING, Any

from engines import CHANCE

from .bidding import any_face, bid_window, can_bid_fixed, following_sums, window
from .data import (
    BUILDING_COST,
    BUILDING_IDS,
    BUILDINGS_ON,
    COLOUR_INDEX,
    COLOURS,
    DIE_FACES,
    FREE,
    OBJECTIVE_KINDS,
    OBJECTIVES_KEPT,
    PARROT_HOLD,
    SHIPS,
    SUBSTITUTE,
    TREASURE_DECK,
    TREASURE_MAX,
)
from .trading import unit_actions

if TYPE_CHECKING:
    from .state import GrogState

Action = dict[str, Any]
_PASS: Action = {"type": "pass"}
_PLACE: tuple[Action, ...] = tuple({"type": "place", "colour": c} for c in COLOURS)
"""Shared, read-only actions (every listed action is read-only): built once, not per list."""
_COLOUR_IDS: tuple[int, ...] = tuple(range(len(COLOURS)))
_SET_CARDS: tuple[str, ...] = tuple(f"set_{c}" for c in COLOURS)
"""The "set die" parrot card of each colour."""
_FACES: tuple[int, ...] = tuple(range(1, DIE_FACES + 1))
_SET_DIE: tuple[dict[int, Action], ...] = tuple(
    {v: {"type": "parrot", "card": card, "value": v} for v in _FACES} for card in _SET_CARDS
)
_SET_COLOUR: dict[str, int] = {card: colour for colour, card in enumerate(_SET_CARDS)}
_HOLD: Action = {"type": "parrot", "card": PARROT_HOLD}
_FREE_AFTER: dict[tuple[int, ...], tuple[int, ...]] = {
    draft: tuple(c for c in _COLOUR_IDS if c not in draft)
    for k in range(1, len(COLOURS) + 1)
    for draft in permutations(_COLOUR_IDS, k)
}
"""The dice not yet on the bid track, for every draft (a lookup, not a scan per list)."""
_THREES = (3,) * len(COLOURS)
"""Payments never need more than three goods of a colour: counts are capped at 3 for the
remembered ``unit_actions`` (the same answers, far fewer keys). Five colours, unpacked."""
_END_TRADE: Action = {"type": "end_trade"}
_DECLINE: Action = {"type": "decline"}
_PAY_TREASURE: dict[int, Action] = {
    v: {"type": "pay_treasure", "value": v} for v in sorted(set(TREASURE_DECK))
}
_PAY: tuple[Action, ...] = tuple({"type": "pay", "coins": n} for n in range(64))
"""Payments of the usual sizes; a larger one (or a foreign treasure value) is built when asked."""
_RETURN: dict[str, Action] = {
    card: {"type": "return_objective", "card": card} for card in OBJECTIVE_KINDS
}
_DECLINE_CLAIMS: Action = {"type": "decline_claims"}
_CLAIM, _LOCK, _GHOST = (
    tuple({"type": kind, "building": name} for name in BUILDING_IDS)
    for kind in ("claim", "lock", "ghost")
)
_CHOOSE_SHIP: tuple[Action, ...] = tuple({"type": "choose_ship", "ship": s[0]} for s in SHIPS)
_SHIP_MOST: tuple[int, ...] = tuple(most for _, _, most in SHIPS)
_SHIP_DECK: tuple[str | None, ...] = tuple(
    gives.partition(":")[2] if gives.startswith("card:") else None for _, gives, _ in SHIPS
)
"""Per ship: the most goods its exchange takes (0: no limit), the deck it draws from."""


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
        return [
            _RETURN.get(c) or {"type": "return_objective", "card": c} for c in sorted(set(hand))
        ]

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
        # The totals ``seat`` may bid are one run lo..hi (see ``bid_target``/``bid_window``).
        current = self.bid_total
        capital = self.coins[seat] + TREASURE_MAX * len(self.private[seat]["treasures"])
        if self.holding:
            lo, hi = current, min(current, capital)
        else:
            lo, hi = current + 1, capital
        actions: list[Action] = []
        if draft:
            prefix = 0
            for c in draft:
                prefix += dice[c]
            last = dice[draft[-1]]
            free = _FREE_AFTER.get(tuple(draft))
            if free is None:
                free = tuple(c for c in _COLOUR_IDS if c not in draft)
        else:
            if not self.committed and (
                self.bidder >= 0 or hi < lo or not can_bid_fixed(dice, window(lo, hi))
            ):
                actions.append(_PASS)
            if self.private[seat]["parrots"]:
                actions.extend(self._parrot_options(seat, window(lo, hi)))
            prefix = 0
            last = DIE_FACES
            free = _COLOUR_IDS
        if hi > prefix and hi >= lo:  # some allowed total is above the draft's sum
            # A die is placeable when its value plus what may follow it lands in a..b (the
            # bid window less the draft's sum): at once if the value alone lies in a..b (bid
            # now), never above b (or above the last die placed), and only below a must the
            # sums of the dice that could follow be looked at.
            a, b = lo - prefix, hi - prefix
            top = last if last < b else b
            reaches = None
            mask = 0
            for colour in free:
                value = dice[colour]
                if value > top:
                    continue
                if value < a:
                    if reaches is None:  # the free dice's faces, sorted: a plain loop and
                        faces = []  # an in-place sort, half the time of sorted(comprehension)
                        for c in free:
                            faces.append(dice[c])
                        faces.sort()
                        reaches = following_sums(tuple(faces))
                        mask = ((1 << (b + 1)) - 1) ^ ((1 << a) - 1)  # window(a, b)
                    if not (reaches[value] << value) & mask:
                        continue
                actions.append(_PLACE[colour])
        if draft and lo <= prefix <= hi:
            actions.append({"type": "bid", "total": prefix})
        return actions

    def _parrot_options(self: GrogState, seat: int, target: int) -> list[Action]:
        """Parrot cards worth playing: after each, some legal bid stays reachable.

        Reachable sums are Minkowski sums (:mod:`.bidding`), so the order of the
        dice does not matter: the sums of the dice no card can set are computed
        once, and each die a card may set adds "any face" on top (``any_face``).
        After a card sets die ``c`` to ``v``, the other settable dice are still
        free: their sums are the same whichever ``c`` it was, so which faces
        keep a bid reachable is answered once for every card.
        """
        hand = self.private[seat]["parrots"]
        if not hand:
            return []
        copies: dict[int, int] = {}  # colour -> its "set die" cards in the hand
        hold_in_hand = False
        for card in hand:
            colour = _SET_COLOUR.get(card)
            if colour is not None:
                copies[colour] = copies.get(colour, 0) + 1
            elif card == PARROT_HOLD:
                hold_in_hand = True
        dice = self.dice
        fixed = 1  # subset sums of the dice no card in hand can set
        for colour in _COLOUR_IDS:
            if colour not in copies:
                fixed |= fixed << dice[colour]
        others = fixed  # ... plus all settable dice but the one a card sets
        for _ in range(len(copies) - 1):
            others = any_face(others)
        every = any_face(others) if copies else fixed  # ... plus every settable die
        hold_ok = hold_in_hand and not self.holding and self.bidder >= 0
        if hold_ok:
            current = self.bid_total
            capital = self.coins[seat] + TREASURE_MAX * len(self.private[seat]["treasures"])
            hold_target = window(current, current if current < capital else capital)
            goal = target | hold_target
        else:
            goal = target
        actions: list[Action] = []
        if copies:
            faces = [value for value in _FACES if (others | others << value) & goal]
            for colour in sorted(copies):
                face = dice[colour]
                table = _SET_DIE[colour]
                if copies[colour] > 1:  # a second card may set this die again: any face does
                    if every & goal:
                        actions += [table[value] for value in _FACES if value != face]
                else:
                    for value in faces:
                        if value != face:
                            actions.append(table[value])
        if hold_ok and every & hold_target:
            actions.append(_HOLD)
        return actions

    # ---------------------------------------------------------------- trading
    def exchange_room(self: GrogState, space: int, done: int) -> bool:
        """May one more good go to this ship's exchange (limit and deck left)?"""
        ship = self.ships[space]
        most = _SHIP_MOST[ship]
        if most and done >= most:
            return False
        deck = _SHIP_DECK[ship]
        return deck is None or self.deck_size(deck) > 0

    def can_build(self: GrogState, seat: int, space: int) -> bool:
        if self.crew[seat] <= 0:
            return False
        occupant = self.occupant
        for b in BUILDINGS_ON[space]:  # noqa: SIM110 (a loop: no generator made per call)
            if occupant[b] == FREE:
                return True
        return False

    def trade_ships(self: GrogState, seat: int) -> tuple[list[int], bool]:
        """The free ship spaces ``seat`` may choose after passing, and whether it must trade.

        A ship is usable when the seat could do at least one action there (see
        :meth:`ship_usable`). The seat must choose a usable ship that wants a
        good it holds, if there is one (else it may choose any free ship).
        """
        goods = self.goods[seat]
        g0, g1, g2, g3, g4 = goods  # five colours: their sum without a call
        held = g0 + g1 + g2 + g3 + g4
        spaces = self.free_ship_spaces()
        usable = []
        must = False
        for space in spaces:
            own = goods[space]
            units = own + (held - own) // SUBSTITUTE  # ``trading.capacity``
            if units and self.ship_usable(seat, space, units):
                usable.append(space)
                if own:
                    must = True
        return (usable if must else spaces), must

    def must_trade(self: GrogState, seat: int) -> bool:
        """``trade_ships(seat)[1]`` for less: only the ships wanting a good the seat holds."""
        goods = self.goods[seat]
        g0, g1, g2, g3, g4 = goods
        held = g0 + g1 + g2 + g3 + g4
        for space in self.free_ship_spaces():
            own = goods[space]
            if own and self.ship_usable(seat, space, own + (held - own) // SUBSTITUTE):
                return True
        return False

    def ship_usable(self: GrogState, seat: int, space: int, units: int) -> bool:
        """Can ``seat``, able to pay ``units`` (> 0) units here, act at the ship on ``space``?

        Its exchange takes a first unit while it has a deck to draw from (no
        exchange's limit is below one unit), or a building there is free and
        affordable.
        """
        deck = _SHIP_DECK[self.ships[space]]
        if deck is None or self.deck_size(deck) > 0:
            return True
        return units >= BUILDING_COST and self.can_build(seat, space)

    def _legal_trade_ship(self: GrogState, seat: int) -> list[Action]:
        ships = self.ships
        actions = []
        for space in self.trade_ships(seat)[0]:  # a loop: no comprehension per choice
            actions.append(_CHOOSE_SHIP[ships[space]])
        return actions

    def _legal_trade(self: GrogState, seat: int) -> list[Action]:
        space, done, closed, paid, acted, optional = self.trade
        goods = self.goods[seat]
        if paid == BUILDING_COST:
            return [_CLAIM[b] for b in BUILDINGS_ON[space] if self.occupant[b] == FREE]
        g0, g1, g2, g3, g4 = goods  # capped at 3 (see _THREES), without a call per count
        exchanges, builds = unit_actions(
            (
                g0 if g0 < 3 else 3,
                g1 if g1 < 3 else 3,
                g2 if g2 < 3 else 3,
                g3 if g3 < 3 else 3,
                g4 if g4 < 3 else 3,
            ),
            space,
        )
        actions: list[Action] = []
        if not paid and not closed and exchanges and self.exchange_room(space, done):
            actions.extend(exchanges)
        drawn = self.private[seat]["drawn"]
        if drawn:
            actions.extend({"type": "keep_objective", "card": c} for c in sorted(set(drawn)))
            return actions
        # Any unit paid leaves exactly one unit less of capacity (one good of the ship's
        # colour, or three others), so either every payment keeps the building
        # affordable or none does.
        if builds and (paid or self.can_build(seat, space)):
            own = goods[space]  # capacity(goods, space), from the counts unpacked above
            if own + (g0 + g1 + g2 + g3 + g4 - own) // SUBSTITUTE - 1 >= BUILDING_COST - paid - 1:
                actions.extend(builds)
        if not paid and (acted or optional):
            actions.append(_END_TRADE)
        return actions

    # ------------------------------------------------------------- winning
    def _legal_pay(self: GrogState, seat: int) -> list[Action]:
        bid, revealed, coins = self.bid_total, self.revealed, self.coins[seat]
        treasures = self.private[seat]["treasures"]
        actions: list[Action] = []
        if revealed < bid and coins + revealed + sum(treasures) >= bid:
            for v in sorted(set(treasures)):
                # prebuilt for the deck's values; exactly an int (1.0 and True hash as 1)
                found = _PAY_TREASURE.get(v) if type(v) is int else None
                actions.append(found or {"type": "pay_treasure", "value": v})
        if coins + revealed >= bid:
            owed = bid - revealed if bid > revealed else 0
            actions.append(_PAY[owed] if owed < len(_PAY) else {"type": "pay", "coins": owed})
        if not revealed:
            actions.append(_DECLINE)
        return actions

    def _legal_reward(self: GrogState, seat: int) -> list[Action]:
        actions: list[Action] = []
        for b in self.claim_options(seat):  # a loop: no comprehension per reward
            actions.append(_CLAIM[b])
        actions.append(_DECLINE_CLAIMS)
        return actions

    def _legal_lock(self: GrogState, seat: int) -> list[Action]:
        return [_LOCK[b] for b in self.lock_options()]

    def _legal_ghost(self: GrogState, seat: int) -> list[Action]:
        return [_GHOST[b] for b in self.ghost_options()]

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

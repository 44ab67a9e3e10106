"""What each action does, and the round flow between decisions.

``_apply`` plays one (already validated) action; ``_settle`` then advances the
game through every step that needs nobody's decision (deterministic draws,
automatic rewards, end of round) until a seat or chance must act. Pending
chance events sit in ``queue`` (first), objective returns in ``returns``
(second), and otherwise ``actor`` decides in ``stage``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engines import CHANCE

from .data import (
    BID_SPACES,
    BUILDING_COST,
    BUILDING_IDS,
    BUILDING_INDEX,
    BUILDINGS,
    BUILDINGS_ON,
    COLOUR_INDEX,
    COLOURS,
    FREE,
    GHOST,
    GHOST_SHIP,
    LOCKED,
    MAX_ROUNDS,
    OBJECTIVES_KEPT,
    OPEN_SEA,
    PARROT_HOLD,
    SAME_TYPE,
    SHIP_INDEX,
    SHIP_SPACES,
    SHIPS,
)
from .scoring import final_scores, ranks

if TYPE_CHECKING:
    from .state import GrogState

_DECK_INDEX = {"objective": 0, "treasure": 1, "parrot": 2}
_POOL_KEYS = {deck: f"{deck}_pool" for deck in _DECK_INDEX}
"""Deck name -> the key in ``hidden`` of its random part (see ``state.POOL_KEYS``)."""
_HAND_KEYS = {deck: f"{deck}s" for deck in _DECK_INDEX}
"""Deck name -> the key in ``private[seat]`` of the hand its cards join."""
_SHIP_SPACES_AT_PENINSULAS = tuple(range(OPEN_SEA))
_COLOUR_IDS = tuple(range(len(COLOURS)))
_SHIP_GIVES: tuple[tuple[str, int, str | None], ...] = tuple(
    (gives, int(amount) if what == "coins" else 0, None if what == "coins" else amount)
    for _, gives, _ in SHIPS
    for what, _, amount in [gives.partition(":")]
)
"""Per ship: what its exchange gives (the event's text), the coins per unit, the deck drawn."""
_BUILDINGS_AND_KINDS_ON: tuple[tuple[tuple[int, str], ...], ...] = tuple(
    tuple((b, BUILDINGS[b][1]) for b in on) for on in BUILDINGS_ON
)
"""Per peninsula, its buildings with their types (claim options read both)."""


class PlayMixin:
    """Effects of actions and the automatic flow of a round."""

    __slots__ = ()

    # ================================================================= apply
    def _apply(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        if seat == CHANCE:
            self._apply_chance(action)
        elif self.returns:
            self._return_objective(seat, action["card"])
            self.returns.pop(0)
        else:
            _DO[action["type"]](self, seat, action)
        # ``_settle`` only runs what needs no decision; skip the call when it would find
        # nothing: chance's next event is not a draw (a die, a cloud, a ship: four rolls
        # in five), an objective return is pending, or the stage waits for a decision.
        queue = self.queue
        if queue:
            if queue[0][0] == "draw":
                self._settle()
        elif not self.returns and self.stage in _AUTO:
            self._settle()

    def _apply_chance(self: GrogState, action: dict[str, Any]) -> None:
        task = self.queue.pop(0)
        kind = task[0]
        if kind == "die":
            self.dice[task[1]] = action["value"]
            self.events.append(
                {"type": "rolled", "colour": action["colour"], "value": action["value"]}
            )
        elif kind == "cloud":
            self.clouds[task[1]] = action["cloud"]
            self.events.append(
                {"type": "cloud", "peninsula": action["peninsula"], "cloud": action["cloud"]}
            )
        elif kind == "ship":
            self.ships[task[1]] = SHIP_INDEX[action["ship"]]
            self.events.append({"type": "ship", "space": task[1], "ship": action["ship"]})
        else:
            pool = self.hidden[_POOL_KEYS[task[1]]]
            pool.remove(action["card"])
            self._receive(task[1], task[2], task[3], action["card"])

    def _receive(self: GrogState, deck: str, seat: int, dest: str, card: Any) -> None:
        """A drawn card reaches a seat's hand (or its pending ship draws)."""
        self.draws[_DECK_INDEX[deck]][seat] += 1
        key = "drawn" if dest == "drawn" and deck == "objective" else _HAND_KEYS[deck]
        self.private[seat][key].append(card)
        self.events.append({"type": "drew", "deck": deck, "seat": seat})

    def _draw(self: GrogState, deck: str, seat: int, dest: str = "hand") -> None:
        """Queue one draw for ``seat`` (only called when the deck is not empty)."""
        self.queue.append(["draw", deck, seat, dest])

    # ================================================================ settle
    def _settle(self: GrogState) -> None:
        """Run every step that needs no decision, until someone must act."""
        while True:
            queue = self.queue
            if queue:
                task = queue[0]
                if task[0] != "draw":
                    return
                deck = task[1]
                if self.hidden[_POOL_KEYS[deck]]:
                    return
                queue.pop(0)
                bottom = self.hidden["objective_bottom"] if deck == "objective" else []
                if bottom:
                    self._receive(deck, task[2], task[3], bottom.pop(0))
                continue
            if self.returns:
                return
            step = _AUTO.get(self.stage)
            if step is None or not step(self):
                return

    # ================================================================= setup
    def _do_choose_good(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        self.goods[seat][COLOUR_INDEX[action["good"]]] += 1
        self.events.append({"type": "chose_good", "seat": seat, "good": action["good"]})

    def _do_return_objective(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        self._return_objective(seat, action["card"])

    def _return_objective(self: GrogState, seat: int, card: str) -> None:
        self.private[seat]["objectives"].remove(card)
        self.hidden["objective_bottom"].append(card)
        self.events.append({"type": "returned_objective", "seat": seat})

    def _auto_setup(self: GrogState) -> bool:
        seat = self.actor
        if seat < self.num_players and (
            sum(self.goods[seat]) == 0 or len(self.private[seat]["objectives"]) > OBJECTIVES_KEPT
        ):
            return False
        if seat + 1 < self.num_players:
            self.actor = seat + 1
            return True
        self._start_round()
        return True

    # ================================================================ rounds
    def _start_round(self: GrogState) -> None:
        self.round += 1
        self.events.append({"type": "round", "round": self.round, "start_player": self.start})
        self.bid = []
        self.bid_total = 0
        self.bidder = -1
        self.winner = -1
        self.active = [True] * self.num_players
        self.passers = []
        queue = self.queue
        for colour in _COLOUR_IDS:  # a loop: no generator resumed per die
            queue.append(["die", colour])
        self.stage = "roll"

    def _auto_roll(self: GrogState) -> bool:
        self._begin_turn(self.start)
        return True

    def _begin_turn(self: GrogState, seat: int) -> None:
        self.stage = "bid"
        self.actor = seat
        self.draft = []
        self.committed = False
        self.holding = False

    def _auto_next_turn(self: GrogState) -> bool:
        active = self.active
        left = active.count(True)  # seats still bidding (``active`` holds bools)
        if not left:
            self.stage = "end_auction"
        elif left == 1 and active[self.bidder] and self.bidder >= 0:
            self.winner = self.bidder
            self.stage = "pay"
            self.actor = self.bidder
            self.revealed = 0
            self.events.append({"type": "won_auction", "seat": self.bidder, "bid": self.bid_total})
        else:  # the next seat still bidding after the actor (there is one: ``left`` > 0)
            n = self.num_players
            nxt = (self.actor + 1) % n
            while not active[nxt]:
                nxt = (nxt + 1) % n
            self._begin_turn(nxt)
        return True

    # =============================================================== bidding
    def _do_parrot(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        card = action["card"]
        self.private[seat]["parrots"].remove(card)
        self.committed = True
        event: dict[str, Any] = {"type": "parrot_played", "seat": seat, "card": card}
        if card == PARROT_HOLD:
            self.holding = True
        else:
            colour = COLOUR_INDEX[card[4:]]
            self.dice[colour] = action["value"]
            event["value"] = action["value"]
        self.events.append(event)

    def _do_place(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        self.draft.append(COLOUR_INDEX[action["colour"]])
        self.committed = True

    def _do_bid(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        # One loop over the draft (at most five dice) for the total and the colours' names:
        # a generator for sum() and a comprehension cost more than the work on so few items.
        self.bid = draft = self.draft
        self.draft = []
        dice = self.dice
        total = 0
        names = []
        for c in draft:
            total += dice[c]
            names.append(COLOURS[c])
        self.bid_total = total
        self.bidder = seat
        self.events.append(
            {"type": "bid", "seat": seat, "dice": names, "total": total, "hold": self.holding}
        )
        self.stage = "next_turn"

    def _do_pass(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        self.active[seat] = False
        self.passers.append(seat)
        taken = list(self.bid)
        ghost = self.ghost_space()
        if ghost != OPEN_SEA:
            taken.append(ghost)
        goods = self.goods[seat]
        names = []  # one loop for the goods and their names (no comprehension per pass)
        for colour in taken:
            goods[colour] += 1
            names.append(COLOURS[colour])
        self.events.append({"type": "passed", "seat": seat, "goods": names})
        self.stage = "trade_ship"

    # =============================================================== trading
    def _do_choose_ship(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        space = self.ships.index(SHIP_INDEX[action["ship"]])
        optional = not self.must_trade(seat)
        self.discs[space] = seat
        # trade: [space, exchange units, exchange closed, building units paid, acted, optional]
        self.trade = [space, 0, 0, 0, 0, int(optional)]
        self.stage = "trade"
        self.events.append(
            {
                "type": "trade_ship",
                "seat": seat,
                "ship": action["ship"],
                "peninsula": COLOURS[space],
            }
        )

    def _do_exchange(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        trade = self.trade
        self._pay_unit(seat, action["goods"])
        trade[1] += 1
        trade[4] = 1
        gives, coins, deck = _SHIP_GIVES[self.ships[trade[0]]]
        if deck is None:
            self.coins[seat] += coins
        else:
            self._draw(deck, seat, "drawn" if deck == "objective" else "hand")
        self.events.append(
            {"type": "exchanged", "seat": seat, "goods": list(action["goods"]), "gives": gives}
        )

    def _do_keep_objective(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        drawn = self.private[seat]["drawn"]
        drawn.remove(action["card"])
        self.private[seat]["objectives"].append(action["card"])
        self.hidden["objective_bottom"].extend(drawn)
        returned = len(drawn)
        drawn.clear()
        self.trade[2] = 1
        self.events.append({"type": "kept_objective", "seat": seat, "returned": returned})

    def _pay_unit(self: GrogState, seat: int, names: list[str]) -> None:
        """Remove the goods of one unit payment, named as in its action (known affordable)."""
        goods = self.goods[seat]
        for name in names:
            goods[COLOUR_INDEX[name]] -= 1

    def _do_build_pay(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        self._pay_unit(seat, action["goods"])
        self.trade[3] += 1
        self.events.append(
            {"type": "paid_for_building", "seat": seat, "goods": list(action["goods"])}
        )

    def _do_end_trade(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        if not self.trade[4]:
            self.events.append({"type": "trade_skipped", "seat": seat})
        self.trade = []
        self.stage = "next_turn"

    # ============================================================ buildings
    def _do_claim(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        building = BUILDING_INDEX[action["building"]]
        if self.stage == "trade":
            self.trade[3] -= BUILDING_COST
            self.trade[4] = 1
        else:
            colour = BUILDINGS[building][0]
            self.claims.remove(colour)
            self.claimed_types.append(BUILDINGS[building][1])
        self._claim(seat, building)

    def _claim(self: GrogState, seat: int, building: int) -> None:
        """Crew on a free building, the white-cloud reward, the coin bonus."""
        peninsula = BUILDINGS[building][0]
        self.occupant[building] = seat
        self.crew[seat] -= 1
        if self.crew[seat] == 0:
            self.last_crew = True
        cloud = self.clouds[peninsula]
        event: dict[str, Any] = {
            "type": "claimed",
            "seat": seat,
            "building": BUILDING_IDS[building],
            "cloud": cloud,
        }
        if cloud == "vp":
            self.vp[seat] += 1
        elif cloud == "parrot" and self.deck_size("parrot"):
            self._draw("parrot", seat)
        elif cloud == "objective_swap" and self.deck_size("objective"):
            self._draw("objective", seat)
            self.returns.append(seat)
        bonus = 0
        if cloud != "black":
            occupant = self.occupant
            for other in SAME_TYPE[building]:  # a loop: no generator for sum() per claim
                if occupant[other] == FREE:
                    bonus += 1
            self.coins[seat] += bonus
        event["coins"] = bonus
        self.events.append(event)

    # ============================================================== winning
    def _do_pay_treasure(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        self.private[seat]["treasures"].remove(action["value"])
        self.revealed += action["value"]
        self.events.append({"type": "treasure_paid", "seat": seat, "value": action["value"]})

    def _do_pay(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        owed = self.bid_total - self.revealed
        self.coins[seat] -= owed  # negative owed is change
        self.events.append(
            {
                "type": "paid",
                "seat": seat,
                "bid": self.bid_total,
                "coins": max(owed, 0),
                "change": max(-owed, 0),
            }
        )
        # The rewards of the bid spaces the dice lie on, in one loop over the bid.
        claims = []
        lock_colour = -1
        for colour, reward in zip(self.bid, BID_SPACES, strict=False):
            if reward == "claim":
                claims.append(colour)
            elif reward == "vp":
                self.vp[seat] += 1
            elif reward == "lock" and lock_colour < 0:
                lock_colour = colour
        self.claims = claims
        self.claimed_types = []
        self.lock_colour = lock_colour
        self.stage = "reward"

    def _do_decline(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        self.events.append({"type": "declined_payment", "seat": seat, "bid": self.bid_total})
        self.stage = "end_auction"

    def claim_options(self: GrogState, seat: int) -> list[int]:
        """Free buildings the auction winner may claim now (different types)."""
        if self.crew[seat] <= 0:
            return []
        taken, occupant = self.claimed_types, self.occupant
        options = []
        for colour in self.claims:
            for b, kind in _BUILDINGS_AND_KINDS_ON[colour]:
                if occupant[b] == FREE and kind not in taken:
                    options.append(b)
        return options

    def _can_claim(self: GrogState) -> bool:
        """``claim_options(actor)`` is not empty: the first option found is enough."""
        if self.crew[self.actor] <= 0:
            return False
        taken, occupant = self.claimed_types, self.occupant
        for colour in self.claims:
            for b, kind in _BUILDINGS_AND_KINDS_ON[colour]:
                if occupant[b] == FREE and kind not in taken:
                    return True
        return False

    def _auto_reward(self: GrogState) -> bool:
        if self.claims and self._can_claim():
            return False
        self.claims = []
        self.stage = "lock"
        return True

    def _do_decline_claims(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        self.events.append({"type": "declined_claims", "seat": seat})
        self.claims = []

    def lock_options(self: GrogState) -> list[int]:
        if self.lock_colour < 0 or self.locks_left <= 0:
            return []
        return [b for b in BUILDINGS_ON[self.lock_colour] if self.occupant[b] == FREE]

    def _auto_lock(self: GrogState) -> bool:
        if self.lock_options():
            return False
        self.lock_colour = -1
        self.stage = "end_auction"
        return True

    def _do_lock(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        self.occupant[BUILDING_INDEX[action["building"]]] = LOCKED
        self.locks_left -= 1
        self.lock_colour = -1
        self.events.append({"type": "locked", "seat": seat, "building": action["building"]})
        self.stage = "end_auction"

    # ========================================================== end of round
    def ghost_options(self: GrogState) -> list[int]:
        space = self.ghost_space()
        if space == OPEN_SEA or self.ghost_crew <= 0:
            return []
        return [b for b in BUILDINGS_ON[space] if self.occupant[b] == FREE]

    def _auto_end_auction(self: GrogState) -> bool:
        if self.num_players == 2 and self.ghost_options():
            if self.winner >= 0:
                self.actor = 1 - self.winner
            else:
                self.actor = self.passers[0]
            self.stage = "ghost"
        else:
            self.stage = "end_round"
        return True

    def _do_ghost(self: GrogState, seat: int, action: dict[str, Any]) -> None:
        self.occupant[BUILDING_INDEX[action["building"]]] = GHOST
        self.ghost_crew -= 1
        self.events.append({"type": "ghost_crew", "seat": seat, "building": action["building"]})
        self.stage = "end_round"

    def _auto_end_round(self: GrogState) -> bool:
        self.discs = [-1] * SHIP_SPACES
        self.ships = [self.ships[-1], *self.ships[:-1]]
        self.start = (self.start + 1) % self.num_players
        names = []
        for ship in self.ships:  # a loop: no comprehension per round
            names.append(SHIPS[ship][0])
        self.events.append({"type": "ships_moved", "ships": names})
        if self.last_crew or self.round >= MAX_ROUNDS:
            self._finish()
        else:
            self._start_round()
        return True

    def _finish(self: GrogState) -> None:
        table = final_scores(
            self.num_players, self.vp, self.coins, self.goods, self.occupant, self.private
        )
        totals = [row["total"] for row in table]
        self.final = {
            "scores": totals,
            "ranks": ranks(totals, list(self.coins)),
            "breakdown": table,
        }
        self.stage = "over"
        self.events.append({"type": "game_over", "scores": totals, "ranks": self.final["ranks"]})

    # ============================================================= helpers
    def free_ship_spaces(self: GrogState) -> list[int]:
        """Ships a passing player may use: not at sea, no disc, not the ghost.

        A loop, not a comprehension: on five spaces the comprehension's own call
        costs as much as the tests (this runs twice per ship choice).
        """
        ghost = GHOST_SHIP if self.num_players == 2 else -1
        discs, ships = self.discs, self.ships
        free = []
        for space in _SHIP_SPACES_AT_PENINSULAS:
            if discs[space] < 0 and ships[space] != ghost:
                free.append(space)
        return free


__all__ = ["PlayMixin"]


_DO = {
    name.removeprefix("_do_"): method
    for name, method in vars(PlayMixin).items()
    if name.startswith("_do_")
}
"""Action type -> its ``_do_<type>`` method (a lookup, not a name formatted per move)."""
_AUTO = {
    name.removeprefix("_auto_"): method
    for name, method in vars(PlayMixin).items()
    if name.startswith("_auto_")
}
"""Stage -> its ``_auto_<stage>`` step, for the stages that run without a decision."""

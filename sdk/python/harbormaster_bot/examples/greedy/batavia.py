"""Greedy Batavia: take the trading post worth the most gold for the fewest cards.

A trading post is worth what its crate adds to this seat's standing in that
good's majority (the gold it would win or secure at the end), plus the gold
of the conversion it unlocks when it is of a company this seat holds no post
of, minus a little for every untaken post the merchant would jump over (the
merchant never comes back). Each turn the bot compares the best post it can
reach - cards needed to win that company's majority counted at a price - with
drawing two cards; it plays the fewest cards that win the majority, moves to
the best post its seals allow, and converts every post it may. Bids stay
small (a letter paid is a letter given to the rivals) except with letters to
spare beyond what keeps it ahead for the "most letters" gold.

Scoring numbers are the ones in ``docs/engines/batavia.md``.
"""

from __future__ import annotations

import random
from typing import Any

from .common import Action, View, best_index, first_index

GOOD_GOLD = {
    "tea": (10, 5),
    "cotton": (11, 5),
    "porcelain": (12, 6),
    "silk": (13, 6),
    "ginger": (14, 7),
    "nutmeg": (15, 7),
    "pepper": (16, 8),
}
"""Per good: gold for the sole majority of crates, and for a tie."""
CONVERSION_GOLD = (0, 1, 3, 6, 10, 15)
"""Gold for converting posts of 0..5 distinct companies."""
CARD_COST = 0.8
"""Gold-equivalent of a card spent to win a majority."""
DRAW_VALUE = 1.5
"""Value of drawing two cards instead of playing."""
SKIP_PENALTY = 0.6
"""Per untaken face-up post the merchant would jump over."""
UNKNOWN_POST_VALUE = 3.0
"""A face-down post: some crate, good unknown."""
BID_PER_CARD = 0.75
"""Letters the bot would pay per card in the lot."""
SURPLUS_PER_CARD = 2.0
"""Further letters per card it pays from letters beyond what keeps it the richest."""
LETTERS_PER_PLAYER = 15


def _players(view: View) -> list[dict[str, Any]]:
    return sorted(view["players"], key=lambda p: p["seat"])


def crate_gain(view: View, good: str) -> float:
    """Gold-equivalent of one more crate of ``good`` for this seat."""
    me = view["you"]
    players = _players(view)
    if players[me].get("crates_left", 1) <= 0:
        return 0.0
    mine = players[me]["crates"][good]
    other = max(p["crates"][good] for p in players if p["seat"] != me)
    full, tie = GOOD_GOLD[good]

    def gold(m: int) -> float:
        if m > other:
            return full
        if m == other and m > 0:
            return tie
        return 0.0

    gain = gold(mine + 1) - gold(mine)
    if gain <= 0:
        # Already ahead (a lead to secure) or far behind (a lead to build towards).
        gain = full / (2 + abs(mine + 1 - other))
    return gain + 0.5


def conversion_gain(view: View, company: str) -> float:
    """Gold a post of ``company`` unlocks by allowing a conversion now."""
    me = view["you"]
    posts = _players(view)[me]["posts"]
    if posts.get(company, 0):
        return 0.0
    held = sum(1 for c, n in posts.items() if n and c != company)
    return float(CONVERSION_GOLD[min(held, len(CONVERSION_GOLD) - 1)])


def post_value(view: View, company: str) -> float | None:
    """Value of moving the merchant to the next post of ``company``; None if none is left."""
    me = view["you"]
    merchant = _players(view)[me]["merchant"]
    skipped = 0
    face_down_ahead = False
    for space in view.get("track") or []:
        if space["space"] <= merchant:
            continue
        if space.get("face_down"):
            face_down_ahead = True
            continue
        if space.get("taken_by") is not None:
            continue
        if space["company"] == company:
            return (
                crate_gain(view, space["good"])
                + conversion_gain(view, company)
                - SKIP_PENALTY * skipped
            )
        skipped += 1
    if face_down_ahead:
        return UNKNOWN_POST_VALUE + conversion_gain(view, company) - SKIP_PENALTY * skipped
    return None


def cards_needed(view: View, company: str, extra_mine: int = 0) -> int:
    """Cards of ``company`` this seat must still play to hold its strict majority."""
    me = view["you"]
    players = _players(view)
    mine = players[me]["front"][company] + extra_mine
    other = max(p["front"][company] for p in players if p["seat"] != me)
    return max(0, other + 1 - mine)


def best_target(view: View, played: dict[str, int] | None = None) -> tuple[float, str | None]:
    """(value, company) of the best post reachable with the hand; (-inf, None) if none."""
    hand = (view.get("private") or {}).get("hand") or {}
    best: tuple[float, str | None] = (float("-inf"), None)
    for company, held in hand.items():
        need = cards_needed(view, company)
        if need > held:
            continue
        value = post_value(view, company)
        if value is None:
            continue
        score = value - CARD_COST * need
        if score > best[0]:
            best = (score, company)
    for company in view.get("seals") or {}:
        if (view.get("seals") or {}).get(company) == view["you"] and cards_needed(
            view, company
        ) == 0:
            value = post_value(view, company)
            if value is not None and value > best[0]:
                best = (value, company)
    return best


def choose_act(view: View, legal: list[Action], rng: random.Random) -> int:
    plays = {a["company"]: i for i, a in enumerate(legal) if a["type"] == "play"}
    draw = first_index(legal, type="draw")
    value, target = best_target(view)
    deck = view.get("deck_size", 0) + view.get("discard_size", 0)
    draw_value = DRAW_VALUE if deck else 0.0
    if target is None or not plays or (draw is not None and value - CARD_COST < draw_value):
        return draw if draw is not None else 0
    return _play_towards(view, legal, plays, target, rng)


def _play_towards(
    view: View, legal: list[Action], plays: dict[str, int], target: str, rng: random.Random
) -> int:
    """Play a card of ``target`` if it still needs cards, else the least useful card."""
    if target in plays and cards_needed(view, target) > 0:
        return plays[target]
    if target in plays:
        return plays[target]
    hand = (view.get("private") or {}).get("hand") or {}
    return best_index(
        legal, lambda a: hand.get(a.get("company"), 0) if a["type"] == "play" else -1, rng
    )


def choose_play(view: View, legal: list[Action], rng: random.Random) -> int:
    done = first_index(legal, type="done")
    plays = {a["company"]: i for i, a in enumerate(legal) if a["type"] == "play"}
    value, target = best_target(view)
    if done is not None and (target is None or cards_needed(view, target) == 0):
        return done
    if done is not None and target is not None:
        # Worth more cards only if the better post beats the one already in reach.
        current = max(
            (
                v
                for c, holder in (view.get("seals") or {}).items()
                if holder == view["you"] and (v := post_value(view, c)) is not None
            ),
            default=float("-inf"),
        )
        if current >= value:
            return done
    if target is not None and target in plays:
        return plays[target]
    if plays:
        hand = (view.get("private") or {}).get("hand") or {}
        candidates = [a for a in legal if a["type"] == "play"]
        pick = max(
            candidates, key=lambda a: (-cards_needed(view, a["company"]), hand[a["company"]])
        )
        return legal.index(pick)
    return done if done is not None else 0


def choose_move(view: View, legal: list[Action], rng: random.Random) -> int:
    def score(action: Action) -> float:
        value = post_value(view, action["company"])
        return float("-inf") if value is None else value

    return best_index(legal, score, rng)


def choose_bid(view: View, legal: list[Action], rng: random.Random) -> int:
    lot = sum((view.get("lot") or {}).values())
    letters = (view.get("private") or {}).get("letters", 0)
    others = view["num_players"] - 1
    # Letters are conserved: the rivals hold the rest, at least this many for the richest.
    rival_max = -(-(LETTERS_PER_PLAYER * (others + 1) - letters) // others)
    surplus = max(0, letters - rival_max - 1)
    limit = int(BID_PER_CARD * lot) + min(surplus, int(SURPLUS_PER_CARD * lot))
    bids = [(a["amount"], i) for i, a in enumerate(legal) if a["type"] == "bid"]
    affordable = [b for b in bids if b[0] <= limit]
    if affordable:
        return min(affordable)[1]
    passing = first_index(legal, type="pass")
    return passing if passing is not None else 0


def choose(view: View, legal: list[Action], rng: random.Random) -> int:
    """The greedy Batavia decision for any phase (see the module docstring)."""
    phase = view.get("phase")
    if phase == "bid":
        return choose_bid(view, legal, rng)
    if phase == "act":
        return choose_act(view, legal, rng)
    if phase == "play":
        return choose_play(view, legal, rng)
    if phase == "move":
        return choose_move(view, legal, rng)
    if phase == "convert":
        # Converting every post allowed pays most (the gold table grows faster than linearly).
        return best_index(legal, lambda a: 1.0 if a["type"] == "convert" else 0.0, rng)
    return 0

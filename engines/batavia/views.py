"""What every seat and spectator sees: everything but hands, letters, deck and discard."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .rules import COMPANIES, FACE_DOWN, GOODS, NUM_GOODS, pirate_threshold
from .turn import convertible, destinations

if TYPE_CHECKING:
    from .state import BataviaState


def _by_company(counts: list[int]) -> dict[str, int]:
    return {name: counts[c] for c, name in enumerate(COMPANIES)}


def _space(st: BataviaState, space: int) -> dict[str, Any]:
    code = st.track[space]
    if code == FACE_DOWN:
        return {"space": space, "face_down": True}
    entry: dict[str, Any] = {
        "space": space,
        "company": COMPANIES[code // NUM_GOODS],
        "good": GOODS[code % NUM_GOODS],
    }
    if st.taken_by[space] >= 0:
        entry["taken_by"] = st.taken_by[space]
    return entry


def _player(st: BataviaState, seat: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "hand_size": st.hand_size[seat],
        "merchant": st.merchants[seat],
        "front": _by_company(st.front[seat]),
        "seals": [name for c, name in enumerate(COMPANIES) if st.seals[c] == seat],
        "posts": _by_company(st.posts[seat]),
        "crates": {g: st.crates[seat][i] for i, g in enumerate(GOODS)},
        "crates_left": st.crates_left[seat],
        "gold": st.gold[seat],
        "final_hex": st.final_hex == seat,
    }


def public_view(st: BataviaState) -> dict[str, Any]:
    n = st.num_players
    front_totals = [sum(row[c] for row in st.front) for c in range(len(COMPANIES))]
    view: dict[str, Any] = {
        "game": "batavia",
        "num_players": n,
        "options": dict(st.options),
        "round": st.round,
        "phase": st.phase,
        "to_move": st.to_move,
        "auctioneer": st.auctioneer,
        "first_player": st.first_player if st.first_player >= 0 else None,
        "die": st.die or None,
        "lot": _by_company(st.lot),
        "auction": None,
        "deck_size": st.deck_size,
        "discard_size": st.discard_size,
        "cards_in_play": _by_company(front_totals),
        "cards_in_play_total": sum(front_totals),
        "pirate_threshold": pirate_threshold(n),
        "seals": {
            name: (st.seals[c] if st.seals[c] >= 0 else None) for c, name in enumerate(COMPANIES)
        },
        "track": [_space(st, i) for i in range(len(st.track))],
        "final_hex_taken_by": st.final_hex if st.final_hex >= 0 else None,
        "players": [_player(st, s) for s in range(n)],
        "turn": None,
    }
    if st.phase == "bid":
        view["auction"] = {
            "bid": st.bid if st.bid >= 0 else None,
            "high_bidder": st.high_bidder if st.high_bidder >= 0 else None,
            "still_in": [s for s in range(n) if st.in_auction[s]],
        }
    acting = ("act", "play", "move", "convert", "draw")
    if st.phase in acting or st.after_reveal in ("move", "taken"):
        seat = st.turn
        turn: dict[str, Any] = {
            "seat": seat,
            "acted_this_round": st.acted,
            "played": _by_company(st.turn_played),
        }
        if st.phase == "move":
            turn["destinations"] = [COMPANIES[c] for c in destinations(st, seat)]
        if st.phase == "convert":
            turn["new_post_company"] = COMPANIES[st.new_post]
            turn["convert_chosen"] = list(st.convert_chosen)
            turn["convertible"] = [COMPANIES[c] for c in convertible(st, seat)]
        view["turn"] = turn
    if st.final is not None:
        view["final"] = st.final
        view["letters"] = [p["letters"] for p in st.private]
    return view

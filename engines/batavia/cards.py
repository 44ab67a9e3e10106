"""Ship cards: the deck and discard pile (secret), drawn one card at a time by chance.

The deck is kept as counts per company, not as an order: each draw is a
chance event whose outcomes are the companies left in the deck, weighted by
how many cards of each remain -- the same as drawing the top card of a
shuffled deck, with no order to hide. When the deck is empty and a card is
needed, the discard pile becomes the deck ("reshuffle"); when both are empty
nothing more is drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import COMPANIES

if TYPE_CHECKING:
    from engines.base import Action

    from .state import BataviaState


def card_outcomes(st: BataviaState) -> list[tuple[Action, float]]:
    deck = st.hidden["deck"]
    total = sum(deck.values())
    return [(_CARD[name], deck[name] / total) for name in COMPANIES if deck[name]]


_CARD: dict[str, Action] = {name: {"type": "card", "company": name} for name in COMPANIES}
"""Card actions built once (read-only, like every listed action)."""


def stock_ready(st: BataviaState) -> bool:
    """Whether a card can be drawn, reshuffling the discard pile into the deck if needed."""
    if st.deck_size:
        return True
    if not st.discard_size:
        return False
    hidden = st.hidden
    hidden["deck"], hidden["discard"] = hidden["discard"], hidden["deck"]
    st.deck_size, st.discard_size = st.discard_size, 0
    st.events.append({"type": "reshuffled", "cards": st.deck_size})
    return True


def discard(st: BataviaState, company: int, count: int) -> None:
    st.hidden["discard"][COMPANIES[company]] += count
    st.discard_size += count


def take_card(st: BataviaState, company: str) -> None:
    """Take one card of ``company`` off the deck; the module of the phase decides where it goes."""
    st.hidden["deck"][company] -= 1
    st.deck_size -= 1

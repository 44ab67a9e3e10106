"""Batavia: auctions of ship cards, company majorities and a race along the trading posts.

Rules, actions, views, every assumed number and
engine decision: ``docs/engines/batavia.md``. Engine decisions in short:

* Face-down posts are not fixed until revealed; a reveal is a chance event
  constrained so each block of five holds each company once and each
  company's seven posts are one of each good (the setup's distribution).
* The deck is counts per company; each draw is a weighted chance event. The
  discard pile becomes the deck when a card is needed and the deck is empty.
* Compound turns: ``play`` one card at a time then ``done``; ``move`` picks
  the company when several seals allow a move (automatic when one does);
  ``convert`` one company at a time then ``convert_done``; bids are single
  amounts from current bid + 1 to the letters held, or ``pass``.
* A player who cannot beat the current bid is still asked (may only pass),
  so whose turn it is never depends on a secret.
* No face-up post of the chosen company ahead but face-down spaces remain:
  the next block is revealed (it always holds that company), then the move.
* Pirates are checked after each play action (not after a draw), once.
* A player out of crates still takes the post but places no crate; crates
  are counted per good (scoring needs nothing else).
* Good majorities and the letters bonus need at least one crate / letter.
* Stalemate: a round whose action phase began with deck and discard empty,
  in which nobody played and they are still empty, ends the game (scored as
  usual, no final hex) -- otherwise draw-only play could loop forever.
* Gold is public; letters are private (counts only revealed at the end),
  though every bid and payment is in the public log.
"""

from .engine import BataviaEngine
from .state import BataviaState

ENGINE = BataviaEngine()
BataviaState.engine = ENGINE

__all__ = ["ENGINE", "BataviaEngine", "BataviaState"]

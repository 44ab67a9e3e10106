"""Manila (Zoch, 2005) for 3-5 players.

The rules, the action/view formats and every engine decision with the
rulebook passage it rests on: ``docs/engines/manila.md``. Version 2 (two
rules corrected: the penniless stowaway and the second pirate's boarding
decision). In short (where the rulebook leaves a choice open, or where a
compound turn is split into small decisions):

* Chance: the 12 starting shares are dealt one at a time (key
  ``deal/seat{s}/card{i}``); each die is one chance decision per boat at sea
  per movement (key ``v{voyage}/m{movement}/{good}``), rolled in the order
  ginseng, nutmeg, silk, jade. A boat already in the harbor rolls no die.
* Hidden: each seat's shares by good are in ``private[seat]`` (opponents see
  counts: held, mortgaged, and the shares bought in the open); the undealt
  starting shares are in ``hidden`` until the deal ends, then they join the
  open supply.
* Mortgaging is automatic and minimal. A mortgage is a count per player, not
  tied to a good (which share is mortgaged changes nothing in the rules or
  the score). A share bought with mortgaged money cannot itself pay for the
  purchase: affordability is cash + 12 x unmortgaged shares before buying.
* Bids are listed in pages of 48 amounts above the high bid, with
  ``more_bids`` for the next page: every affordable bid is reachable and no
  list exceeds 50. The high bidder is not asked again unless outbid.
* The harbor master may buy a share only if one is in supply and affordable;
  otherwise the buy step is skipped. Boats are started one at a time, any
  order, each start only on spaces that still allow a sum of 9.
* A boat already in the harbor takes no more crew; docks and yards stay open
  whether or not a boat lies there. A pirate-ship space freed by boarding is
  free again for later placement rounds. Stowaways -- a player with no money
  and no share left to mortgage (even while the free insurance office is
  open), or one who cannot pay for any free space -- may take any free boat
  seat for free.
* Two or more boats reaching the harbor in one movement, or going to the
  shipyard at the end: the harbor master orders them (one decision, a
  permutation). After movement 3, with nobody on the pirate ship, a boat on
  13 counts as reaching the harbor in that movement.
* Boarding (after movement 2): the captain boards one boat on 13 with a free
  seat, or stays; then the second pirate decides the same, whether the
  captain boarded or stayed (if the captain boarded, the second pirate is
  captain from then on). Variant ``pirates_replace``: on a full boat the
  pirate sends one crew member home (``evict`` = crew index), never a
  pirate who boarded this voyage.
* Pilots move one boat one space per decision (small: one step; large: two,
  the second either the same boat onward in the same direction or another
  boat). A boat on 0 cannot move back; a boat moved past 13 docks at once.
* Plunder: the pirates are paid at once; the captain then sends each
  plundered boat (in the order the captain picks) to the harbor (first free
  dock now) or to the shipyard (joins the boats repaired at the end).
* Redeeming: after each voyage but the last, in seat order from the harbor
  master, each player with a mortgaged share and at least 15 pesos chooses
  how many to redeem (0..k). Not offered after the last voyage, where it
  cannot change wealth.
"""

from .engine import ENGINE, Manila
from .state import ManilaState

__all__ = ["ENGINE", "Manila", "ManilaState"]

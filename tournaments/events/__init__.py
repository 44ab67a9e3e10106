"""Running an event: entries, the lifecycle, rounds paired exactly once, what is stuck.

The services the admin, the pages and the REST API call (each raises
:class:`EventError`, with a sentence for the organiser, and changes nothing
on bad input; ``by`` is the user acting, None for the service itself):

* :func:`open_entries`, :func:`start`, :func:`pause`, :func:`resume`,
  :func:`cancel` — the lifecycle (``lifecycle``);
* :func:`enter`, :func:`approve`, :func:`withdraw`, :func:`disqualify` —
  entrants (``entries``);
* :func:`release_round`, :func:`swap_entrants`, :func:`repair_round` -- a
  proposed round under review (``review``); :func:`adjudicate` -- the
  organiser's result for an aborted or broken game (``adjudication``);
* :func:`check_in` — an entrant says it is there (events with check-in;
  who has not is dropped at the start: ``check_ins``);
* :func:`set_seed_order`, :func:`seed_order_proposal`,
  :func:`seedable_entrants` — the organiser's seed
  order before the start, from a starting point (``seed_order``);
* :func:`on_game_finished` — the referee's hook that ends a round and queues
  the next one exactly once (``rounds``);
* :func:`problems` — what holds an event up (``problems``);
* :func:`active_entrants`, :func:`entrants_of`, :func:`history_of`,
  :func:`standings_of` — rows as the pure formats see them (``history``), for
  standings and crosstables;
* :func:`event_seed_revealed` — the event seed once it may be shown, and
  :func:`verify_seeds` — what does not check out at the end (``seeds``,
  which documents how anyone verifies an event).

docs/architecture.md, "Tournaments: formats and the round scheduler", has the whole picture.
"""

from __future__ import annotations

from tournaments.events.adjudication import adjudicate
from tournaments.events.check_ins import check_in
from tournaments.events.entries import approve, disqualify, enter, withdraw
from tournaments.events.errors import EventError
from tournaments.events.history import active_entrants, entrants_of, history_of, standings_of
from tournaments.events.lifecycle import cancel, open_entries, pause, resume, start
from tournaments.events.problems import problems
from tournaments.events.review import release as release_round
from tournaments.events.review import repair as repair_round
from tournaments.events.review import swap as swap_entrants
from tournaments.events.rounds import on_game_finished
from tournaments.events.seed_order import proposal as seed_order_proposal
from tournaments.events.seed_order import seedable as seedable_entrants
from tournaments.events.seed_order import set_order as set_seed_order
from tournaments.events.seeds import revealed as event_seed_revealed
from tournaments.events.seeds import verify as verify_seeds

__all__ = [
    "EventError",
    "active_entrants",
    "adjudicate",
    "approve",
    "cancel",
    "check_in",
    "disqualify",
    "enter",
    "entrants_of",
    "event_seed_revealed",
    "history_of",
    "on_game_finished",
    "open_entries",
    "pause",
    "problems",
    "release_round",
    "repair_round",
    "resume",
    "seed_order_proposal",
    "seedable_entrants",
    "set_seed_order",
    "standings_of",
    "start",
    "swap_entrants",
    "verify_seeds",
    "withdraw",
]

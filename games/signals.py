"""Signals the apps above listen to, so ``games`` never imports them.

``game_finished`` is sent by the referee's ``finish`` with ``game``, inside the
transaction that saved its outcome: ratings apply the result
(``ratings.services.apply``), an event's round may end and an arena's entrants wait
again (``tournaments.game_hooks``). Django's signals are synchronous, so their
writes commit or roll back with the outcome: a finished game is rated exactly
once. Receivers must not depend on one another's order.

``games_settled`` is sent inside the transaction that finished or aborted
games (``referee.finish``, ``events.lifecycle.abort_unfinished_games``), with
``game_ids``: what derives from public results (the competitor statistics of
``stats.services``) is updated in that same transaction, so it commits or rolls
back with the result, and the fragment versions of those games' lists, sets,
engines, events and competitors are bumped after its commit
(``web.cache.invalidation``). A finished game may become
public only when another game of its duplicate set ends (finished or
aborted), hence aborts are sent too.

``game_created`` is sent by ``games.services.create_game`` with ``game`` and
``competitor_ids``, inside the creating transaction: the pages' lists
and the competitors' pages show it once it commits (``web.cache.invalidation``).

``game_aborted`` is sent when the referee gives a running game up (a step that
fails on every try, ``games.referee.step_failures.abort``), with ``game``,
inside the aborting transaction: an event's round treats the game as over and
goes on (``tournaments.game_hooks``). An event's own cancellation does not send
it (the event is ending anyway).
"""

from __future__ import annotations

from django.dispatch import Signal

game_created = Signal()
"""Sent with ``game`` and ``competitor_ids`` by ``create_game``, inside its transaction."""

game_finished = Signal()
"""Sent with ``game`` (the ``Game``, locked and now finished) inside the finishing transaction."""

games_settled = Signal()
"""Sent with ``game_ids`` (a list of ``Game`` ids) once they finished or were aborted."""

game_aborted = Signal()
"""Sent with ``game`` (the ``Game``, locked and now aborted) inside the aborting transaction."""

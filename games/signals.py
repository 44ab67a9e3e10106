"""Signals other apps listen to, so ``tournaments`` never imports what sits above it.

``games_settled`` is sent inside the transaction that finished or aborted
games (``referee.finish``, ``events.lifecycle.abort_unfinished_games``), with
``game_ids``: what derives from public results (the competitor statistics of
``stats.tallies``) is updated in that same transaction, so it commits or rolls
back with the result, and the page cache's tokens of those games, their sets,
engines and competitors are bumped after its commit (``tournaments.pagecache_bumps``,
connected in ``harbormaster.pagecache_signals``). A finished game may become
public only when another game of its duplicate set ends (finished or
aborted), hence aborts are sent too.
"""

from __future__ import annotations

from django.dispatch import Signal

games_settled = Signal()
"""Sent with ``game_ids`` (a list of ``Game`` ids) once they finished or were aborted."""

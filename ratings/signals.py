"""What ratings tell the layers above, so this app never imports them.

Both are sent inside the transaction that writes the ratings (Django's
signals are synchronous): a receiver's writes and on-commit hooks commit or
roll back with the ratings. The web layer connects to them
(``web.cache.invalidation``) to retire the page fragments the ratings show.
"""

from __future__ import annotations

from django.dispatch import Signal

game_rated = Signal()
"""Sent by ``services.apply_game_result`` with ``game`` and ``competitor_ids`` (its rated seats)."""

scope_recomputed = Signal()
"""Sent by ``recompute.recompute_scope`` with ``engine`` and ``is_global`` (the scope's kind)."""
